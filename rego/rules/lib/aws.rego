# Helpers the shipped AWS rules share: IAM policy documents, world-open
# network rules. Not a rule (no deny).
package shipped_lib.aws

import rego.v1

# A policy document as an object, whether written as a JSON string (Terraform,
# `jsonencode`) or as an object (CloudFormation, plans). A string that is not
# JSON (an unresolved reference) has no document.
policy_document(doc) := json.unmarshal(doc) if {
	is_string(doc)
	json.is_valid(doc)
}

policy_document(doc) := doc if is_object(doc)

as_array(x) := x if is_array(x)

as_array(x) := [x] if not is_array(x)

# [index, statement] for every statement of a document.
statements(doc) := [[i, s] | some i, s in as_array(object.get(policy_document(doc), "Statement", []))]

# A statement's tag: its Sid when it has one, else its position.
statement_tag(i, s) := sprintf("statement[%s]", [s.Sid]) if {
	is_string(s.Sid)
	s.Sid != ""
} else := sprintf("statement[%d]", [i])

# An Allow statement granting every action on every resource.
grants_admin(s) if {
	s.Effect == "Allow"
	"*" in as_array(object.get(s, "Action", []))
	"*" in as_array(object.get(s, "Resource", []))
}

# A principal anyone matches: "*" or {"AWS": "*"} (possibly in a list).
public_principal("*")

public_principal(p) if "*" in as_array(p.AWS)

# An Allow statement anyone may use: a public principal and no condition
# narrowing it.
public_statement(s) if {
	s.Effect == "Allow"
	public_principal(s.Principal)
	not s.Condition
}

world_cidrs := {"0.0.0.0/0", "::/0"}

# Whether a rule's protocol and port range take in `port` ("-1" and "all"
# mean every protocol and port).
covers_port(protocol, _, _, _) if lower(sprintf("%v", [protocol])) in {"-1", "all"}

covers_port(protocol, from, to, port) if {
	not lower(sprintf("%v", [protocol])) in {"-1", "all"}
	to_number(from) <= port
	port <= to_number(to)
}

admin_ports := {22: "SSH", 3389: "RDP"}

# AWS managed policy ARNs that grant full access.
admin_policy_arns := {"arn:aws:iam::aws:policy/AdministratorAccess"}

# A CloudFormation boolean: true, or the string "true" in any case (templates
# often quote them).
cfn_true(v) if v == true

cfn_true(v) if {
	is_string(v)
	lower(v) == "true"
}

# CloudTrail event families that should raise alarms: tag → the words a
# metric filter pattern must all contain (API event names, or the fields that
# single the events out).
event_families := {
	"unauthorized_api_calls": ["UnauthorizedOperation", "AccessDenied"],
	"console_login_without_mfa": ["ConsoleLogin", "MFAUsed"],
	"root_usage": ["Root"],
	"iam_policy_changes": ["CreatePolicy", "DeletePolicy", "AttachRolePolicy", "PutUserPolicy"],
	"cloudtrail_changes": ["CreateTrail", "UpdateTrail", "DeleteTrail", "StopLogging"],
	"console_login_failures": ["ConsoleLogin", "Failed authentication"],
	"kms_key_disabling": ["DisableKey", "ScheduleKeyDeletion"],
	"s3_policy_changes": ["PutBucketPolicy", "DeleteBucketPolicy"],
	"config_changes": ["StopConfigurationRecorder", "DeleteDeliveryChannel"],
	"security_group_changes": ["AuthorizeSecurityGroupIngress", "RevokeSecurityGroupIngress", "CreateSecurityGroup", "DeleteSecurityGroup"],
	"nacl_changes": ["CreateNetworkAcl", "CreateNetworkAclEntry", "DeleteNetworkAcl", "ReplaceNetworkAclEntry"],
	"gateway_changes": ["CreateCustomerGateway", "AttachInternetGateway", "DeleteInternetGateway"],
	"route_table_changes": ["CreateRoute", "CreateRouteTable", "ReplaceRoute", "DeleteRouteTable"],
	"vpc_changes": ["CreateVpc", "DeleteVpc", "ModifyVpcAttribute", "CreateVpcPeeringConnection"],
	"organizations_changes": ["organizations.amazonaws.com"],
}
