# Data documents, `with data...`, and function and builtin mocking (v1).
package data_test

import data.config
import data.snyk
import rego.v1

too_many_ports(ports) if count(ports) > config.max_open_ports

region_allowed(region) if region in config.allowed_regions

now_year := time.date(time.now_ns())[0]

test_data_document_is_loaded if {
	config.max_open_ports == 2
}

test_data_document_limits if {
	too_many_ports([22, 80, 443])
	not too_many_ports([22])
}

test_with_data_overrides_the_document if {
	not too_many_ports([22, 80, 443]) with config.max_open_ports as 5
}

test_with_replaces_a_function if {
	region_allowed("mars-1") with region_allowed as true
}

test_with_replaces_a_builtin if {
	now_year == 2001 with time.now_ns as 1000000000000000000
}

test_snyk_input_type if {
	snyk.input_type == "cfn" with input as {"input_type": "cfn", "resources": {}}
}

test_query_with_scope if {
	state := {"scope": {"region": "eu-west-1"}, "resources": {"t": {"r1": {"attributes": {}}}}}
	count(snyk.query({"resource_type": "t", "scope": {"region": "eu-west-1"}})) == 1 with input as state
	count(snyk.query({"resource_type": "t", "scope": {"region": "us-east-1"}})) == 0 with input as state
}

# Deliberately failing: the region list does not hold this region.
test_deliberately_unknown_region if {
	region_allowed("ap-south-9")
}
