package rules.only_cfn

import rego.v1

input_type := "cfn"

deny contains {"message": sprintf("seen %s", [data.snyk.input_type])} if true
