# Containers nested in a storage account: their type and parent come from the
# account they are written in.
package rules.rd_arm_private_containers

import data.fugue

__rego__metadoc__ := {
  "id": "RD_004",
  "title": "Blob containers are private",
  "description": "A container with public access serves its blobs to anyone.",
  "custom": {"severity": "High"}
}

input_type := "arm"

resource_type := "MULTIPLE"

containers := fugue.resources("Microsoft.Storage/storageAccounts/blobServices/containers")

policy[j] {
  c := containers[_]
  object.get(c.properties, "publicAccess", "None") == "None"
  j := fugue.allow_resource(c)
}

policy[j] {
  c := containers[_]
  object.get(c.properties, "publicAccess", "None") != "None"
  j := fugue.deny_resource_with_message(c, sprintf("public in %s", [c._parent_id]))
}
