package diff.strings.templates

import rego.v1

buckets := [
	{"name": "logs", "region": "eu-west-1", "size_gb": 12.5, "tags": {"env": "prod", "team": "core"}},
	{"name": "tmp", "region": "us-east-1", "size_gb": 0, "tags": {}},
]

# A report with range, if/else, pipelines and printf.
report := strings.render_template(
	`{{range $i, $b := .buckets}}{{if $i}}; {{end}}{{$b.name}} ({{$b.region | printf "%q"}}){{with $b.tags}} tags={{range $k, $v := .}}{{$k}}:{{$v}},{{end}}{{else}} untagged{{end}}{{end}}`,
	{"buckets": buckets},
)

# Missing keys become <undefined>; numbers keep their JSON text.
missing := strings.render_template(`{{.name}} is {{.owner}} / {{.size}} / {{printf "%v|%s|%d" .size .size .size}}`, {"name": "x", "size": 12.5})

# Templates, variables and comparison functions.
defined := strings.render_template(
	`{{define "row"}}<{{.}}>{{end}}{{$n := len .xs}}{{range .xs}}{{template "row" .}}{{end}} n={{$n}} {{if gt $n 2}}many{{else}}few{{end}} {{eq (index .xs 0) "a"}}`,
	{"xs": ["a", "b", "c"]},
)

# A template that does not execute makes the call undefined.
broken := strings.render_template(`{{.x.y}}`, {"x": "string"})

names := [strings.render_template(`{{.name | printf "%-6s"}}|`, b) | some b in buckets]
