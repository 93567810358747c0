package rules.cfn_efs_encryption_test

import data.rules.cfn_efs_encryption as rule
import rego.v1

test_encrypted_passes if {
	count(rule.deny) == 0 with input as {"Encrypted": true}
	count(rule.deny) == 0 with input as {"Encrypted": "true"}
}

test_unencrypted_fails if {
	count(rule.deny) == 1 with input as {"PerformanceMode": "generalPurpose"}
	count(rule.deny) == 1 with input as {"Encrypted": false}
}
