package rules.tf_azure_app_service_min_tls_test

import data.rules.tf_azure_app_service_min_tls as rule
import rego.v1

state(attributes) := {"input_type": "tf_hcl", "resources": {"azurerm_linux_web_app": {"azurerm_linux_web_app.app": {"attributes": attributes}}}}

test_configured_app_passes if {
	count(rule.deny) == 0 with input as state({"site_config": [{"minimum_tls_version": "1.2"}]})
}

test_misconfigured_app_fails if {
	count(rule.deny) == 1 with input as state({"site_config": [{"minimum_tls_version": "1.0"}]})
	count(rule.resources) == 1 with input as state({"site_config": [{"minimum_tls_version": "1.0"}]})
}
