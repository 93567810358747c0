package rules.rd_cfn_trail_validation

__rego__metadoc__ := {
  "id": "RD_003",
  "title": "CloudTrail trails validate their log files",
  "description": "Log file validation detects a log file changed after delivery.",
  "custom": {"severity": "Low"}
}

input_type := "cfn"

resource_type := "AWS::CloudTrail::Trail"

default allow = false

allow {
  input.EnableLogFileValidation == true
}
