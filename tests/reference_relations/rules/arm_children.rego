package rules.nsg_rules_declared

import data.snyk
import rego.v1

input_type := "arm"

metadata := {"id": "REF-4", "title": "Network security groups declare their rules as children", "severity": "low"}

deny contains info if {
	some nsg in snyk.resources("Microsoft.Network/networkSecurityGroups")
	count(snyk.relates(nsg, "contains")) == 0
	info := {"resource": nsg, "message": "no child security rules"}
}

deny contains info if {
	some vnet in snyk.resources("Microsoft.Network/virtualNetworks")
	some nsg in snyk.relates(vnet, "Microsoft.Network/virtualNetworks.properties.subnets.properties.networkSecurityGroup.id")
	not nsg in snyk.relates(vnet, "depends_on")
	info := {"resource": vnet, "message": sprintf("uses %s without depending on it", [nsg._id])}
}

resources contains info if {
	some nsg in snyk.resources("Microsoft.Network/networkSecurityGroups")
	info := {"resource": nsg}
}
