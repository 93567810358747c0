package rules.rd_k8s_privileged

import data.fugue

__rego__metadoc__ := {
  "id": "RD_005",
  "title": "Pods do not run privileged containers",
  "description": "A privileged container has the host's devices and capabilities.",
  "custom": {"severity": "Critical"}
}

input_type := "k8s"

resource_type := "MULTIPLE"

pods := fugue.resources("Pod")

privileged(pod) {
  pod.spec.containers[_].securityContext.privileged == true
}

policy[j] {
  pod := pods[_]
  privileged(pod)
  j := fugue.deny_resource_with_message(pod, "a container is privileged")
}

policy[j] {
  pod := pods[_]
  not privileged(pod)
  j := fugue.allow_resource(pod)
}
