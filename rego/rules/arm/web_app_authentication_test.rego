package rules.arm_web_app_authentication_test

import data.rules.arm_web_app_authentication as rule
import rego.v1

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Web/sites": {
			"Microsoft.Web/sites/v1": {"attributes": {"properties": {}}},
			"Microsoft.Web/sites/v2": {"attributes": {"properties": {}}},
			"Microsoft.Web/sites/open": {"attributes": {"properties": {}}},
		},
		"Microsoft.Web/sites/config": {
			"Microsoft.Web/sites/v1/config/authsettings": {"attributes": {"_parent_id": "Microsoft.Web/sites/v1", "properties": {"enabled": true}}},
			"Microsoft.Web/sites/v2/config/authsettingsV2": {"attributes": {"_parent_id": "Microsoft.Web/sites/v2", "properties": {"platform": {"enabled": true}}}},
			"Microsoft.Web/sites/open/config/authsettingsV2": {"attributes": {"_parent_id": "Microsoft.Web/sites/open", "properties": {"platform": {"enabled": false}}}},
		},
	},
}

test_apps_without_authentication_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"Microsoft.Web/sites/open"}
	count(rule.resources) == 3 with input as state
}
