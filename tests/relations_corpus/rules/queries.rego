package rules.relation_queries

import data.snyk
import rego.v1

metadata := {"id": "REL1", "title": "relation queries", "severity": "low"}

_ids(rs) := [r._id | some r in rs]

_pairs(rs) := [[r._id, a] | some [r, a] in rs]

deny contains info if {
	some t in ["lb", "app", "host", "team", "service", "user", "aws_s3_bucket", "aws_s3_bucket_logging"]
	some r in snyk.resources(t)
	some name in [
		"lb.forwards_to", "app.placement", "app.owner", "host.backup", "service.selects",
		"team.members", "aws_s3_bucket.logging", "aws_s3_bucket.versioning", "no.such.relation",
	]
	# An array: json.marshal orders object keys differently in Wasm and topdown.
	out := [
		_ids(snyk.relates(r, name)),
		_ids(snyk.back_relates(name, r)),
		_pairs(snyk.relates_with(r, name)),
		_pairs(snyk.back_relates_with(name, r)),
	]
	info := {"resource": r, "result_tag": name, "message": json.marshal(out)}
}
