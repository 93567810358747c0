# EC2 instances do not run with an administrator role: instance → instance
# profile → role → attached or inline policies (Rego v0 syntax).
package rules.tf_aws_iam_instance_admin

import data.shipped_lib.aws
import data.snyk

input_type := "tf"

metadata := {
	"id": "RE-AWS-013",
	"title": "EC2 instances do not run with administrator roles",
	"description": "Any process on an instance, or anyone who reaches its metadata service, can use the credentials of the role in its instance profile. A role with AdministratorAccess or a policy allowing every action on every resource turns an instance compromise into an account compromise.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "high",
	"remediation": {
		"terraform": "Attach to the instance profile's role only policies listing the actions and resources the workload needs; remove AdministratorAccess attachments and \"*\" statements.",
		"console": "In IAM > Roles, detach AdministratorAccess from the role and attach a least-privilege policy.",
	},
	"references": [
		"https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_switch-role-ec2.html",
		"https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege",
	],
}

# [role, resource granting admin, attribute path] for the roles an instance runs with.
admin_grants[[instance._id, role, grant, path]] {
	instance := snyk.resources("aws_instance")[_]
	role := instance_roles(instance)[_]
	[grant, path] := role_admin_grants(role)[_]
}

instance_roles(instance) = [role |
	profile := snyk.relates(instance, "aws_instance.iam_instance_profile")[_]
	role := snyk.relates(profile, "aws_iam_instance_profile.role")[_]
]

role_admin_grants(role) = array.concat(managed, array.concat(customer, inline)) {
	attachments := snyk.relates(role, "aws_iam_role.policy_attachment")
	managed := [[a, ["policy_arn"]] | a := attachments[_]; aws.admin_policy_arns[a.policy_arn]]
	customer := [[p, ["policy"]] |
		a := attachments[_]
		p := snyk.relates(a, "aws_iam_role_policy_attachment.policy")[_]
		s := aws.statements(p.policy)[_][1]
		aws.grants_admin(s)
	]
	inline := [[p, ["policy"]] |
		p := snyk.relates(role, "aws_iam_role.policy")[_]
		s := aws.statements(p.policy)[_][1]
		aws.grants_admin(s)
	]
}

deny[info] {
	instance := snyk.resources("aws_instance")[_]
	admin_grants[[instance._id, role, grant, path]]
	info := {
		"primary_resource": instance,
		"resource": grant,
		"message": sprintf("The instance's role %s has administrator access through %s.", [role._id, grant._id]),
		"attributes": [path],
		"graph": [{"source": instance, "label": "assumes", "target": role}, {"source": role, "label": "granted by", "target": grant}],
	}
}

resources[info] {
	instance := snyk.resources("aws_instance")[_]
	info := {"resource": instance}
}
