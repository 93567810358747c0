# Helpers the shipped Azure rules share: network security rules open to the
# internet, Terraform booleans. Not a rule (no deny).
package shipped_lib.azure

import rego.v1

# Source prefixes that stand for any address.
world_sources := {"*", "0.0.0.0", "0.0.0.0/0", "::/0", "internet", "any"}

as_array(x) := x if is_array(x)

as_array(x) := [x] if not is_array(x)

# Every source prefix of a security rule (singular and plural forms).
sources(rule) := array.concat(
	as_array(object.get(rule, "source_address_prefix", [])),
	as_array(object.get(rule, "source_address_prefixes", [])),
)

# Every destination port range of a security rule (singular and plural forms).
port_ranges(rule) := array.concat(
	as_array(object.get(rule, "destination_port_range", [])),
	as_array(object.get(rule, "destination_port_ranges", [])),
)

# Whether a port range text ("*", "22", "20-25") takes in `port`.
range_covers("*", _)

range_covers(range, port) if {
	not contains(range, "-")
	to_number(trim_space(range)) == port
}

range_covers(range, port) if {
	[low, high] := split(range, "-")
	to_number(trim_space(low)) <= port
	port <= to_number(trim_space(high))
}

# An inbound Allow rule reachable from anywhere on `port` over TCP (or any protocol).
open_to_world(rule, port) if {
	lower(object.get(rule, "direction", "")) == "inbound"
	lower(object.get(rule, "access", "")) == "allow"
	lower(object.get(rule, "protocol", "*")) in {"*", "tcp"}
	some source in sources(rule)
	lower(source) in world_sources
	some range in port_ranges(rule)
	range_covers(sprintf("%v", [range]), port)
}

# Whether a Terraform attribute is explicitly false (not merely unset).
is_false(obj, key) if object.get(obj, key, null) == false

# An ARM security rule's properties in the shape open_to_world reads.
arm_rule(properties) := {
	"direction": object.get(properties, "direction", ""),
	"access": object.get(properties, "access", ""),
	"protocol": object.get(properties, "protocol", "*"),
	"source_address_prefix": object.get(properties, "sourceAddressPrefix", []),
	"source_address_prefixes": object.get(properties, "sourceAddressPrefixes", []),
	"destination_port_range": object.get(properties, "destinationPortRange", []),
	"destination_port_ranges": object.get(properties, "destinationPortRanges", []),
}
