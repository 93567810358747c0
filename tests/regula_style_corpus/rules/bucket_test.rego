package rules.bucket

test_unencrypted_denied {
  deny["bucket is not encrypted"] with input as {"encrypted": false}
}

test_encrypted_passes {
  count(deny) == 0 with input as {"encrypted": true}
}
