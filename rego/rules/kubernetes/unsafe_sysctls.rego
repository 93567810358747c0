# Pods set only safe sysctls.
package rules.k8s_unsafe_sysctls

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-018",
	"title": "Pods set only safe sysctls",
	"description": "Sysctls outside the namespaced safe set change kernel settings shared with every other pod on the node. The Baseline Pod Security Standard allows only the safe set.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"controls": ["K8S-PSS_baseline_Sysctls"],
	"remediation": {"kubernetes": "Remove the sysctls outside the safe set from securityContext.sysctls, or set them on the node instead."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

safe := {
	"kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
	"net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
	"net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
	"net.ipv4.tcp_keepalive_probes",
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some i, sysctl in object.get(k8s.pod_spec(w), ["securityContext", "sysctls"], [])
	not sysctl.name in safe
	info := {
		"resource": w,
		"result_tag": sprintf("sysctl[%s]", [sysctl.name]),
		"message": sprintf("The pod sets sysctl %s.", [sysctl.name]),
		"attributes": [array.concat(k8s.pod_spec_paths[kind], ["securityContext", "sysctls", i])],
	}
}

resources contains {"resource": w} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
}
