package diff.crypto.hashing

# Content digests and HMAC signatures the way admission / infra policies use them.

config_blob := `{"image":"nginx:1.25","replicas":3}`

md5_empty := crypto.md5("")

md5_config := crypto.md5(config_blob)

sha1_unicode := crypto.sha1("déploiement ✓")

sha256_config := crypto.sha256(config_blob)

# Digest of every container image reference, keyed by name.
image_digests[name] := crypto.sha256(image) if {
	some name, image in {"web": "nginx:1.25", "db": "postgres:16", "cache": "redis:7"}
}

short_ids := {substring(crypto.sha1(x), 0, 12) | some x in ["a", "b", "c", "a"]}

webhook_sig := crypto.hmac.sha256(config_blob, "webhook-secret")

hmac_variants := [
	crypto.hmac.md5("payload", "key"),
	crypto.hmac.sha1("payload", "key"),
	crypto.hmac.sha256("payload", "key"),
	crypto.hmac.sha512("payload", "key"),
]

hmac_empty_key := crypto.hmac.sha256("payload", "")

hmac_long_key := crypto.hmac.sha512("payload", concat("", [sprintf("%d", [x]) | some x in numbers.range(1, 100)]))

signature_valid if {
	expected := crypto.hmac.sha256(config_blob, "webhook-secret")
	crypto.hmac.equal(expected, webhook_sig)
}

signature_tampered := crypto.hmac.equal(webhook_sig, crypto.hmac.sha256(`{"image":"evil"}`, "webhook-secret"))

equal_length_mismatch := crypto.hmac.equal("abc", "abcd")

all_sha256_hex if {
	every _, d in image_digests {
		count(d) == 64
		regex.match(`^[0-9a-f]+$`, d)
	}
}

# Builtin errors (non-string operands at run time) make the rule undefined.
mixed := json.unmarshal(`{"name": "web", "port": 8080}`)

md5_of_number := crypto.md5(mixed.port)

hmac_of_number := crypto.hmac.sha256("payload", mixed.port)

md5_per_field[k] := crypto.md5(v) if some k, v in mixed
