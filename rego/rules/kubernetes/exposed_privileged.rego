# Privileged or host-network workloads are not reachable from outside the
# cluster: a Service selecting them that is a LoadBalancer or NodePort, or
# that an Ingress routes to. Joins Service.selector and Ingress.backend.
package rules.k8s_exposed_privileged

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-007",
	"title": "Privileged workloads are not exposed outside the cluster",
	"description": "A workload running privileged containers or in the host's network namespace is one exploit away from the node. Exposing it through a LoadBalancer or NodePort Service, or through an Ingress backend, puts that exploit within reach of anyone outside the cluster.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Networking",
	"severity": "critical",
	"remediation": {"kubernetes": "Drop privileged and hostNetwork from the workload, or keep it behind a ClusterIP Service that no Ingress routes to."},
	"references": [
		"https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types",
		"https://kubernetes.io/docs/concepts/services-networking/ingress/",
		"https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline",
	],
}

dangerous(w) := sprintf("runs privileged container %s", [concat(", ", names)]) if {
	names := [c.name | some [c, _] in k8s.containers(w); k8s.privileged(c)]
	count(names) > 0
} else := "uses the host network" if k8s.pod_spec(w).hostNetwork == true

# How a Service reaches the outside: [description, graph edges].
exposures(service) := array.concat(
	[[sprintf("%s Service %s", [service.spec.type, service.metadata.name]), []] |
		service.spec.type in {"LoadBalancer", "NodePort"}
	],
	[[sprintf("Ingress %s (%s%s) via Service %s", [ingress.metadata.name, route.host, route.path, service.metadata.name]), [{"source": ingress, "label": "routes to", "target": service}]] |
		some [ingress, route] in snyk.back_relates_with("Ingress.backend", service)
	],
)

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	problem := dangerous(w)
	some service in snyk.back_relates("Service.selector", w)
	some [how, edges] in exposures(service)
	info := {
		"resource": w,
		"result_tag": sprintf("service[%s]", [service.metadata.name]),
		"message": sprintf("The workload %s and is exposed through %s.", [problem, how]),
		"graph": array.concat([{"source": service, "label": "selects", "target": w}], edges),
	}
}

resources contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some service in snyk.back_relates("Service.selector", w)
	info := {"resource": w, "result_tag": sprintf("service[%s]", [service.metadata.name])}
}
