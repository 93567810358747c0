# Virtual machine and managed disks are encrypted with customer-managed keys.
package rules.tf_azure_vm_disk_cmk

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-047",
	"title": "Managed disks are encrypted with a customer-managed key",
	"description": "Managed disks are always encrypted at rest, by default with platform-managed keys. A disk encryption set puts the OS and data disks, attached or not, under a Key Vault key the organisation controls, rotates and can revoke. The rule reads azurerm_managed_disk and the os_disk of azurerm_linux_virtual_machine and azurerm_windows_virtual_machine.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Compute",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_7.2", "CIS-Azure_v1.3.0_7.3"],
	"remediation": {"terraform": "Create an azurerm_disk_encryption_set over a Key Vault key and set disk_encryption_set_id on each azurerm_managed_disk and in the os_disk block of each virtual machine."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/virtual-machines/disk-encryption",
		"https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/managed_disk#disk_encryption_set_id",
	],
}

vm_types := ["azurerm_linux_virtual_machine", "azurerm_windows_virtual_machine"]

# Either kind of encryption set names a customer-managed key.
set_fields := ["disk_encryption_set_id", "secure_vm_disk_encryption_set_id"]

uses_set(disk) if {
	some field in set_fields
	is_string(disk[field])
	disk[field] != ""
}

# [resource, tag, the disk's attributes, attribute path] for every disk.
disks contains [disk, "disk", disk, []] if some disk in snyk.resources("azurerm_managed_disk")

disks contains [vm, "os_disk", os_disk, ["os_disk", i]] if {
	some type in vm_types
	some vm in snyk.resources(type)
	some i, os_disk in object.get(vm, "os_disk", [])
}

deny contains info if {
	some [r, tag, disk, path] in disks
	not uses_set(disk)
	info := {
		"resource": r,
		"result_tag": tag,
		"message": sprintf("The %s has no disk encryption set with a customer-managed key.", [tag]),
		"attributes": [array.concat(path, ["disk_encryption_set_id"])],
	}
}

resources contains {"resource": r, "result_tag": tag} if some [r, tag, _, _] in disks
