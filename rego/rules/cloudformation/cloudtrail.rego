# CloudTrail trails validate log files, cover every region and encrypt with
# KMS: one result per setting (Rego v0).
package rules.cfn_cloudtrail

import data.shipped_lib.aws
import data.snyk

input_type := "cfn"

metadata := {
	"id": "RE-CFN-009",
	"title": "CloudTrail trails validate, cover all regions and encrypt their logs",
	"description": "Log file validation makes tampering with delivered logs detectable; a multi-region trail records activity in regions nobody watches; a KMS key adds access control and auditing to reading the logs.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "medium",
	"remediation": {
		"cloudformation": "Set EnableLogFileValidation: true, IsMultiRegionTrail: true and KMSKeyId on the AWS::CloudTrail::Trail.",
		"console": "Edit the trail: enable Log file validation, apply the trail to all regions, and enable SSE-KMS encryption.",
	},
	"references": [
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-validation-intro.html",
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/encrypting-cloudtrail-log-files-with-aws-kms.html",
	],
}

checks := {
	"EnableLogFileValidation": "Log file validation is not enabled.",
	"IsMultiRegionTrail": "The trail does not cover every region.",
}

deny[info] {
	trail := snyk.resources("AWS::CloudTrail::Trail")[_]
	message := checks[setting]
	not aws.cfn_true(object.get(trail, setting, false))
	info := {"resource": trail, "result_tag": setting, "message": message, "attributes": [[setting]]}
}

deny[info] {
	trail := snyk.resources("AWS::CloudTrail::Trail")[_]
	not trail.KMSKeyId
	info := {"resource": trail, "result_tag": "KMSKeyId", "message": "The logs are not encrypted with a KMS key.", "attributes": [["KMSKeyId"]]}
}

resources[info] {
	trail := snyk.resources("AWS::CloudTrail::Trail")[_]
	tags := {"KMSKeyId", "EnableLogFileValidation", "IsMultiRegionTrail"}
	info := {"resource": trail, "result_tag": tags[_]}
}
