package rules.fugue_policy_v0

import data.fugue

resource_type = "MULTIPLE"

buckets = fugue.resources("aws_s3_bucket")

policy[j] {
	b := buckets[_]
	b.acl == "private"
	j := fugue.allow_resource(b)
}

policy[j] {
	b := buckets[_]
	b.acl == "public-read"
	j := fugue.deny_resource_with_message(b, "bucket is public")
}

policy[j] {
	count(fugue.resources("aws_cloudtrail")) == 0
	j := fugue.missing_resource_with_message("aws_cloudtrail", "no cloudtrail")
}
