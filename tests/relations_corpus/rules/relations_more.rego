package relations

import data.snyk
import rego.v1

# Explicit pairs, some annotated.
relations contains {
	"name": "host.backup",
	"explicit": [[h, other, ann] |
		some h in snyk.resources("host")
		some other in snyk.resources("host")
		h.backup == other.name
		ann := {"primary": h.name}
	],
}

# A second declaration of a name from another file merges with it.
relations contains {
	"name": "app.owner",
	"keys": {
		"left": [[app, app.name] | some app in snyk.resources("app")],
		"right": [[team, team.apps[_]] | some team in snyk.resources("team")],
	},
}

# Field paths: nested objects, every element of an array, one element.
relations contains snyk.relation_from_fields(
	"service.selects",
	{"service": ["spec.selector.app"]},
	{"app": ["name", "labels.app"]},
)

relations contains snyk.relation_from_fields(
	"team.members",
	{"team": ["members[*].user", "lead[0]"]},
	{"user": ["login"]},
)

# Replaces the shipped relation of the same name.
relations contains snyk.relation_from_fields(
	"aws_s3_bucket.logging",
	{"aws_s3_bucket": ["bucket"]},
	{"aws_s3_bucket_logging": ["target_of"]},
)
