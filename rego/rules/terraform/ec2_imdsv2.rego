# EC2 instances require IMDSv2 session tokens (single-resource rule, Rego v0).
package rules.tf_aws_ec2_imdsv2

resource_type := "aws_instance"

input_type := "tf"

metadata := {
	"id": "RE-AWS-010",
	"title": "EC2 instances require IMDSv2",
	"description": "IMDSv1 answers any HTTP GET from the instance, which server-side request forgery can abuse to steal the instance role's credentials. Setting metadata_options.http_tokens to required allows only session-token (IMDSv2) requests.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "EC2",
	"severity": "medium",
	"aliases": ["CKV_AWS_79", "aws-ec2-enforce-http-token-imds"],
	"remediation": {
		"terraform": "Add metadata_options { http_tokens = \"required\" } to the aws_instance.",
		"console": "Instance > Actions > Instance settings > Modify instance metadata options: set IMDSv2 to Required.",
	},
	"references": [
		"https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/instance#metadata-options",
	],
}

deny[info] {
	not input.metadata_options
	info := {"message": "The instance has no metadata_options, so IMDSv1 stays enabled."}
}

deny[info] {
	options := input.metadata_options[i]
	object.get(options, "http_tokens", "optional") != "required"
	info := {
		"message": "metadata_options.http_tokens is not \"required\".",
		"attributes": [["metadata_options", i, "http_tokens"]],
	}
}
