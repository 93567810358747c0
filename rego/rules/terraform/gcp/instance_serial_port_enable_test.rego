package rules.tf_gcp_instance_serial_port_enable_test

import data.rules.tf_gcp_instance_serial_port_enable as rule
import rego.v1

test_configured_instance_passes if {
	count(rule.deny) == 0 with input as {"metadata": {"serial-port-enable": false}}
	count(rule.deny) == 0 with input as {"metadata": {"serial-port-enable": "false"}}
}

test_misconfigured_instance_fails if {
	count(rule.deny) == 1 with input as {"metadata": {"serial-port-enable": true}}
}
