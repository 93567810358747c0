# The legacy fugue policy API, written over the snyk API, so the same file
# serves the scan (host-backed snyk) and test mode (pure-Rego snyk).
package fugue

import data.snyk
import rego.v1

input_type := snyk.input_type

input_resource_types := snyk.input_resource_types

# Deprecated aliases kept for older rules.
resource_types := input_resource_types

resource_types_v0 := input_resource_types

# Resources of one type as an object keyed by resource id; Kubernetes objects by
# "Kind.namespace.name" as regula keys them (a name may repeat across namespaces,
# and rules merge several kinds into one object).
resources(resource_type) := {_key(r): r | some r in snyk.resources(resource_type)}

_key(r) := concat(".", [r._type, _k8s_namespace(r), r._id]) if {
	snyk.input_type == "k8s"
} else := r.id

_k8s_namespace(r) := r._namespace if r._namespace != ""

else := "default"

allow_resource(resource) := allow({"resource": resource})

deny_resource(resource) := deny({"resource": resource})

deny_resource_with_message(resource, message) := deny({"resource": resource, "message": message})

missing_resource(resource_type) := missing({"resource_type": resource_type})

missing_resource_with_message(resource_type, message) := missing({
	"resource_type": resource_type,
	"message": message,
})

allow(params) := _judgement(true, params)

deny(params) := _judgement(false, params)

missing(params) := {
	"valid": false,
	"id": "",
	"type": params.resource_type,
	"namespace": "",
	"message": object.get(params, "message", ""),
}

_judgement(valid, params) := {
	"valid": valid,
	"id": params.resource.id,
	"type": params.resource._type,
	"namespace": params.resource._namespace,
	"message": object.get(params, "message", ""),
}
