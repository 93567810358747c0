package relations_test.cfn

import data.snyk
import rego.v1

# As the CloudFormation loader gives them: Ref and GetAtt are logical ids.
state := {
	"input_type": "cfn",
	"resources": {
		"AWS::S3::Bucket": {
			"Logs": {"attributes": {"BucketName": "acme-logs"}},
			"Data": {"attributes": {"BucketEncryption": {"ServerSideEncryptionConfiguration": [{"ServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms", "KMSMasterKeyID": "DataKey"}}]}}},
		},
		"AWS::S3::BucketPolicy": {"DataPolicy": {"attributes": {"Bucket": "Data"}}},
		"AWS::CloudTrail::Trail": {"Trail": {"attributes": {"S3BucketName": "acme-logs", "KMSKeyId": "DataKey"}}},
		"AWS::KMS::Key": {"DataKey": {"attributes": {}}},
		"AWS::EC2::SecurityGroup": {"WebSg": {"attributes": {}}},
		"AWS::EC2::SecurityGroupIngress": {"WebSsh": {"attributes": {"GroupId": "WebSg"}}},
		"AWS::EC2::Instance": {"Web": {"attributes": {"SecurityGroupIds": ["WebSg"]}}},
		"AWS::ElasticLoadBalancingV2::LoadBalancer": {"Front": {"attributes": {"SecurityGroups": ["WebSg"]}}},
		"AWS::IAM::Role": {"AppRole": {"attributes": {}}},
		"AWS::IAM::ManagedPolicy": {"AppPolicy": {"attributes": {"Roles": ["AppRole"]}}},
		"AWS::IAM::InstanceProfile": {"AppProfile": {"attributes": {"Roles": ["AppRole"]}}},
		"AWS::Lambda::Function": {"Api": {"attributes": {}}},
		"AWS::Lambda::Permission": {"ApiInvoke": {"attributes": {"FunctionName": "Api"}}},
		"AWS::EC2::VPC": {"Main": {"attributes": {}}, "Spare": {"attributes": {}}},
		"AWS::EC2::Subnet": {"Public": {"attributes": {"VpcId": "Main"}}},
		"AWS::EC2::FlowLog": {
			"MainLog": {"attributes": {"ResourceId": "Main", "ResourceType": "VPC"}},
			"SubnetLog": {"attributes": {"ResourceId": "Public", "ResourceType": "Subnet"}},
		},
	},
}

related(type, id, name) := {r._id |
	some x in snyk.resources(type)
	x._id == id
	some r in snyk.relates(x, name)
}

test_bucket_policy if {
	related("AWS::S3::Bucket", "Data", "AWS::S3::Bucket.BucketPolicy") == {"DataPolicy"} with input as state
	related("AWS::S3::Bucket", "Logs", "AWS::S3::Bucket.BucketPolicy") == set() with input as state
}

test_trail_bucket_by_physical_name if {
	related("AWS::CloudTrail::Trail", "Trail", "AWS::CloudTrail::Trail.S3Bucket") == {"Logs"} with input as state
}

test_key_users if {
	related("AWS::KMS::Key", "DataKey", "AWS::KMS::Key") == {"Data", "Trail"} with input as state
}

test_security_group if {
	related("AWS::EC2::SecurityGroup", "WebSg", "AWS::EC2::SecurityGroup") == {"WebSsh", "Web", "Front"} with input as state
}

test_role if {
	related("AWS::IAM::Role", "AppRole", "AWS::IAM::Role") == {"AppPolicy", "AppProfile"} with input as state
}

test_lambda_permission if {
	related("AWS::Lambda::Function", "Api", "AWS::Lambda::Function.Permission") == {"ApiInvoke"} with input as state
}

test_vpc_flow_log if {
	related("AWS::EC2::VPC", "Main", "AWS::EC2::VPC.FlowLog") == {"MainLog"} with input as state
	related("AWS::EC2::VPC", "Spare", "AWS::EC2::VPC.FlowLog") == set() with input as state
}
