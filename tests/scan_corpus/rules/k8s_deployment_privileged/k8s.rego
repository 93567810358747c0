# Multi-resource rule, Rego v0: snyk.query over Deployments; severity and
# remediation per result.
package rules.k8s_deployment_privileged

import data.snyk

input_type = "k8s"

metadata := {
	"id": "SNYK-CC-K8S-1-DEPLOY",
	"title": "Deployment runs privileged containers",
	"description": "Privileged containers, or ones allowed to escalate privileges, can take over the node.",
	"platform": ["Kubernetes"],
	"remediation": {"kubernetes": "Set `privileged: false` and `allowPrivilegeEscalation: false` in every container's securityContext."},
	"severity": "High",
}

deployments := snyk.query({"resource_type": "Deployment", "scope": {}})

deny[info] {
	d := deployments[_]
	c := d.spec.template.spec.containers[i]
	c.securityContext.privileged == true
	info := {
		"resource": d,
		"message": sprintf("Deployment %s runs container %q privileged", [d.metadata.name, c.name]),
		"attributes": [["spec", "template", "spec", "containers", i, "securityContext", "privileged"]],
		"severity": "Critical",
		"remediation": "Drop `privileged: true`; grant only the capabilities the container needs (e.g. NET_ADMIN).",
	}
}

deny[info] {
	d := deployments[_]
	c := d.spec.template.spec.containers[i]
	c.securityContext.allowPrivilegeEscalation == true
	info := {
		"resource": d,
		"message": sprintf("Deployment %s lets container %q escalate privileges", [d.metadata.name, c.name]),
		"attributes": [["spec", "template", "spec", "containers", i, "securityContext", "allowPrivilegeEscalation"]],
	}
}

resources[info] {
	d := deployments[_]
	info := {"resource": d}
}
