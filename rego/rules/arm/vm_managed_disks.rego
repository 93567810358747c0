# Virtual machines use managed disks, not VHDs in storage accounts.
package rules.arm_vm_managed_disks

import rego.v1

resource_type := "Microsoft.Compute/virtualMachines"

input_type := "arm"

metadata := {
	"id": "RE-ARM-020",
	"title": "Virtual machines use managed disks",
	"description": "An unmanaged disk is a VHD blob in a storage account, protected only as well as that account and its keys; managed disks are encrypted at rest and isolated from storage account access.",
	"platform": ["Azure"],
	"category": "Compute security",
	"service_group": "Compute",
	"severity": "low",
	"aliases": ["CKV_AZURE_92"],
	"controls": ["CIS-Azure_v1.3.0_7.1"],
	"remediation": {"arm": "Replace vhd.uri in storageProfile.osDisk and dataDisks with managedDisk (storageAccountType), or convert the VM to managed disks."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-machines/managed-disks-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.compute/virtualmachines"],
}

# [name, attribute path, disk] for the OS disk and each data disk.
disks contains ["osDisk", ["properties", "storageProfile", "osDisk"], input.properties.storageProfile.osDisk]

disks contains [sprintf("dataDisks[%d]", [i]), ["properties", "storageProfile", "dataDisks", i], disk] if {
	some i, disk in input.properties.storageProfile.dataDisks
}

deny contains info if {
	some [name, path, disk] in disks
	object.get(disk, ["vhd", "uri"], "") != ""
	info := {"message": sprintf("%s is an unmanaged VHD.", [name]), "attributes": [array.concat(path, ["vhd"])]}
}
