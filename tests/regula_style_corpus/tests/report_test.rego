package tests.report_test

import data.mylib.report

mock_rules := {
  "a": {"resource_type": "x", "kind": "cfn"},
  "b": {"resource_type": "y"},
  "c": {"no_resource_type": true},
}

test_kinds_from_mock_rules {
  k := report.kinds with data.rules as mock_rules
  k == {"a": "cfn", "b": "tf"}
}

test_kinds_of_the_tree {
  report.kinds == {"t2_only": "tf", "bucket": "cfn"}
}

test_applicable_to_a_plan {
  a := report.applicable with data.rules as mock_rules with input as {"kind": "tf_plan"}
  a == {"b"}
}

test_deliberately_wrong_kind {
  report.kinds.bucket == "tf"
}
