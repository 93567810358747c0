package rules.tf_azure_vm_managed_disks_test

import data.rules.tf_azure_vm_managed_disks as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"storage_os_disk": [{"name": "os", "managed_disk_type": "Premium_LRS"}]}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"storage_os_disk": [{"name": "os", "vhd_uri": "https://a.blob.core.windows.net/vhds/os.vhd"}]}
}
