# Roles do not let their holders exec or attach into pods: one result per
# role rule.
package rules.k8s_rbac_exec

import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-025",
	"title": "Roles do not grant exec or attach into pods",
	"description": "The pods/exec and pods/attach subresources run commands in, or attach to, a running container with its identity, its mounted secrets and its network position; a role granting them should be rare and deliberate. The rule reads the rules of every Role and ClusterRole, wildcards included.",
	"platform": ["Kubernetes"],
	"category": "Identity and access",
	"service_group": "RBAC",
	"severity": "medium",
	"controls": ["NSA-CISA-K8S_v1.2_RBAC-Least-Privilege"],
	"remediation": {"kubernetes": "Remove pods/exec and pods/attach (and wildcards covering them) from the role's resources, or the create verb from that rule; give interactive access through a separate, tightly bound role."},
	"references": [
		"https://kubernetes.io/docs/concepts/security/rbac-good-practices/",
		"https://kubernetes.io/docs/reference/access-authn-authz/rbac/#referring-to-resources",
	],
}

role_kinds := ["Role", "ClusterRole"]

# The resource names that reach the exec or attach subresource of pods (RBAC
# matches "*" to every resource and "*/exec" to that subresource of every one).
exec_resources := {"pods/exec", "pods/attach", "*", "*/exec", "*/attach"}

grants_exec(rule) if {
	some group in object.get(rule, "apiGroups", [])
	group in {"", "*"}
	some verb in object.get(rule, "verbs", [])
	verb in {"create", "*"}
	some resource in object.get(rule, "resources", [])
	resource in exec_resources
}

deny contains info if {
	some kind in role_kinds
	some role in snyk.resources(kind)
	some i, rule in object.get(role, "rules", [])
	grants_exec(rule)
	info := {
		"resource": role,
		"result_tag": sprintf("rules[%d]", [i]),
		"message": sprintf("Rule %d of %s %s lets its holders exec or attach into pods.", [i, kind, role.metadata.name]),
		"attributes": [["rules", i]],
	}
}

resources contains {"resource": role} if {
	some kind in role_kinds
	some role in snyk.resources(kind)
}
