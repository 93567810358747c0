package rules.arm_storage_cmk_test

import data.rules.arm_storage_cmk as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"encryption": {"keySource": "Microsoft.Keyvault", "keyvaultproperties": {"keyname": "k"}}}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"supportsHttpsTrafficOnly": true}}
	count(rule.deny) == 1 with input as {"properties": {"encryption": {"keySource": "Microsoft.Storage"}}}
}
