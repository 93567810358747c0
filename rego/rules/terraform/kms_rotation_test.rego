package rules.tf_aws_kms_rotation_test

import data.rules.tf_aws_kms_rotation as rule

state := {
	"input_type": "tf_hcl",
	"resources": {"aws_kms_key": {
		"aws_kms_key.rotated": {"attributes": {"enable_key_rotation": true}},
		"aws_kms_key.static": {"attributes": {"enable_key_rotation": false}},
		"aws_kms_key.default": {"attributes": {}},
		"aws_kms_key.signing": {"attributes": {"customer_master_key_spec": "ECC_NIST_P256"}},
	}},
}

test_judgements {
	judgements := {[j.id, j.valid] | j := rule.policy[_]} with input as state
	judgements == {["aws_kms_key.rotated", true], ["aws_kms_key.static", false], ["aws_kms_key.default", false]}
}
