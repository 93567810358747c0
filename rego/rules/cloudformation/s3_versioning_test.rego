package rules.cfn_s3_versioning_test

import data.rules.cfn_s3_versioning as rule

test_enabled_passes {
	count(rule.deny) == 0 with input as {"VersioningConfiguration": {"Status": "Enabled"}}
}

test_missing_or_suspended_fails {
	rule.deny["Versioning is not configured, not Enabled."] with input as {"BucketName": "x"}
	rule.deny["Versioning is Suspended, not Enabled."] with input as {"VersioningConfiguration": {"Status": "Suspended"}}
}
