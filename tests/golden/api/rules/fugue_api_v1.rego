package rules.api_fugue_v1

import data.fugue
import rego.v1

deny contains info if {
	some id, b in fugue.resources("aws_s3_bucket")
	id != b._id
	info := {"resource": b, "message": sprintf("visible id %s differs from logical id", [id])}
}

deny contains info if {
	fugue.input_type == "cloud_scan"
	info := {
		"message": "fugue facts",
		"context": {"types": fugue.input_resource_types, "legacy": fugue.resource_types},
	}
}
