package rules.arm_sql_firewall_any_test

import data.rules.arm_sql_firewall_any as rule
import rego.v1

state := {"input_type": "arm", "resources": {"Microsoft.Sql/servers/firewallRules": {
	"all": {"attributes": {"properties": {"startIpAddress": "0.0.0.0", "endIpAddress": "255.255.255.255"}}},
	"one": {"attributes": {"properties": {"startIpAddress": "10.0.0.1", "endIpAddress": "10.0.0.1"}}},
}}}

test_any_address_fails if {
	{i.resource._id | some i in rule.deny} == {"all"} with input as state
}
