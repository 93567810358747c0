package diff.misc.network

# net.cidr_* as used in network policies: allow-lists, firewall rules, IPAM.

trusted_cidrs := ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "2001:db8::/32"]

client_ips := {
	"web": "10.1.2.3",
	"vpn": "172.20.0.9",
	"home": "203.0.113.7",
	"v6": "2001:db8::42",
	"mapped": "::ffff:192.168.1.10",
}

# Which trusted range (by index) contains which client (by key).
trusted_matches := net.cidr_contains_matches(trusted_cidrs, client_ips)

untrusted_clients := {name |
	some name, ip in client_ips
	count(net.cidr_contains_matches(trusted_cidrs, ip)) == 0
}

# Arrays of [cidr, metadata...] tuples and sets as operands.
tagged_matches := net.cidr_contains_matches(
	{"corp": ["10.0.0.0/8", "internal"], "dmz": ["192.0.2.0/24", "public"]},
	{"10.9.9.9", "192.0.2.200", "198.51.100.1"},
)

subnet_in_range := net.cidr_contains_matches("10.0.0.0/8", ["10.1.0.0/16", "10.0.0.0/7", "11.0.0.0/8"])

# IPv4 addresses are not in IPv6 networks, except in the IPv4-mapped range.
v4_in_v6_any := net.cidr_contains_matches("::/0", "1.2.3.4")

v4_in_mapped := net.cidr_contains_matches("::ffff:0:0/96", "1.2.3.4")

small_subnet_hosts := net.cidr_expand("192.168.10.0/29")

point_to_point := net.cidr_expand("10.255.255.254/31")

v6_hosts := net.cidr_expand("2001:db8::/126")

expanded_count := count(net.cidr_expand("10.0.0.0/24"))

valid_cidrs := {c: net.cidr_is_valid(c) | some c in [
	"10.0.0.0/8",
	"10.0.0.0/33",
	"10.0.0.1",
	"010.0.0.0/8",
	"fe80::/10",
	"fe80::1%eth0/64",
	"::ffff:10.0.0.0/104",
	"not-a-cidr",
]}

merged_adjacent := net.cidr_merge(["192.0.128.0/24", "192.0.129.0/24", "192.0.130.0/24"])

merged_overlapping := net.cidr_merge({"10.0.0.0/8", "10.1.0.0/16", "11.0.0.0/8"})

merged_mixed := net.cidr_merge(["2001:db8::/33", "2001:db8:8000::/33", "10.0.0.0/9", "10.128.0.0/9"])

merged_hosts := net.cidr_merge(["10.0.0.5/32", "10.0.0.6/32", "10.0.0.7/32"])

# A bare IPv4 address takes its classful default mask.
merged_bare_ip := net.cidr_merge(["192.168.1.1"])

all_private if {
	every ip in ["10.0.0.1", "192.168.3.4"] {
		count(net.cidr_contains_matches(trusted_cidrs, ip)) > 0
	}
}

# Error cases: each makes its rule undefined.
bad_expand := net.cidr_expand("10.0.0.0/40")

bad_match_cidr := net.cidr_contains_matches(["nope"], ["1.2.3.4"])

bad_match_element := net.cidr_contains_matches(["10.0.0.0/8"], [[]])

merge_bare_v6 := net.cidr_merge(["2001:db8::1"])

merge_invalid := net.cidr_merge(["10.0.0.0/8", "bogus"])
