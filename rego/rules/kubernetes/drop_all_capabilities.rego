# Containers drop all capabilities.
package rules.k8s_drop_all_capabilities

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-022",
	"title": "Containers drop all capabilities",
	"description": "A container keeps the runtime's default capabilities unless it drops them. The Restricted Pod Security Standard requires dropping ALL and adding back at most NET_BIND_SERVICE.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "low",
	"controls": ["K8S-PSS_restricted_Capabilities"],
	"remediation": {"kubernetes": "Set securityContext.capabilities.drop: [\"ALL\"] and add only NET_BIND_SERVICE if the container binds low ports."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	not "ALL" in {upper(c) | some c in object.get(container, ["securityContext", "capabilities", "drop"], [])}
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s does not drop ALL capabilities.", [container.name]),
	}
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	added := [c | some c in object.get(container, ["securityContext", "capabilities", "add"], []); upper(trim_prefix(c, "CAP_")) != "NET_BIND_SERVICE"]
	count(added) > 0
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s adds %s.", [container.name, concat(", ", added)]),
		"attributes": [array.concat(path, ["securityContext", "capabilities", "add"])],
	}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
