# snyk's metadata forms: no kind (defaults to vulnerability), references keyed
# by input type with {url, title} objects, and old-style controls by family.
package rules.snyk_forms

import rego.v1

metadata := {
	"id": "META_003",
	"title": "Queues are encrypted",
	"severity": "Medium",
	"references": {
		"general": [{"url": "https://example.com/queues", "title": "Queue guide"}],
		"terraform": [{"url": "https://example.com/tf/sqs"}],
		"cloudformation": [{"url": "https://example.com/cfn/sqs", "title": "AWS::SQS::Queue"}],
	},
	"controls": {
		"NIST-800-53": {"vRev4": ["SC-28"]},
		"CIS-AWS": {"v1.4.0": ["2.2.1", "2.1.1"], "v1.3.0": ["2.1.1"]},
	},
}

resource_type := "aws_sqs_queue"

deny contains info if {
	not input.kms_master_key_id
	info := {"resource": input}
}
