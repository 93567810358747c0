# Multi-resource rule, Rego v1 (no rego.v1 import): json.unmarshal of the
# policy string, `every`, per-result severity, context.
package rules.iam_service_wildcard

import data.snyk

resource_type := "MULTIPLE"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-IAM-4",
	"title": "IAM policy allows all actions of a service",
	"description": "Service-wide wildcards such as s3:* grant destructive and administrative actions along with the ones needed.",
	"platform": ["AWS"],
	"remediation": {"terraform": "List the specific actions instead of `service:*`."},
	"category": "IAM",
	"service_group": "IAM",
	"severity": "Medium",
}

sensitive_services := {"iam", "kms", "sts", "organizations"}

policies := snyk.resources("aws_iam_policy")

as_array(x) := x if is_array(x)

as_array(x) := [x] if not is_array(x)

statements(policy) := as_array(doc.Statement) if doc := json.unmarshal(policy.policy)

read_only(policy) if {
	every stmt in statements(policy) {
		every action in as_array(stmt.Action) {
			regex.match(`^[a-z0-9-]+:(Get|List|Describe|Lookup)`, action)
		}
	}
}

severity_for(service) := "High" if service in sensitive_services
else := "medium"

deny contains info if {
	some policy in policies
	some stmt in statements(policy)
	stmt.Effect == "Allow"
	some action in as_array(stmt.Action)
	endswith(action, ":*")
	service := split(action, ":")[0]
	info := {
		"resource": policy,
		"message": sprintf("IAM policy %s allows every %s action (%s)", [policy.name, service, action]),
		"attributes": [["policy"]],
		"severity": severity_for(service),
	}
}

read_only_flag(policy) := true if read_only(policy)
else := false

resources contains info if {
	some policy in policies
	info := {"resource": policy, "context": {"read_only": read_only_flag(policy)}}
}
