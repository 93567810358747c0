# Virtual machines use managed disks.
package rules.tf_azure_vm_managed_disks

import rego.v1

resource_type := "azurerm_virtual_machine"

input_type := "tf"

metadata := {
	"id": "RE-AZ-045",
	"title": "Virtual machines use managed disks",
	"description": "Unmanaged disks are page blobs in a storage account: their encryption, access and availability follow that account's keys and settings rather than the platform's managed-disk controls.",
	"platform": ["Azure"],
	"category": "Compute security",
	"service_group": "Compute",
	"severity": "low",
	"aliases": ["CKV_AZURE_92"],
	"controls": ["CIS-Azure_v1.3.0_7.1"],
	"remediation": {"terraform": "Use managed_disk_type instead of vhd_uri in storage_os_disk and storage_data_disk (or move to azurerm_linux_virtual_machine / azurerm_windows_virtual_machine, which always use managed disks)."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-machines/managed-disks-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/virtual_machine"],
}

deny contains info if {
	some field in ["storage_os_disk", "storage_data_disk"]
	some i, disk in object.get(input, field, [])
	object.get(disk, "vhd_uri", "") != ""
	info := {"message": sprintf("%s %v is an unmanaged VHD.", [field, object.get(disk, "name", i)]), "attributes": [[field, i, "vhd_uri"]]}
}
