# Multi-resource rule over Kubernetes (Rego v1): one result per privileged container.
package rules.example_k8s_privileged

import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "EXAMPLE_003",
	"title": "Containers do not run privileged",
	"severity": "High",
	"remediation": {"kubernetes": "Set securityContext.privileged to false."},
}

deny contains info if {
	some deployment in snyk.resources("Deployment")
	some i, container in deployment.spec.template.spec.containers
	container.securityContext.privileged == true
	info := {
		"resource": deployment,
		"message": sprintf("Container %s is privileged.", [container.name]),
		"result_tag": sprintf("container[%s]", [container.name]),
		"attributes": [["spec", "template", "spec", "containers", i, "securityContext", "privileged"]],
	}
}

# Every container gets a result: the ones not denied above pass.
resources contains info if {
	some deployment in snyk.resources("Deployment")
	some container in deployment.spec.template.spec.containers
	info := {"resource": deployment, "result_tag": sprintf("container[%s]", [container.name])}
}
