"""CloudFormation properties whose update replaces the resource.

The AWS resource reference marks each property "Update requires:
Replacement". This table holds that mark for common resource types (top-level
properties only, and only those replaced unconditionally); a property it does
not list is assumed to update in place. It is deliberately small: extend it
as types are needed.
"""

from __future__ import annotations

REPLACEMENT: dict[str, frozenset[str]] = {
    "AWS::CloudTrail::Trail": frozenset({"TrailName"}),
    "AWS::DynamoDB::Table": frozenset({"TableName"}),
    "AWS::EC2::Instance": frozenset(
        {"AvailabilityZone", "ImageId", "KeyName", "PrivateIpAddress", "SubnetId"}
    ),
    "AWS::EC2::SecurityGroup": frozenset({"GroupDescription", "GroupName", "VpcId"}),
    "AWS::EC2::Subnet": frozenset({"AvailabilityZone", "CidrBlock", "VpcId"}),
    "AWS::EC2::VPC": frozenset({"CidrBlock"}),
    "AWS::ECR::Repository": frozenset({"RepositoryName"}),
    "AWS::ElasticLoadBalancingV2::LoadBalancer": frozenset({"Name", "Scheme", "Type"}),
    "AWS::IAM::Role": frozenset({"Path", "RoleName"}),
    "AWS::Kinesis::Stream": frozenset({"Name"}),
    "AWS::KMS::Alias": frozenset({"AliasName"}),
    "AWS::Lambda::Function": frozenset({"FunctionName", "PackageType"}),
    "AWS::Logs::LogGroup": frozenset({"LogGroupName"}),
    "AWS::RDS::DBInstance": frozenset(
        {"DBInstanceIdentifier", "DBName", "KmsKeyId", "MasterUsername", "StorageEncrypted"}
    ),
    "AWS::S3::Bucket": frozenset({"BucketName", "ObjectLockEnabled"}),
    "AWS::SNS::Topic": frozenset({"FifoTopic", "TopicName"}),
    "AWS::SQS::Queue": frozenset({"FifoQueue", "QueueName"}),
}


def replacement_properties(resource_type: str) -> frozenset[str]:
    """The top-level properties of ``resource_type`` whose update replaces it."""
    return REPLACEMENT.get(resource_type, frozenset())
