package rules.arm_storage_trusted_services_test

import data.rules.arm_storage_trusted_services as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"networkAcls": {"defaultAction": "Deny", "bypass": "Logging, AzureServices"}}}
	count(rule.deny) == 0 with input as {"properties": {"networkAcls": {"defaultAction": "Deny"}}}
	count(rule.deny) == 0 with input as {"properties": {"networkAcls": {"defaultAction": "Allow", "bypass": "None"}}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"networkAcls": {"defaultAction": "Deny", "bypass": "None"}}}
}
