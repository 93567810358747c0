package rules.arm_vm_managed_disks_test

import data.rules.arm_vm_managed_disks as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"storageProfile": {"osDisk": {"managedDisk": {"storageAccountType": "Premium_LRS"}}}}}
}

test_noncompliant_fails if {
	vm := {"properties": {"storageProfile": {
		"osDisk": {"vhd": {"uri": "https://acct.blob.core.windows.net/vhds/os.vhd"}},
		"dataDisks": [{"lun": 0, "managedDisk": {}}, {"lun": 1, "vhd": {"uri": "https://acct.blob.core.windows.net/vhds/d1.vhd"}}],
	}}}
	{i.message | some i in rule.deny} == {"osDisk is an unmanaged VHD.", "dataDisks[1] is an unmanaged VHD."} with input as vm
}
