# Containers take credentials from Secrets, not literal environment values:
# one result per container.
package rules.k8s_literal_credentials

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-026",
	"title": "Containers do not carry credentials as literal environment values",
	"description": "An environment variable written into the manifest is readable by anyone who can read the workload, its history in version control, and `kubectl describe`. Credentials belong in a Secret, referenced through valueFrom.secretKeyRef or mounted as a volume. The rule flags env entries with a literal value whose name says password, secret, token, credential or key (access, API or private), other than a file path.",
	"platform": ["Kubernetes"],
	"category": "Data protection",
	"service_group": "Pods",
	"severity": "high",
	"controls": ["NSA-CISA-K8S_v1.2_Secrets"],
	"remediation": {"kubernetes": "Move the value into a Secret and replace value: with valueFrom.secretKeyRef (or mount the Secret as a file); rotate the credential, since it has been in the manifest."},
	"references": [
		"https://kubernetes.io/docs/concepts/configuration/secret/#using-secrets-as-environment-variables",
		"https://kubernetes.io/docs/concepts/security/secrets-good-practices/",
	],
}

# Name fragments (upper case, without separators) that say a variable holds a
# credential.
credential_words := ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "CREDENTIAL", "APIKEY", "ACCESSKEY", "PRIVATEKEY"]

credential_name(name) if {
	squashed := replace(replace(upper(name), "_", ""), "-", "")
	some word in credential_words
	contains(squashed, word)
}

literal_credentials(container) := [env.name |
	some env in object.get(container, "env", [])
	is_string(env.value)
	env.value != ""
	not startswith(env.value, "/")
	credential_name(env.name)
]

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	names := literal_credentials(container)
	count(names) > 0
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s sets %s to a literal value.", [container.name, concat(", ", names)]),
		"attributes": [array.concat(path, ["env"])],
	}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(container)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
}
