# Rego v0 syntax (seed 004's example rules): inserts are low risk and
# approved; removals are medium; opening ingress to the world is high risk.
package changes.routine

risk[info] {
	c := input.changes[_]
	c.operation == "insert"
	info := {"change": c, "level": "low", "message": "new resource"}
}

decision[info] {
	c := input.changes[_]
	c.operation == "insert"
	info := {"change": c, "decision": "approve", "message": "inserts are approved"}
}

risk[info] {
	c := input.changes[_]
	c.operation == "remove"
	info := {"change": c.id, "level": "medium", "message": "resource removed"}
}

open_cidr(c) {
	c.new == "0.0.0.0/0"
}

open_cidr(c) {
	c.new[_] == "0.0.0.0/0"
}

open_cidr(c) {
	c.new.cidr_blocks[_] == "0.0.0.0/0"
}

risk[info] {
	c := input.changes[_]
	c.operation == "update"
	not c.possible
	open_cidr(c)
	c.old != c.new
	info := {"change": c, "level": "high", "message": sprintf("opens %v to the internet", [c.path])}
}

# Seed 004: a tighter setting is approved.
decision[info] {
	c := input.changes[_]
	c.operation == "update"
	c.path[count(c.path) - 1] == "Timeout"
	c.new > c.old
	info := {"change": c, "decision": "approve", "message": "a longer timeout"}
}
