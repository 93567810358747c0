# Launch templates require IMDSv2 session tokens.
package rules.cfn_imdsv2

import rego.v1

resource_type := "AWS::EC2::LaunchTemplate"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-019",
	"title": "Launch templates require IMDSv2",
	"description": "IMDSv1 answers any HTTP GET from the instance, which server-side request forgery can abuse to read the instance role's credentials. In CloudFormation the metadata options of an instance are set through its launch template; HttpTokens: required accepts only session-token (IMDSv2) requests.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "EC2",
	"severity": "medium",
	"aliases": ["CKV_AWS_79"],
	"controls": ["CIS-AWS_v1.5.0_5.6"],
	"remediation": {"cloudformation": "Set LaunchTemplateData.MetadataOptions.HttpTokens: required on the AWS::EC2::LaunchTemplate (and launch instances from it)."},
	"references": [
		"https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-ec2-launchtemplate-metadataoptions.html",
	],
}

deny contains info if {
	options := object.get(input, ["LaunchTemplateData", "MetadataOptions"], {})
	object.get(options, "HttpTokens", "optional") != "required"
	info := {
		"message": "LaunchTemplateData.MetadataOptions.HttpTokens is not \"required\".",
		"attributes": [["LaunchTemplateData", "MetadataOptions", "HttpTokens"]],
	}
}
