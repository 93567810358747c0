package rules.tf_gcp_firewall_rdp_from_internet_test

import data.rules.tf_gcp_firewall_rdp_from_internet as rule
import rego.v1

open := {"source_ranges": ["0.0.0.0/0"], "allow": [{"protocol": "tcp", "ports": ["3387-3391"]}]}

test_closed_rules_pass if {
	count(rule.deny) == 0 with input as object.union(open, {"source_ranges": ["10.0.0.0/8"]})
	count(rule.deny) == 0 with input as object.union(open, {"direction": "EGRESS"})
	count(rule.deny) == 0 with input as object.union(open, {"allow": [{"protocol": "tcp", "ports": ["443"]}]})
}

test_open_rules_fail if {
	count(rule.deny) == 1 with input as open
	count(rule.deny) == 1 with input as object.union(open, {"allow": [{"protocol": "all"}]})
}
