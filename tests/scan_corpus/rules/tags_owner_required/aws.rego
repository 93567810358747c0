# Multi-resource rule, Rego v1, no resource_type and no input_type: walks
# snyk.input_resource_types and checks every taggable AWS resource.
package rules.tags_owner_required

import data.snyk
import rego.v1

metadata := {
	"id": "ACME_TAG_002",
	"title": "AWS resource has no owner tag",
	"description": "Every taggable AWS resource must name its owning team in an `owner` tag.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Add `owner = \"<team>\"` to the resource's tags (or to the provider's default_tags)."},
	"category": "Governance",
	"labels": ["tagging"],
	"severity": "low",
	"kind": "best-practice",
}

taggable := {"aws_s3_bucket", "aws_security_group", "aws_kms_key", "aws_iam_policy", "aws_cloudtrail"}

checked_types := {t | some t in snyk.input_resource_types; startswith(t, "aws_"); t in taggable}

has_owner(r) if {
	some k, v in r._tags
	lower(k) == "owner"
	v != ""
}

deny contains info if {
	some t in checked_types
	some r in snyk.resources(t)
	not has_owner(r)
	info := {
		"resource": r,
		"message": sprintf("%s %s has no owner tag", [t, r.id]),
		"context": {"tags": r._tags, "filepath": r._filepath},
	}
}

resources contains {"resource": r} if {
	some t in checked_types
	some r in snyk.resources(t)
}
