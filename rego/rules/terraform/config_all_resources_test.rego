package rules.tf_aws_config_all_resources_test

import data.rules.tf_aws_config_all_resources as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"recording_group": [{"all_supported": true, "include_global_resource_types": true}]}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"recording_group": [{"all_supported": true}]}
}
