# Multi-resource rule, Rego v0, cloud scans only: snyk.query with a
# non-empty scope restricts it to the production account.
package rules.prod_account_versioning

import data.snyk

resource_type := "MULTIPLE"

input_type := "cloud_scan"

metadata := {
	"id": "ACME-PROD-S3-VERSIONING",
	"title": "Production S3 bucket has versioning disabled",
	"description": "Buckets in the production account must keep object versions for recovery.",
	"platform": ["AWS"],
	"remediation": {"console": "Open the bucket in the S3 console, choose Properties > Bucket Versioning > Enable."},
	"service_group": "S3",
	"severity": "medium",
}

production_scope := {"account": "123456789012"}

buckets := snyk.query({"resource_type": "aws_s3_bucket", "scope": production_scope})

versioned(bucket) {
	bucket.versioning[_].enabled == true
}

deny[info] {
	bucket := buckets[_]
	not versioned(bucket)
	info := {
		"resource": bucket,
		"message": sprintf("Bucket %s in production account %s (%s) is not versioned", [bucket.id, production_scope.account, bucket._namespace]),
		"attributes": [["versioning"]],
		"severity": "High",
	}
}

resources[info] {
	bucket := buckets[_]
	info := {"resource": bucket}
}
