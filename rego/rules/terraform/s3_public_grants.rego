# S3 buckets are not public through a canned ACL, an ACL grant or a bucket
# policy, unless the bucket's public access block neutralises that path.
package rules.tf_aws_s3_public_grants

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-003",
	"title": "S3 buckets are not readable or writable by everyone",
	"description": "A public-read, public-read-write or authenticated-read ACL, an ACL grant to the AllUsers or AuthenticatedUsers group, or a bucket policy statement allowing any principal without conditions makes a bucket public, unless the bucket's public access block ignores public ACLs (for ACLs) or restricts public buckets (for policies).",
	"platform": ["AWS"],
	"category": "Access control",
	"service_group": "S3",
	"severity": "critical",
	"remediation": {
		"terraform": "Use the private ACL (or aws_s3_bucket_ownership_controls with BucketOwnerEnforced), drop Allow statements for Principal \"*\" from the bucket policy, and add an aws_s3_bucket_public_access_block with ignore_public_acls and restrict_public_buckets set to true.",
		"console": "Remove public grants from the bucket's ACL and policy, and turn on Block public access.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html#canned-acl",
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html#access-control-block-public-access-policy-status",
	],
}

public_canned_acls := {"public-read", "public-read-write", "authenticated-read"}

public_groups := {
	"http://acs.amazonaws.com/groups/global/AllUsers",
	"http://acs.amazonaws.com/groups/global/AuthenticatedUsers",
}

blocks(bucket, setting) if {
	some block in snyk.relates(bucket, "aws_s3_bucket.public_access_block")
	block[setting] == true
}

# [resource carrying the ACL, attribute path] for every public ACL of the bucket.
public_acls(bucket) := (inline | canned) | granted if {
	inline := {[bucket, ["acl"]] | bucket.acl in public_canned_acls}
	acls := snyk.relates(bucket, "aws_s3_bucket.acl")
	canned := {[acl, ["acl"]] | some acl in acls; acl.acl in public_canned_acls}
	granted := {[acl, ["access_control_policy", i, "grant", j, "grantee"]] |
		some acl in acls
		some i, policy in acl.access_control_policy
		some j, grant in policy.grant
		some grantee in grant.grantee
		grantee.uri in public_groups
	}
}

# [resource carrying the policy, attribute path, statement tag] for every
# public statement of the bucket's policies (inline or separate).
public_statements(bucket) := {[holder, ["policy"], aws.statement_tag(i, s)] |
	some holder in array.concat([bucket], snyk.relates(bucket, "aws_s3_bucket.policy"))
	some [i, s] in aws.statements(holder.policy)
	aws.public_statement(s)
}

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	not blocks(bucket, "ignore_public_acls")
	some [holder, path] in public_acls(bucket)
	info := {
		"primary_resource": bucket,
		"resource": holder,
		"result_tag": "acl",
		"message": "The bucket's ACL grants access to everyone.",
		"attributes": [path],
	}
}

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	not blocks(bucket, "restrict_public_buckets")
	some [holder, path, tag] in public_statements(bucket)
	info := {
		"primary_resource": bucket,
		"resource": holder,
		"result_tag": tag,
		"message": sprintf("The bucket policy's %s allows any principal.", [tag]),
		"attributes": [path],
	}
}

resources contains {"resource": bucket, "result_tag": "acl"} if some bucket in snyk.resources("aws_s3_bucket")
