package rules.t2_only

test_t2_micro_allowed {
  allow with input as {"instance_type": "t2.micro"}
}

test_m5_denied {
  not allow with input as {"instance_type": "m5.large"}
}

test_deliberately_failing {
  allow with input as {"instance_type": "m5.large"}
}
