package rules.tf_gcp_instance_block_project_ssh_keys_test

import data.rules.tf_gcp_instance_block_project_ssh_keys as rule
import rego.v1

test_configured_instance_passes if {
	count(rule.deny) == 0 with input as {"metadata": {"block-project-ssh-keys": true}}
	count(rule.deny) == 0 with input as {"metadata": {"block-project-ssh-keys": "TRUE"}}
}

test_misconfigured_instance_fails if {
	count(rule.deny) == 1 with input as {"metadata": {"block-project-ssh-keys": false}}
}
