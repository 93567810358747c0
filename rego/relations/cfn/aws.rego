# CloudFormation: the same resource graphs as the Terraform relations, joined
# by logical id. The loader turns `Ref` and `Fn::GetAtt` into the logical id
# of the resource they name, which is the resource's `id`; a literal physical
# name (`BucketName`, `RoleName`, `FunctionName`) joins as well.
package relations

import data.snyk
import rego.v1

# Buckets and their bucket policies.
relations contains snyk.relation_from_fields(
	"AWS::S3::Bucket.BucketPolicy",
	{"AWS::S3::Bucket": ["id", "BucketName"]},
	{"AWS::S3::BucketPolicy": ["Bucket"]},
)

# The bucket a trail delivers its log files to.
relations contains snyk.relation_from_fields(
	"AWS::CloudTrail::Trail.S3Bucket",
	{"AWS::CloudTrail::Trail": ["S3BucketName"]},
	{"AWS::S3::Bucket": ["id", "BucketName"]},
)

# Security groups and what attaches them or adds rules to them.
relations contains snyk.relation_from_fields(
	"AWS::EC2::SecurityGroup",
	{"AWS::EC2::SecurityGroup": ["id", "GroupName"]},
	{
		"AWS::EC2::SecurityGroupIngress": ["GroupId", "GroupName"],
		"AWS::EC2::SecurityGroupEgress": ["GroupId"],
		"AWS::EC2::Instance": ["SecurityGroupIds[*]", "SecurityGroups[*]", "NetworkInterfaces[*].GroupSet[*]"],
		"AWS::EC2::NetworkInterface": ["GroupSet[*]"],
		"AWS::EC2::LaunchTemplate": ["LaunchTemplateData.SecurityGroupIds[*]", "LaunchTemplateData.NetworkInterfaces[*].Groups[*]"],
		"AWS::ElasticLoadBalancingV2::LoadBalancer": ["SecurityGroups[*]"],
		"AWS::ElasticLoadBalancing::LoadBalancer": ["SecurityGroups[*]"],
		"AWS::RDS::DBInstance": ["VPCSecurityGroups[*]"],
	},
)

# Roles and the policies and instance profiles that name them.
relations contains snyk.relation_from_fields(
	"AWS::IAM::Role",
	{"AWS::IAM::Role": ["id", "RoleName"]},
	{
		"AWS::IAM::Policy": ["Roles[*]"],
		"AWS::IAM::ManagedPolicy": ["Roles[*]"],
		"AWS::IAM::InstanceProfile": ["Roles[*]"],
	},
)

# KMS keys and the resources they encrypt.
relations contains snyk.relation_from_fields(
	"AWS::KMS::Key",
	{"AWS::KMS::Key": ["id", "KeyId"]},
	{
		"AWS::S3::Bucket": ["BucketEncryption.ServerSideEncryptionConfiguration[*].ServerSideEncryptionByDefault.KMSMasterKeyID"],
		"AWS::CloudTrail::Trail": ["KMSKeyId"],
		"AWS::EC2::Volume": ["KmsKeyId"],
		"AWS::RDS::DBInstance": ["KmsKeyId"],
		"AWS::Lambda::Function": ["KmsKeyArn"],
		"AWS::SNS::Topic": ["KmsMasterKeyId"],
		"AWS::SQS::Queue": ["KmsMasterKeyId"],
		"AWS::KMS::Alias": ["TargetKeyId"],
	},
)

# Lambda functions and the permissions granted on them.
relations contains snyk.relation_from_fields(
	"AWS::Lambda::Function.Permission",
	{"AWS::Lambda::Function": ["id", "FunctionName"]},
	{"AWS::Lambda::Permission": ["FunctionName"]},
)

# VPCs and the flow logs that record their traffic (a flow log's ResourceId
# names a VPC, a subnet or a network interface; only VPCs join here).
relations contains snyk.relation_from_fields(
	"AWS::EC2::VPC.FlowLog",
	{"AWS::EC2::VPC": ["id"]},
	{"AWS::EC2::FlowLog": ["ResourceId"]},
)
