# Containers do not run unconfined by AppArmor.
package rules.k8s_apparmor

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-014",
	"title": "Containers do not run unconfined by AppArmor",
	"description": "An AppArmor profile of unconfined removes the runtime's default confinement of the container. The Baseline Pod Security Standard allows only the runtime's default profile or profiles loaded on the node. The rule reads the securityContext appArmorProfile fields and the older per-container annotations.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"controls": ["K8S-PSS_baseline_AppArmor"],
	"remediation": {"kubernetes": "Remove the unconfined profile: set appArmorProfile.type to RuntimeDefault or Localhost (or the annotation to runtime/default or localhost/<profile>)."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

annotation_prefix := "container.apparmor.security.beta.kubernetes.io/"

# The pod template's metadata: beside its spec.
pod_metadata(w) := object.get(w, array.concat(array.slice(k8s.pod_spec_paths[w._type], 0, count(k8s.pod_spec_paths[w._type]) - 1), ["metadata"]), {})

allowed_annotation(value) if value == "runtime/default"

allowed_annotation(value) if startswith(value, "localhost/")

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
	value := object.get(pod_metadata(w), ["annotations", concat("", [annotation_prefix, container.name])], "runtime/default")
	not allowed_annotation(value)
	info := {"resource": w, "result_tag": k8s.container_tag(container), "message": sprintf("Container %s has AppArmor profile %s.", [container.name, value])}
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
	k8s.security_setting(w, container, "appArmorProfile").type == "Unconfined"
	info := {"resource": w, "result_tag": k8s.container_tag(container), "message": sprintf("Container %s runs unconfined by AppArmor.", [container.name])}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
