# Pods do not set custom SELinux users, roles or types.
package rules.k8s_selinux

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-015",
	"title": "Pods do not set custom SELinux users, roles or types",
	"description": "Setting an SELinux user or role, or a type other than the container types, can lift the SELinux confinement of the container. The Baseline Pod Security Standard forbids it.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"controls": ["K8S-PSS_baseline_SELinux"],
	"remediation": {"kubernetes": "Remove seLinuxOptions.user and role, and use a container type (container_t, container_init_t, container_kvm_t, container_engine_t) or none."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

allowed_types := {"container_t", "container_init_t", "container_kvm_t", "container_engine_t"}

# The fields of seLinuxOptions the Baseline standard does not allow as set.
forbidden_fields(options) := {field |
	some field in ["user", "role"]
	object.get(options, field, "") != ""
} | {"type" |
	object.get(options, "type", "") != ""
	not options.type in allowed_types
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
	options := k8s.security_setting(w, container, "seLinuxOptions")
	fields := [f | some f in ["user", "role", "type"]; f in forbidden_fields(options)]
	count(fields) > 0
	info := {"resource": w, "result_tag": k8s.container_tag(container), "message": sprintf("Container %s sets SELinux %s.", [container.name, concat(", ", fields)])}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
