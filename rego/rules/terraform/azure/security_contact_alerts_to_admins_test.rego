package rules.tf_azure_security_contact_alerts_to_admins_test

import data.rules.tf_azure_security_contact_alerts_to_admins as rule
import rego.v1

test_on_passes if {
	count(rule.deny) == 0 with input as {"alerts_to_admins": true}
}

test_off_fails if {
	count(rule.deny) == 1 with input as {"alerts_to_admins": false}
}
