package diff.crypto.jwt

# Test keys generated for this file only (no real secrets).
ed_private_jwk := {"kty": "OKP", "crv": "Ed25519", "x": "_fRfSm6lXRNwDg2HqfS9iE_PUX6XkfYuPAPMobb3sH8", "d": "3okt_F_kqMDgcK9Tm9MqROZnhoRn6d4WTvv3yzxPx2g"}

ed_public_pem := `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA/fRfSm6lXRNwDg2HqfS9iE/PUX6XkfYuPAPMobb3sH8=
-----END PUBLIC KEY-----`

ed_cert := `-----BEGIN CERTIFICATE-----
MIHXMIGKoAMCAQICAgTSMAUGAytlcDAVMRMwEQYDVQQDDApqd3Qtc2lnbmVyMB4X
DTIwMDEwMTAwMDAwMFoXDTQwMDEwMTAwMDAwMFowFTETMBEGA1UEAwwKand0LXNp
Z25lcjAqMAUGAytlcAMhAP30X0pupV0TcA4Nh6n0vYhPz1F+l5H2LjwDzKG297B/
MAUGAytlcANBAALawki5ca80QmGC2EWmPWeqRyjXHouF49W5BFwA6jNHXIGi4NN7
1EYugKGBwEPRE6V11rT/3RwNUNng5CoP5A0=
-----END CERTIFICATE-----`

ec_private_jwk := {"kty": "EC", "crv": "P-256", "x": "hzU7RJdxTX7u5IvYFIR1ltRXLTN7c40ed_sZWwU_2iU", "y": "OkxdABCo7D2_QGQXkXbCLrcZgVD4Ag6PrR--ZmYUx30", "d": "Ng-uyMQ1axs3cblSMrgq3H5gj7fqMAWm88lr1Dc2DWk"}

ec_public_pem := `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEhzU7RJdxTX7u5IvYFIR1ltRXLTN7
c40ed/sZWwU/2iU6TF0AEKjsPb9AZBeRdsIutxmBUPgCDo+tH75mZhTHfQ==
-----END PUBLIC KEY-----`

# The JWKS is kept as an object: the Wasm runtime's json.marshal orders keys
# differently from topdown, so a marshalled multi-key object is not compared.
ec_public_jwks_doc := {"keys": [object.remove(object.union(ec_private_jwk, {"kid": "ec-1", "alg": "ES256"}), ["d"])]}

hs_key := {"kty": "oct", "k": base64url.encode_no_pad("s3cr3t")}

claims := {
	"iss": "https://auth.example.com",
	"sub": "svc-deployer",
	"aud": ["ci", "kube-api"],
	"groups": ["deployers", "viewers"],
	"iat": 1700000000,
	"nbf": 1700000000,
	"exp": 4102444800,
}

hs_token := io.jwt.encode_sign({"alg": "HS256", "typ": "JWT"}, claims, hs_key)

ed_token := io.jwt.encode_sign({"alg": "EdDSA", "typ": "JWT", "kid": "ed-1"}, claims, ed_private_jwk)

raw_token := io.jwt.encode_sign_raw(`{"alg":"HS512","typ":"JWT"}`, `{"sub":"raw","n":1.5}`, json.marshal(hs_key))

decoded := io.jwt.decode(hs_token)

decoded_raw := io.jwt.decode(raw_token)

header_alg := decoded[0].alg

hs_valid := io.jwt.verify_hs256(hs_token, "s3cr3t")

hs_wrong_secret := io.jwt.verify_hs256(hs_token, "guess")

hs512_valid := io.jwt.verify_hs512(raw_token, "s3cr3t")

ed_valid_pem := io.jwt.verify_eddsa(ed_token, ed_public_pem)

ed_valid_cert := io.jwt.verify_eddsa(ed_token, ed_cert)

ed_wrong_key := io.jwt.verify_eddsa(ed_token, ec_public_pem)

# ES256 signatures are randomised: check the round trip, not the bytes.
es_round_trip := io.jwt.verify_es256(io.jwt.encode_sign({"alg": "ES256"}, {"sub": "x"}, ec_private_jwk), ec_public_pem)

es_with_jwks := io.jwt.verify_es256(io.jwt.encode_sign({"alg": "ES256", "kid": "ec-1"}, {"sub": "x"}, ec_private_jwk), json.marshal(ec_public_jwks_doc))

constraints := {"secret": "s3cr3t", "iss": "https://auth.example.com", "aud": "kube-api", "time": 1800000000000000000}

verified := io.jwt.decode_verify(hs_token, constraints)

verified_ok := verified[0]

subject := verified[2].sub if verified[0]

wrong_audience := io.jwt.decode_verify(hs_token, object.union(constraints, {"aud": "billing"}))

expired := io.jwt.decode_verify(hs_token, object.union(constraints, {"time": 4102444800000000000}))

not_yet_valid := io.jwt.decode_verify(hs_token, object.union(constraints, {"time": 1600000000000000000}))

alg_mismatch := io.jwt.decode_verify(hs_token, object.union(constraints, {"alg": "RS256"}))

ed_decode_verify := io.jwt.decode_verify(ed_token, {"cert": ed_cert, "aud": "ci", "time": 1800000000000000000})

groups_allowed if {
	[valid, _, payload] := io.jwt.decode_verify(hs_token, constraints)
	valid
	every g in payload.groups {
		g in {"deployers", "viewers", "admins"}
	}
}

token_checks := {alg: io.jwt.verify_hs256(t, "s3cr3t") |
	some alg, t in {"hs": hs_token, "ed": ed_token}
}

# Builtin errors make these undefined.
malformed_decode := io.jwt.decode("not.a.jwt.at.all")

bad_base64_decode := io.jwt.decode("eyJhbGciOiJIUzI1NiJ9.e30.x")

unknown_constraint := io.jwt.decode_verify(hs_token, {"secret": "s3cr3t", "leeway": 30})

two_keys := io.jwt.decode_verify(hs_token, {"secret": "s3cr3t", "cert": ed_public_pem})

bad_cert := io.jwt.verify_eddsa(ed_token, "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----")

unknown_alg := io.jwt.encode_sign({"alg": "HS1024"}, {}, hs_key)
