package rules.unmanaged_config

import data.snyk
import rego.v1

input_type := "k8s"

metadata := {"id": "REF-3", "title": "Config maps are used by a workload that owns its replicas", "severity": "low"}

# A ConfigMap read by a Deployment that contains (owns) no ReplicaSet in the input.
deny contains info if {
	some cm in snyk.resources("ConfigMap")
	some [user, ann] in snyk.back_relates_with("references", cm)
	ann.kind == "name"
	count(snyk.relates(user, "contains")) == 0
	info := {"resource": cm, "message": sprintf("read by %s, which owns nothing", [user._id])}
}

deny contains info if {
	some rs in snyk.resources("ReplicaSet")
	count(snyk.back_relates("contains", rs)) == 0
	info := {"resource": rs, "message": "no owner in the input"}
}

resources contains info if {
	some cm in snyk.resources("ConfigMap")
	info := {"resource": cm}
}

resources contains info if {
	some rs in snyk.resources("ReplicaSet")
	info := {"resource": rs}
}
