package rules.meta_rule

import rego.v1

metadata := {
	"id": "META_001",
	"title": "Buckets are private",
	"description": "Buckets must not be public.",
	"platform": ["AWS"],
	"remediation": {
		"terraform": "terraform fix",
		"cloudformation": "cfn fix",
		"kubernetes": "k8s fix",
		"arm": "arm fix",
		"console": "console fix",
	},
	"references": "[S3 docs](https://docs.aws.amazon.com/s3/)",
	"category": "Storage",
	"labels": ["public-access"],
	"service_group": "S3",
	"controls": {"CIS-AWS": {"v1.4.0": ["2.1.5"]}},
	"severity": "High",
	"kind": "vulnerability",
}

deny contains info if {
	some b in data.snyk.resources("aws_s3_bucket")
	b.acl == "public-read"
	info := {"resource": b}
}

deny contains info if {
	some b in data.snyk.resources("AWS::S3::Bucket")
	b.AccessControl == "PublicRead"
	info := {"resource": b}
}

deny contains info if {
	some d in data.snyk.resources("Deployment")
	some c in d.spec.template.spec.containers
	c.securityContext.privileged
	info := {"resource": d, "message": sprintf("%s is privileged", [c.name]), "result_tag": c.name}
}

deny contains info if {
	some s in data.snyk.resources("Microsoft.Storage/storageAccounts")
	not s.properties.supportsHttpsTrafficOnly
	info := {"resource": s, "attributes": [["properties", "supportsHttpsTrafficOnly"]]}
}
