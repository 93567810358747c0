package relations

import data.snyk
import rego.v1

# Load balancers forward to applications; each action is annotated with its port.
relations contains {
	"name": "lb.forwards_to",
	"keys": {
		"left": [[lb, a.forward_to, {"port": a.port}] |
			some lb in snyk.resources("lb")
			some a in lb.action
		],
		"right": [[app, app.name] | some app in snyk.resources("app")],
	},
}

# Composite keys: [zone, tier]; numbers compare by value (1 == 1.0).
relations contains {
	"name": "app.placement",
	"keys": {
		"left": [[app, [app.zone, app.tier]] | some app in snyk.resources("app")],
		"right": [[host, [host.zone, host.tier], object.get(host, "rack", null)] | some host in snyk.resources("host")],
	},
}

# Keys that may be null or "": those never join.
relations contains {
	"name": "app.owner",
	"keys": {
		"left": [[app, object.get(app, "owner", null)] | some app in snyk.resources("app")],
		"right": [[team, team.name] | some team in snyk.resources("team")],
	},
}
