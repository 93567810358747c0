# A multi-resource rule: one judgement per open port, so a group open on two
# admin ports is judged twice with two messages.
package rules.rd_tf_open_admin_ports

import data.fugue

__rego__metadoc__ := {
  "id": "RD_002",
  "title": "Security groups do not open admin ports to the world",
  "description": "SSH and RDP should be reachable only from known networks.",
  "custom": {"severity": "High"}
}

input_type := "tf"

resource_type := "MULTIPLE"

groups := fugue.resources("aws_security_group")

admin_ports := {22, 3389}

open_ports(group) = {port |
  rule := group.ingress[_]
  rule.cidr_blocks[_] == "0.0.0.0/0"
  port := admin_ports[_]
  rule.from_port <= port
  rule.to_port >= port
}

policy[j] {
  group := groups[_]
  port := open_ports(group)[_]
  j := fugue.deny_resource_with_message(group, sprintf("port %d is open to 0.0.0.0/0", [port]))
}

policy[j] {
  group := groups[_]
  count(open_ports(group)) == 0
  j := fugue.allow_resource(group)
}
