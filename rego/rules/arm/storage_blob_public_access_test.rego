package rules.arm_storage_blob_public_access_test

import data.rules.arm_storage_blob_public_access as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"allowBlobPublicAccess": false}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"allowBlobPublicAccess": true}}
}
