package rules.missing_v0

import data.snyk

input_type := "tf"

metadata := {"id": "MISSING_V0", "severity": "Medium"}

deny[info] {
	count(snyk.resources("aws_cloudtrail")) == 0
	info := {"resource_type": "aws_cloudtrail", "message": "no aws_cloudtrail is configured"}
}
