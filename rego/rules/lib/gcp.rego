# Helpers the shipped Google Cloud rules share: firewall rules open to the
# internet, default service accounts, instance metadata flags. Not a rule (no deny).
package shipped_lib.gcp

import rego.v1

world_ranges := {"0.0.0.0/0", "::/0"}

# [index, allow block] of an ingress firewall rule that takes in every address.
world_ingress_allows(firewall) := [[i, allow] |
	upper(object.get(firewall, "direction", "INGRESS")) == "INGRESS"
	object.get(firewall, "disabled", false) != true
	some range in object.get(firewall, "source_ranges", [])
	range in world_ranges
	some i, allow in object.get(firewall, "allow", [])
]

# Whether an allow block admits TCP `port` (no ports: every port).
allows_port(allow, port) if {
	lower(allow.protocol) in {"tcp", "all"}
	count(object.get(allow, "ports", [])) == 0
}

allows_port(allow, port) if {
	lower(allow.protocol) in {"tcp", "all"}
	some range in allow.ports
	range_covers(sprintf("%v", [range]), port)
}

range_covers(range, port) if {
	not contains(range, "-")
	to_number(range) == port
}

range_covers(range, port) if {
	[low, high] := split(range, "-")
	to_number(low) <= port
	port <= to_number(high)
}

# A service_account block that runs as the Compute Engine default account
# (named, or left to default by giving no email).
default_service_account(account) if endswith(object.get(account, "email", ""), "-compute@developer.gserviceaccount.com")

default_service_account(account) if object.get(account, "email", "") == ""

# Instance metadata values are strings in HCL ("TRUE") or booleans (plans, JSON).
metadata_true(instance, key) if lower(sprintf("%v", [instance.metadata[key]])) == "true"

metadata_false(instance, key) if lower(sprintf("%v", [instance.metadata[key]])) == "false"
