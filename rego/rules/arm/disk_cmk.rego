# Managed disks are encrypted with customer-managed keys: one result per disk.
package rules.arm_disk_cmk

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-035",
	"title": "Managed disks are encrypted with a customer-managed key",
	"description": "Managed disks are always encrypted at rest, by default with platform-managed keys. A disk encryption set puts OS and data disks, attached or not, under a Key Vault key the organisation controls, rotates and can revoke. The rule reads Microsoft.Compute/disks (properties.encryption.diskEncryptionSetId) and the managedDisk.diskEncryptionSet of each virtual machine's OS and data disks.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Compute",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_7.2", "CIS-Azure_v1.3.0_7.3"],
	"remediation": {"arm": "Create a Microsoft.Compute/diskEncryptionSets over a Key Vault key; set properties.encryption.diskEncryptionSetId on each disk and managedDisk.diskEncryptionSet.id on each virtual machine disk."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-machines/disk-encryption", "https://learn.microsoft.com/en-us/azure/templates/microsoft.compute/disks"],
}

# [resource, tag, attribute path, encryption set id or ""] for every disk.
disks contains [disk, "disk", ["properties", "encryption"], object.get(disk, ["properties", "encryption", "diskEncryptionSetId"], "")] if {
	some disk in snyk.resources("Microsoft.Compute/disks")
}

disks contains [vm, "osDisk", path, object.get(vm, array.concat(path, ["diskEncryptionSet", "id"]), "")] if {
	some vm in snyk.resources("Microsoft.Compute/virtualMachines")
	vm.properties.storageProfile.osDisk.managedDisk
	path := ["properties", "storageProfile", "osDisk", "managedDisk"]
}

disks contains [vm, sprintf("dataDisks[%v]", [object.get(disk, "lun", i)]), path, object.get(vm, array.concat(path, ["diskEncryptionSet", "id"]), "")] if {
	some vm in snyk.resources("Microsoft.Compute/virtualMachines")
	some i, disk in vm.properties.storageProfile.dataDisks
	disk.managedDisk
	path := ["properties", "storageProfile", "dataDisks", i, "managedDisk"]
}

deny contains info if {
	some [r, tag, path, set_id] in disks
	set_id == ""
	info := {"resource": r, "result_tag": tag, "message": sprintf("The %s has no disk encryption set with a customer-managed key.", [tag]), "attributes": [path]}
}

resources contains {"resource": r, "result_tag": tag} if some [r, tag, _, _] in disks
