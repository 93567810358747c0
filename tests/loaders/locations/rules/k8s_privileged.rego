package rules.k8s_privileged

import rego.v1

input_type := "k8s"

resource_type := "Pod"

deny contains info if {
	some i, container in input.spec.containers
	container.securityContext.privileged == true
	info := {
		"message": sprintf("container %s is privileged", [container.name]),
		"attributes": [["spec", "containers", i, "securityContext", "privileged"]],
	}
}
