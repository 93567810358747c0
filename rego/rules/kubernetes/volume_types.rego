# Pods use only restricted volume types.
package rules.k8s_volume_types

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-019",
	"title": "Pods use only restricted volume types",
	"description": "Volume types other than configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret reach storage on the node or the network directly, bypassing the cluster's storage policies. The Restricted Pod Security Standard allows only those types.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"controls": ["K8S-PSS_restricted_Volume-Types"],
	"remediation": {"kubernetes": "Replace the volume with one of the allowed types, typically a persistentVolumeClaim."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

allowed := {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some i, volume in object.get(k8s.pod_spec(w), "volumes", [])
	some field, _ in volume
	field != "name"
	not field in allowed
	info := {
		"resource": w,
		"result_tag": sprintf("volume[%s]", [volume.name]),
		"message": sprintf("Volume %s is of type %s.", [volume.name, field]),
		"attributes": [array.concat(k8s.pod_spec_paths[kind], ["volumes", i, field])],
	}
}

resources contains {"resource": w} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
}
