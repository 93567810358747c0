package rules.only_arm

import rego.v1

input_type := "arm"

deny contains {"message": sprintf("seen %s", [data.snyk.input_type])} if true
