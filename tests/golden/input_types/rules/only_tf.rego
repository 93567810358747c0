package rules.only_tf

import rego.v1

input_type := "tf"

deny contains {"message": sprintf("seen %s", [data.snyk.input_type])} if true
