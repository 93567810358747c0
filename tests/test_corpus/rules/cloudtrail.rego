# Legacy fugue rule (v0): allow, deny and missing judgements.
package rules.cloudtrail_logging

import data.fugue

resource_type := "MULTIPLE"

trails := fugue.resources("aws_cloudtrail")

policy[j] {
	t := trails[_]
	t.enable_logging == true
	j := fugue.allow_resource(t)
}

policy[j] {
	t := trails[_]
	not t.enable_logging
	j := fugue.deny_resource_with_message(t, "trail logging is disabled")
}

policy[j] {
	count(trails) == 0
	j := fugue.missing_resource("aws_cloudtrail")
}
