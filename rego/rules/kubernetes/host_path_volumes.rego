# Pods do not mount host paths.
package rules.k8s_host_path_volumes

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-011",
	"title": "Pods do not mount host paths",
	"description": "A hostPath volume gives the pod files of the node, often enough to take it over (the container runtime socket, kubelet credentials). The Baseline Pod Security Standard forbids hostPath volumes.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "high",
	"controls": ["K8S-PSS_baseline_HostPath-Volumes"],
	"remediation": {"kubernetes": "Replace hostPath volumes with emptyDir, configMap, secret or persistent volumes."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some i, volume in object.get(k8s.pod_spec(w), "volumes", [])
	volume.hostPath
	info := {
		"resource": w,
		"result_tag": sprintf("volume[%s]", [volume.name]),
		"message": sprintf("Volume %s mounts %v from the node.", [volume.name, object.get(volume.hostPath, "path", "a host path")]),
		"attributes": [array.concat(k8s.pod_spec_paths[kind], ["volumes", i, "hostPath"])],
	}
}

resources contains {"resource": w} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
}
