package rules.tf_azure_custom_owner_role_test

import data.rules.tf_azure_custom_owner_role as rule
import rego.v1

test_narrow_role_passes if {
	count(rule.deny) == 0 with input as {"permissions": [{"actions": ["Microsoft.Storage/*/read"]}], "assignable_scopes": ["/subscriptions/0000"]}
	count(rule.deny) == 0 with input as {"permissions": [{"actions": ["*"]}], "scope": "/subscriptions/0000/resourceGroups/rg"}
}

test_owner_role_fails if {
	count(rule.deny) == 1 with input as {"permissions": [{"actions": ["*"]}], "assignable_scopes": ["/subscriptions/0000"]}
	count(rule.deny) == 1 with input as {"permissions": [{"actions": ["*"]}], "scope": "data.azurerm_subscription.current"}
}
