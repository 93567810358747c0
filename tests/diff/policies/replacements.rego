# Rego v1 syntax. Replacing a resource is risky; replacing one that other
# resources refer to (the relation API answers over the NEW input) is risky
# and rejected, and so is recreating a data store.
package changes.replacements

import data.snyk
import rego.v1

stores := {"AWS::S3::Bucket", "aws_s3_bucket", "AWS::DynamoDB::Table", "AWS::RDS::DBInstance"}

# The resource of the new input a change applies to.
resource(c) := r if {
	some r in snyk.resources(c.resource_type)
	r._id == c.resource_id
}

referrers(c) := {x._id | some x in snyk.back_relates("references", resource(c))}

risk contains {"change": c, "level": "high", "message": msg} if {
	some c in input.changes
	c.operation == "replace"
	count(referrers(c)) > 0
	msg := sprintf("%s is replaced and %d resources refer to it: %v", [c.resource_id, count(referrers(c)), sort(referrers(c))])
}

risk contains {"change": c, "level": "medium", "message": "replaced; nothing refers to it"} if {
	some c in input.changes
	c.operation == "replace"
	count(referrers(c)) == 0
}

decision contains {"change": c, "decision": "reject", "message": "a data store would be recreated"} if {
	some c in input.changes
	c.operation == "replace"
	c.resource_type in stores
}

risk contains {"change": c, "level": "medium", "message": "reads a value of a replaced resource"} if {
	some c in input.changes
	c.operation == "update"
	c.possible
}
