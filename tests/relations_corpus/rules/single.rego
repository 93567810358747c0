package rules.app_without_host

import data.snyk
import rego.v1

metadata := {"id": "REL2", "title": "apps need a host", "severity": "medium"}

resource_type := "app"

deny contains info if {
	count(snyk.relates(input, "app.placement")) == 0
	info := {"message": sprintf("%s has no host", [input.name])}
}
