# Terraform helpers of the snyk policy API (package snyk.terraform), pure Rego
# over resource objects, so the scan and `rego-engine test` share this file.
#
# Version constraints are read as snyk's engine reads them: a comma-separated
# list of "<operator> <version>" terms, operators =, !=, >, >=, <, <=, ~>;
# versions of one to three numeric parts, missing parts 0. A term that does not
# parse is ignored; a term with another operator is compatible with nothing.
package snyk.terraform

import rego.v1

# Whether `constraints` (e.g. ">= 4" or "~> 3.0, != 3.0.1") is compatible with
# the version constraint of the resource's provider (`required_providers`,
# in `_meta.terraform.provider_version_constraint`). Without one, it holds.
resource_provider_version_constraint(resource, constraints) if {
	own := object.get(resource, ["_meta", "terraform", "provider_version_constraint"], "")
	semver_constraints_intersect(own, constraints)
}

# Whether every term of `a` is compatible with every term of `b`.
semver_constraints_intersect(a, b) if {
	left := parse_semver_constraints(a)
	right := parse_semver_constraints(b)
	every l in left {
		every r in right {
			_compatible(l, r)
		}
	}
}

# The terms of a constraint string: a set of [operator, [major, minor, patch]].
parse_semver_constraints(text) := {[op, version] |
	some term in split(text, ",")
	trim_space(term) != ""
	some match in regex.find_all_string_submatch_n(`^\s*([=!<>~]+)\s*([0-9.]*)\s*$`, term, 1)
	op := match[1]
	version := parse_semver(match[2])
}

# "1.2.3" → [1, 2, 3]; "1.2" → [1, 2, 0]; "1" → [1, 0, 0].
parse_semver(text) := version if {
	parts := split(text, ".")
	count(parts) <= 3
	numbers := [to_number(p) | some p in parts]
	count(numbers) == count(parts)
	version := array.concat(numbers, array.slice([0, 0], 0, 3 - count(numbers)))
}

# The first version past a "~>" version's minor release.
_next_minor(v) := [v[0], v[1] + 1, 0]

_lower := {">", ">="}

_upper := {"<", "<="}

_known := {"=", "!=", ">", ">=", "<", "<=", "~>"}

# Two terms are compatible when either order of them is allowed below.
_compatible(l, r) if _allows(l, r)

_compatible(l, r) if _allows(r, l)

_allows(["=", x], ["=", y]) if x == y

_allows(["=", x], ["!=", y]) if x != y

_allows(["=", x], [">", y]) if x > y

_allows(["=", x], [">=", y]) if x >= y

_allows(["=", x], ["<", y]) if x < y

_allows(["=", x], ["<=", y]) if x <= y

_allows(["=", x], ["~>", y]) if {
	x >= y
	x < _next_minor(y)
}

# "!=" excludes one version: only "=" of that same version contradicts it.
_allows(["!=", _], [op, _]) if op in (_known - {"="})

# Two lower bounds, or two upper bounds, always meet.
_allows([a, _], [b, _]) if {
	a in _lower
	b in _lower
}

_allows([a, _], [b, _]) if {
	a in _upper
	b in _upper
}

_allows([">", x], [op, y]) if {
	op in _upper
	x < y
}

_allows([">=", x], ["<", y]) if x < y

_allows([">=", x], ["<=", y]) if x <= y

# "~>" against a bound compares with the "~>" version itself.
_allows(["~>", x], [">", y]) if y < x

_allows(["~>", x], [">=", y]) if y <= x

_allows(["~>", x], ["<", y]) if x < y

_allows(["~>", x], ["<=", y]) if x <= y

_allows(["~>", x], ["~>", y]) if array.slice(x, 0, 2) == array.slice(y, 0, 2)
