package rules.tf_azure_app_service_ftps_test

import data.rules.tf_azure_app_service_ftps as rule
import rego.v1

state(attributes) := {"input_type": "tf_hcl", "resources": {"azurerm_linux_web_app": {"azurerm_linux_web_app.app": {"attributes": attributes}}}}

test_configured_app_passes if {
	count(rule.deny) == 0 with input as state({"site_config": [{"ftps_state": "FtpsOnly"}]})
}

test_misconfigured_app_fails if {
	count(rule.deny) == 1 with input as state({"site_config": [{"ftps_state": "AllAllowed"}]})
	count(rule.resources) == 1 with input as state({"site_config": [{"ftps_state": "AllAllowed"}]})
}

test_unset_state_fails_only_where_it_allows_all if {
	old := {"input_type": "tf_hcl", "resources": {"azurerm_app_service": {"azurerm_app_service.old": {"attributes": {"site_config": [{}]}}}}}
	count(rule.deny) == 1 with input as old
	count(rule.deny) == 0 with input as state({"site_config": [{}]})
}
