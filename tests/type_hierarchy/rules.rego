package rules.workloads_listed

import data.snyk
import rego.v1

metadata := {"id": "TH-1", "title": "every workload and load balancer, by its supertype", "severity": "low"}

deny contains info if {
	some r in snyk.resources("workload")
	info := {"resource": r, "message": sprintf("workload %s", [r._type])}
}

deny contains info if {
	some r in snyk.resources("aws_alb")
	info := {"resource": r, "message": sprintf("aws_alb query: %s", [r._type])}
}

deny contains info if {
	some r in snyk.resources("aws_lb")
	r.internal == false
	info := {"resource": r, "message": sprintf("aws_lb query: public %s", [r._type])}
}

deny contains info if {
	some r in snyk.resources("ConfigMap")
	info := {"resource": r, "message": "concrete ConfigMap"}
}
