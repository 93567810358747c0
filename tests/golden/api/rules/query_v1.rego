package rules.api_query_v1

import data.snyk
import rego.v1

input_type := "tf"

# Scoped queries: only inputs whose scope matches see resources.
deny contains info if {
	some b in snyk.query({"resource_type": "aws_s3_bucket", "scope": {"filepath": "main.tf"}})
	info := {"resource": b, "message": "in main.tf"}
}

deny contains info if {
	some b in snyk.query({"resource_type": "aws_s3_bucket", "scope": {"region": "us-east-1"}})
	info := {"resource": b, "message": "in us-east-1"}
}

deny contains info if {
	some b in snyk.query({"resource_type": "aws_s3_bucket", "scope": {}})
	b.acl == "public-read"
	info := {"resource": b, "message": "public (unscoped query)"}
}
