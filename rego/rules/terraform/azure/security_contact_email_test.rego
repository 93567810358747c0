package rules.tf_azure_security_contact_email_test

import data.rules.tf_azure_security_contact_email as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"email": "secops@example.com"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"phone": "+1 555 0100"}
}
