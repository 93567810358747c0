package rules.tf_azure_app_service_client_certificates_test

import data.rules.tf_azure_app_service_client_certificates as rule
import rego.v1

state(attributes) := {"input_type": "tf_hcl", "resources": {"azurerm_linux_web_app": {"azurerm_linux_web_app.app": {"attributes": attributes}}}}

test_configured_app_passes if {
	count(rule.deny) == 0 with input as state({"client_certificate_enabled": true})
}

test_misconfigured_app_fails if {
	count(rule.deny) == 1 with input as state({"https_only": true})
	count(rule.resources) == 1 with input as state({"https_only": true})
}
