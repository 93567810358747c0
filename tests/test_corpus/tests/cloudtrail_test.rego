# Tests of a legacy fugue rule (v0 syntax with future keywords).
package rules.cloudtrail_logging_test

import future.keywords.in

import data.rules.cloudtrail_logging

trail(id, logging) = {"id": id, "attributes": {"enable_logging": logging}}

state(trails) = {"input_type": "tf_hcl", "resources": {"aws_cloudtrail": trails}}

test_missing_trail_is_reported {
	judgements := cloudtrail_logging.policy with input as state({})
	some j in judgements
	j.type == "aws_cloudtrail"
	j.valid == false
}

test_logging_trail_is_allowed {
	judgements := cloudtrail_logging.policy with input as state({"t1": trail("t1", true)})
	judgements == {{"valid": true, "id": "t1", "type": "aws_cloudtrail", "namespace": "", "message": ""}}
}

test_disabled_trail_is_denied_with_message {
	judgements := cloudtrail_logging.policy with input as state({"t2": trail("t2", false)})
	some j in judgements
	j.message == "trail logging is disabled"
	j.id == "t2"
}

test_fugue_resources_are_keyed_by_id {
	trails := cloudtrail_logging.trails with input as state({"a": trail("a", true), "b": trail("b", false)})
	object.keys(trails) == {"a", "b"}
}

test_fugue_input_type {
	data.fugue.input_type == "tf_hcl" with input as state({})
}
