package aws_sign_req

cfg := {
	"aws_access_key": "AKIDEXAMPLE",
	"aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
	"aws_service": "execute-api",
	"aws_region": "eu-west-1",
}

t := 1700000000123456789

plain := providers.aws.sign_req({"method": "GET", "url": "https://api.example.com/a/b%20c?x=1&y=2"}, cfg, t)

with_port_and_user := providers.aws.sign_req({"method": "post", "url": "https://user:pw@example.com:8443/p"}, cfg, t)

s3_body := providers.aws.sign_req(
	{"method": "PUT", "url": "https://bucket.s3.amazonaws.com/k", "body": {"b": [1, 2.5, "<&>"], "a": {3, 1}, "n": null}},
	object.union(cfg, {"aws_service": "s3"}),
	t,
)

s3_raw := providers.aws.sign_req(
	{"method": "PUT", "url": "https://bucket.s3.amazonaws.com/k", "raw_body": "héllo\r\n", "body": {"ignored": true}},
	object.union(cfg, {"aws_service": "s3"}),
	t,
)

glacier_unsigned := providers.aws.sign_req(
	{"method": "GET", "url": "https://glacier.example.com/", "headers": {"X-Custom": "v", "Authorization": "old", "User-Agent": "ua", "x-amzn-trace-id": "t"}},
	object.union(cfg, {"aws_service": "glacier", "disable_payload_signing": true, "aws_session_token": "TOKEN"}),
	t,
)

existing_sha_header := providers.aws.sign_req(
	{"method": "GET", "url": "https://s3.example.com/", "headers": {"x-amz-content-sha256": "mine", "Host": "other"}},
	object.union(cfg, {"aws_service": "s3"}),
	t,
)

undefined_float_time := [x | x := providers.aws.sign_req({"method": "GET", "url": "https://e.com"}, cfg, 1.7e18)]

non_string_header := providers.aws.sign_req({"method": "GET", "url": "https://e.com", "headers": {"n": 1}}, cfg, t)

undefined_missing_config := [x | x := providers.aws.sign_req({"method": "GET", "url": "https://e.com"}, {"aws_service": "s3"}, t)]

undefined_bad_key := [x | x := providers.aws.sign_req({"method": "GET", "url": "https://e.com", "nope": 1}, cfg, t)]

undefined_fractional_time := [x | x := providers.aws.sign_req({"method": "GET", "url": "https://e.com"}, cfg, 1.5)]

undefined_bad_signing_flag := [x | x := providers.aws.sign_req({"method": "GET", "url": "https://e.com"}, object.union(cfg, {"disable_payload_signing": "yes"}), t)]
