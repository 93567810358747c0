package rules.arm_disk_cmk_test

import data.rules.arm_disk_cmk as rule
import rego.v1

des := {"id": "Microsoft.Compute/diskEncryptionSets/cmk"}

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Compute/disks": {
			"Microsoft.Compute/disks/keyed": {"attributes": {"properties": {"encryption": {"diskEncryptionSetId": "Microsoft.Compute/diskEncryptionSets/cmk"}}}},
			"Microsoft.Compute/disks/spare": {"attributes": {"properties": {"diskSizeGB": 64}}},
		},
		"Microsoft.Compute/virtualMachines": {"Microsoft.Compute/virtualMachines/web": {"attributes": {"properties": {"storageProfile": {
			"osDisk": {"createOption": "FromImage", "managedDisk": {"storageAccountType": "Premium_LRS", "diskEncryptionSet": des}},
			"dataDisks": [{"lun": 0, "managedDisk": {"storageAccountType": "Premium_LRS"}}],
		}}}}},
	},
}

test_disks_without_customer_keys_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["Microsoft.Compute/disks/spare", "disk"], ["Microsoft.Compute/virtualMachines/web", "dataDisks[0]"]}
	count(rule.resources) == 4 with input as state
}
