package rules.cfn_kms_rotation_test

import data.rules.cfn_kms_rotation as rule

test_rotating_and_asymmetric_keys_pass {
	rule.allow with input as {"EnableKeyRotation": true}
	rule.allow with input as {"KeySpec": "RSA_2048"}
}

test_static_key_fails {
	not rule.allow with input as {"Description": "no rotation"}
	not rule.allow with input as {"EnableKeyRotation": "false"}
}
