package rules.tf_gcp_ssl_policy_ciphers_test

import data.rules.tf_gcp_ssl_policy_ciphers as rule
import rego.v1

test_strong_policies_pass if {
	count(rule.deny) == 0 with input as {"profile": "RESTRICTED"}
	count(rule.deny) == 0 with input as {"profile": "MODERN", "min_tls_version": "TLS_1_2"}
	count(rule.deny) == 0 with input as {"profile": "CUSTOM", "min_tls_version": "TLS_1_2", "custom_features": ["TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"]}
}

test_weak_policies_fail if {
	tags := {i.result_tag | some i in rule.deny} with input as {"name": "default-like"}
	tags == {"profile"}
	modern := {i.result_tag | some i in rule.deny} with input as {"profile": "MODERN"}
	modern == {"min_tls_version"}
	custom := {i.result_tag | some i in rule.deny} with input as {"profile": "CUSTOM", "min_tls_version": "TLS_1_2", "custom_features": ["TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"]}
	custom == {"custom_features"}
}
