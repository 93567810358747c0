# Workloads do not mount a service account token unless asked to: one result
# per workload.
package rules.k8s_service_account_token

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-024",
	"title": "Workloads do not mount service account tokens by default",
	"description": "Kubernetes mounts the service account's API token into every container unless told otherwise; most applications never call the API, and a mounted token is the first thing an intruder uses to move further into the cluster. The pod spec's automountServiceAccountToken decides, and when the pod leaves it unset, the setting of its ServiceAccount in the same manifests.",
	"platform": ["Kubernetes"],
	"category": "Identity and access",
	"service_group": "Pods",
	"severity": "low",
	"aliases": ["CKV_K8S_38"],
	"controls": ["NSA-CISA-K8S_v1.2_Service-Account-Tokens"],
	"remediation": {"kubernetes": "Set automountServiceAccountToken: false in the pod spec (or on its ServiceAccount); set it to true only for workloads that call the Kubernetes API."},
	"references": [
		"https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/#opt-out-of-api-credential-automounting",
		"https://kubernetes.io/docs/concepts/security/service-accounts/",
	],
}

# Whether the token is mounted: the pod's own setting, else its account's
# (true when neither says).
mounts_token(w) := k8s.pod_spec(w).automountServiceAccountToken

mounts_token(w) := account_setting(w) if not k8s.has_key(k8s.pod_spec(w), "automountServiceAccountToken")

account_setting(w) := false if {
	some account in snyk.back_relates("ServiceAccount", w)
	account.automountServiceAccountToken == false
} else := true

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	mounts_token(w) != false
	info := {
		"resource": w,
		"message": "The workload's pods mount a service account token (automountServiceAccountToken is not false).",
		"attributes": [array.concat(k8s.pod_spec_paths[w._type], ["automountServiceAccountToken"])],
	}
}

resources contains {"resource": w} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
}
