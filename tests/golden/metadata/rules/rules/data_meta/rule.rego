package rules.data_meta

import rego.v1

resource_type := "aws_s3_bucket"

deny contains "bucket name is too short" if count(input.bucket) < 5
