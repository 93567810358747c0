package rules.tf_azure_vm_disk_cmk_test

import data.rules.tf_azure_vm_disk_cmk as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"azurerm_managed_disk": {
			"azurerm_managed_disk.data": {"attributes": {"disk_encryption_set_id": "azurerm_disk_encryption_set.cmk"}},
			"azurerm_managed_disk.scratch": {"attributes": {"storage_account_type": "Standard_LRS"}},
		},
		"azurerm_linux_virtual_machine": {"azurerm_linux_virtual_machine.web": {"attributes": {"os_disk": [{"caching": "ReadWrite"}]}}},
		"azurerm_windows_virtual_machine": {"azurerm_windows_virtual_machine.ad": {"attributes": {"os_disk": [{"disk_encryption_set_id": "azurerm_disk_encryption_set.cmk"}]}}},
	},
}

test_disks_without_customer_keys_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["azurerm_managed_disk.scratch", "disk"], ["azurerm_linux_virtual_machine.web", "os_disk"]}
	count(rule.resources) == 4 with input as state
}
