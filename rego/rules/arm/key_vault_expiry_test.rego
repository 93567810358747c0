package rules.arm_key_vault_expiry_test

import data.rules.arm_key_vault_expiry as rule
import rego.v1

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.KeyVault/vaults/keys": {"vault/signing": {"attributes": {"properties": {"kty": "RSA", "attributes": {"exp": 1893456000}}}}},
		"Microsoft.KeyVault/vaults/secrets": {"vault/db-password": {"attributes": {"properties": {"value": "[parameters('password')]"}}}},
	},
}

test_items_without_expiry_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"vault/db-password"}
	count(rule.resources) == 2 with input as state
}
