# IAM roles, the policies attached to them and the instance profiles that
# hand them to EC2 instances. A role is known by its id, its name or its ARN:
# attachments name it by `role` (a name), profiles by `role` too.
package relations

import data.snyk
import rego.v1

# Managed policies attached with aws_iam_role_policy_attachment.
relations contains snyk.relation_from_fields(
	"aws_iam_role.policy_attachment",
	{"aws_iam_role": ["id", "name", "arn"]},
	{"aws_iam_role_policy_attachment": ["role"]},
)

# Inline policies declared with aws_iam_role_policy.
relations contains snyk.relation_from_fields(
	"aws_iam_role.policy",
	{"aws_iam_role": ["id", "name", "arn"]},
	{"aws_iam_role_policy": ["role"]},
)

# The role an instance profile carries.
relations contains snyk.relation_from_fields(
	"aws_iam_instance_profile.role",
	{"aws_iam_instance_profile": ["role"]},
	{"aws_iam_role": ["id", "name", "arn"]},
)

# The instance profile an instance runs with.
relations contains snyk.relation_from_fields(
	"aws_instance.iam_instance_profile",
	{"aws_instance": ["iam_instance_profile"]},
	{"aws_iam_instance_profile": ["id", "name", "arn"]},
)

# The customer managed policy an attachment attaches (by ARN, or the
# address a reference to aws_iam_policy renders as).
relations contains snyk.relation_from_fields(
	"aws_iam_role_policy_attachment.policy",
	{"aws_iam_role_policy_attachment": ["policy_arn"]},
	{"aws_iam_policy": ["id", "arn"]},
)
