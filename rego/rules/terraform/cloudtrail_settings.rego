# CloudTrail trails validate log files, cover every region and encrypt with
# KMS: one result per setting (Rego v0 syntax).
package rules.tf_aws_cloudtrail_settings

import data.snyk

input_type := "tf"

metadata := {
	"id": "RE-AWS-015",
	"title": "CloudTrail trails validate, cover all regions and encrypt their logs",
	"description": "Log file validation makes tampering with delivered logs detectable; a multi-region trail records activity in regions nobody watches; a KMS key adds access control and auditing to reading the logs.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "medium",
	"remediation": {
		"terraform": "Set enable_log_file_validation = true, is_multi_region_trail = true and kms_key_id to a customer managed key on the aws_cloudtrail.",
		"console": "Edit the trail: enable Log file validation, apply the trail to all regions, and enable SSE-KMS encryption.",
	},
	"references": [
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-validation-intro.html",
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/receive-cloudtrail-log-files-from-multiple-regions.html",
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/encrypting-cloudtrail-log-files-with-aws-kms.html",
	],
}

checks := {
	"enable_log_file_validation": "Log file validation is not enabled.",
	"is_multi_region_trail": "The trail does not cover every region.",
}

deny[info] {
	trail := snyk.resources("aws_cloudtrail")[_]
	message := checks[setting]
	object.get(trail, setting, false) != true
	info := {"resource": trail, "result_tag": setting, "message": message, "attributes": [[setting]]}
}

deny[info] {
	trail := snyk.resources("aws_cloudtrail")[_]
	not encrypted(trail)
	info := {"resource": trail, "result_tag": "kms_key_id", "message": "The logs are not encrypted with a KMS key.", "attributes": [["kms_key_id"]]}
}

encrypted(trail) {
	is_string(trail.kms_key_id)
	trail.kms_key_id != ""
}

resources[info] {
	trail := snyk.resources("aws_cloudtrail")[_]
	tags := {"kms_key_id", "enable_log_file_validation", "is_multi_region_trail"}
	info := {"resource": trail, "result_tag": tags[_]}
}
