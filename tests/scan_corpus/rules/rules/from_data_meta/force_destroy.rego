# Single-resource rule, Rego v1, whose metadata comes from the data document
# metadata.json beside it (loaded at data.rules.from_data_meta.metadata).
package rules.from_data_meta

import rego.v1

resource_type := "aws_s3_bucket"

input_type := "tf"

deny contains info if {
	input.force_destroy == true
	info := {"message": sprintf("S3 bucket %s sets force_destroy, so `terraform destroy` deletes it with all its objects", [input.id])}
}
