package mylib.report

import data.mylib.kind_internal

# Rule packages that declare a resource type, with their kind.
kinds = {pkg: kind |
  data.rules[pkg].resource_type
  kind = kind_internal.rule_kind(pkg)
}

applicable[pkg] {
  kind := kinds[pkg]
  kind_internal.compatible[kind][input.kind]
}
