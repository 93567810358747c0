# No custom role grants every action over a subscription.
package rules.tf_azure_custom_owner_role

import rego.v1

resource_type := "azurerm_role_definition"

input_type := "tf"

metadata := {
	"id": "RE-AZ-031",
	"title": "Custom roles do not grant owner rights over a subscription",
	"description": "A custom role whose actions include * and that is assignable at a subscription (or the root) is an owner role under another name, outside the reviews that built-in Owner assignments get.",
	"platform": ["Azure"],
	"category": "Identity and access",
	"service_group": "Entra ID",
	"severity": "high",
	"aliases": ["CKV_AZURE_39"],
	"controls": ["CIS-Azure_v1.3.0_1.21"],
	"remediation": {"terraform": "List only the actions the role needs in permissions.actions, or use a built-in role."},
	"references": ["https://learn.microsoft.com/en-us/azure/role-based-access-control/custom-roles", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/role_definition"],
}

subscription_scope(scope) if scope == "/"

subscription_scope(scope) if regex.match(`^/subscriptions/[^/]+/?$`, scope)

# An unresolved reference to the azurerm_subscription data source.
subscription_scope(scope) if contains(scope, "azurerm_subscription")

deny contains info if {
	some i, permissions in input.permissions
	"*" in object.get(permissions, "actions", [])
	some scope in array.concat(object.get(input, "assignable_scopes", []), [object.get(input, "scope", "")])
	subscription_scope(scope)
	info := {"message": "The role allows every action over a subscription.", "attributes": [["permissions", i, "actions"]]}
}
