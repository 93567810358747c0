package rules.tf_azure_managed_disk_encryption_test

import data.rules.tf_azure_managed_disk_encryption as rule
import rego.v1

test_encrypted_passes if {
	count(rule.deny) == 0 with input as {"encryption_settings": [{"enabled": true}]}
	count(rule.deny) == 0 with input as {"disk_size_gb": 1}
}

test_disabled_fails if {
	count(rule.deny) == 1 with input as {"encryption_settings": [{"enabled": false}]}
}
