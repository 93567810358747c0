package rules.only_cloud_scan

import rego.v1

input_type := "cloud_scan"

deny contains {"message": sprintf("seen %s", [data.snyk.input_type])} if true
