package rules.any_input_v0

import data.snyk

deny[info] {
	info := {"message": sprintf("seen %s", [snyk.input_type])}
}
