package rules.only_k8s

import rego.v1

input_type := "k8s"

deny contains {"message": sprintf("seen %s", [data.snyk.input_type])} if true
