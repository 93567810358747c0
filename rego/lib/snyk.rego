# The snyk policy API, as the scan runs it: resources come from the host,
# which loads each input into Wasm memory once (see engine/snyk_api.py).
package snyk

import rego.v1

# Resource objects of one type in the current input, ordered by resource key.
resources(resource_type) := __snyk_query({"resource_type": resource_type, "scope": {}})

# Resource objects matching {"resource_type": ..., "scope": {...}}; a non-empty
# scope matches only when every key equals the input's scope.
query(q) := __snyk_query(q)

# The current input's type: tf_hcl, tf_plan, tf_state, cloud_scan, cfn, k8s or arm.
input_type := __snyk_input_type()

# The set of resource types present in the current input.
input_resource_types := __snyk_input_resource_types()
