# Workloads have their outbound traffic restricted by a NetworkPolicy.
package rules.k8s_network_policy_egress

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-027",
	"title": "Workloads have egress restricted by a NetworkPolicy",
	"description": "Pods may open connections anywhere until a NetworkPolicy with the Egress policy type selects them; restricting egress limits what a compromised pod can reach and where it can send data. A policy restricts egress when policyTypes lists Egress, or when it leaves policyTypes out and has egress rules.",
	"platform": ["Kubernetes"],
	"category": "Network security",
	"service_group": "Network policies",
	"severity": "low",
	"controls": ["NSA-CISA-K8S_v1.2_Network-Separation"],
	"remediation": {"kubernetes": "Add a default-deny NetworkPolicy for the namespace with policyTypes [Ingress, Egress] and an empty podSelector, then allow the egress each workload needs (DNS included)."},
	"references": [
		"https://kubernetes.io/docs/concepts/services-networking/network-policies/#default-deny-all-egress-traffic",
		"https://kubernetes.io/docs/reference/kubernetes-api/policy-resources/network-policy-v1/",
	],
}

restricts_egress(policy) if "Egress" in object.get(policy, ["spec", "policyTypes"], [])

restricts_egress(policy) if {
	not policy.spec.policyTypes
	policy.spec.egress
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	not any_egress_policy(w)
	info := {"resource": w, "message": "No NetworkPolicy restricts the egress of the workload's pods."}
}

any_egress_policy(w) if {
	some policy in snyk.back_relates("NetworkPolicy.podSelector", w)
	restricts_egress(policy)
}

resources contains {"resource": w} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
}

resources contains {"primary_resource": w, "resource": policy, "attributes": [["spec", "policyTypes"]]} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some policy in snyk.back_relates("NetworkPolicy.podSelector", w)
}
