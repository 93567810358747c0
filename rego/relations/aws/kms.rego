# KMS keys and the resources they encrypt; named after the key, since many
# resource types use one (seed 000, rule 3). A key is known by its id, ARN or
# key id; configuration references render as the key's address.
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_kms_key",
	{"aws_kms_key": ["id", "arn", "key_id"]},
	{
		"aws_s3_bucket_server_side_encryption_configuration": ["rule[*].apply_server_side_encryption_by_default[*].kms_master_key_id"],
		"aws_s3_bucket": ["server_side_encryption_configuration[*].rule[*].apply_server_side_encryption_by_default[*].kms_master_key_id"],
		"aws_cloudtrail": ["kms_key_id"],
		"aws_ebs_volume": ["kms_key_id"],
		"aws_db_instance": ["kms_key_id"],
		"aws_lambda_function": ["kms_key_arn"],
		"aws_sns_topic": ["kms_master_key_id"],
		"aws_sqs_queue": ["kms_master_key_id"],
		"aws_cloudwatch_log_group": ["kms_key_id"],
		"aws_kms_alias": ["target_key_id"],
	},
)
