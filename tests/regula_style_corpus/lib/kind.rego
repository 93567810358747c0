package mylib.kind_internal

# The kind a rule package declares, "tf" when it declares none.
rule_kind(pkg) = ret {
  ret = data["rules"][pkg][k]
  k = "kind"
} else = ret {
  ret = "tf"
}

compatible := {
  "tf": {"tf", "tf_plan"},
  "cfn": {"cfn"},
}
