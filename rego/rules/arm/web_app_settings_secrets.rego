# App Service apps keep secrets in Key Vault, not in literal app settings.
package rules.arm_web_app_settings_secrets

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-036",
	"title": "App Service apps take secrets from Key Vault, not literal app settings",
	"description": "App settings are readable by everyone with read access to the app's configuration, and a literal value in a template also lands in deployment history and version control. A Key Vault reference (@Microsoft.KeyVault(...)) keeps the secret in the vault. The rule reads siteConfig.appSettings of Microsoft.Web/sites and the appsettings Microsoft.Web/sites/config resources, flagging literal values whose name says password, secret, token, credential, connection string or key (access, API, private or account).",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_9.11"],
	"remediation": {"arm": "Store the secret in Key Vault and set the setting's value to \"@Microsoft.KeyVault(SecretUri=...)\", giving the app's managed identity read access; rotate the exposed value. A template parameter of type secureString passed straight in is still stored in the app's settings."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/app-service-key-vault-references", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites/config-appsettings"],
}

credential_words := ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "CREDENTIAL", "CONNECTIONSTRING", "APIKEY", "ACCESSKEY", "PRIVATEKEY", "ACCOUNTKEY"]

credential_name(name) if {
	squashed := replace(replace(replace(upper(name), "_", ""), "-", ""), ".", "")
	some word in credential_words
	contains(squashed, word)
}

literal_secret(name, value) if {
	is_string(value)
	value != ""
	not startswith(value, "@Microsoft.KeyVault(")
	credential_name(name)
}

# [resource, attribute path, names of literal secrets].
findings contains [site, ["properties", "siteConfig", "appSettings"], names] if {
	some site in snyk.resources("Microsoft.Web/sites")
	names := sort([s.name | some s in object.get(site, ["properties", "siteConfig", "appSettings"], []); literal_secret(s.name, s.value)])
}

findings contains [config, ["properties"], names] if {
	some config in snyk.resources("Microsoft.Web/sites/config")
	endswith(lower(config._id), "/config/appsettings")
	names := sort([name | some name, value in object.get(config, "properties", {}); literal_secret(name, value)])
}

deny contains info if {
	some [r, path, names] in findings
	count(names) > 0
	info := {"resource": r, "message": sprintf("App settings %s hold literal values instead of Key Vault references.", [concat(", ", names)]), "attributes": [path]}
}

resources contains {"resource": r} if some [r, _, _] in findings
