package rules.k8s_default_ns

import data.fugue

__rego__metadoc__ := {"id": "OWN_K8S_1", "title": "No default namespace", "custom": {"severity": "Low"}}

input_type := "k8s"

resource_type := "MULTIPLE"

# Several kinds merged into one object, keyed as the library keys them.
resources[id] = r {
  kind := {"Pod", "ServiceAccount"}[_]
  r := fugue.resources(kind)[id]
}

policy[j] {
  r := resources[_]
  r.metadata.namespace == "default"
  j := fugue.deny_resource(r)
}

policy[j] {
  r := resources[_]
  r.metadata.namespace != "default"
  j := fugue.allow_resource(r)
}
