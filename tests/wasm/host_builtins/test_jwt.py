"""Tests for the io.jwt.* host builtins, against the pinned `opa` as oracle.

Keys and certificates are generated per test run with `cryptography`. HS*,
RS* and EdDSA signatures are deterministic, so `encode_sign` output is
compared byte for byte; PS* and ES* signatures are random, so those tokens
are checked by round trip (signed here, verified by OPA and here).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import json
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import NameOID
from oracle import needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.registry import EvalContext, reset_context, set_context
from engine.wasm.values import to_json

# ---------------------------------------------------------------- key material


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def int_bytes(n: int, size: int = 0) -> bytes:
    return n.to_bytes(size or (n.bit_length() + 7) // 8, "big")


RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
RSA_OTHER = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())
EC384_KEY = ec.generate_private_key(ec.SECP384R1())
ED_KEY = ed25519.Ed25519PrivateKey.generate()


def pub_pem(key: Any) -> str:
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def cert_pem(key: Any, cn: str = "jwt-signer") -> str:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    algorithm = None if isinstance(key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(4242)
        .not_valid_before(datetime.datetime(2020, 1, 1))
        .not_valid_after(datetime.datetime(2040, 1, 1))
        .sign(key, algorithm)
    )
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def rsa_jwk(key: rsa.RSAPrivateKey, private: bool = False, **extra: str) -> dict[str, str]:
    nums = key.private_numbers()
    pub = nums.public_numbers
    jwk = {"kty": "RSA", "n": b64u(int_bytes(pub.n)), "e": b64u(int_bytes(pub.e))}
    if private:
        jwk |= {
            "d": b64u(int_bytes(nums.d)),
            "p": b64u(int_bytes(nums.p)),
            "q": b64u(int_bytes(nums.q)),
            "dp": b64u(int_bytes(nums.dmp1)),
            "dq": b64u(int_bytes(nums.dmq1)),
            "qi": b64u(int_bytes(nums.iqmp)),
        }
    return jwk | extra


def ec_jwk(key: ec.EllipticCurvePrivateKey, private: bool = False, **extra: str) -> dict[str, str]:
    size = (key.curve.key_size + 7) // 8
    nums = key.private_numbers()
    crv = {256: "P-256", 384: "P-384", 521: "P-521"}[key.curve.key_size]
    jwk = {
        "kty": "EC",
        "crv": crv,
        "x": b64u(int_bytes(nums.public_numbers.x, size)),
        "y": b64u(int_bytes(nums.public_numbers.y, size)),
    }
    if private:
        jwk["d"] = b64u(int_bytes(nums.private_value, size))
    return jwk | extra


def ed_jwk(key: ed25519.Ed25519PrivateKey, private: bool = False) -> dict[str, str]:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64u(raw)}
    if private:
        jwk["d"] = b64u(
            key.private_bytes(
                serialization.Encoding.Raw,
                serialization.PrivateFormat.Raw,
                serialization.NoEncryption(),
            )
        )
    return jwk


OCT = {"kty": "oct", "k": b64u(b"secret")}


def hs_token(header: str, payload: str, secret: bytes = b"secret", bits: int = 256) -> str:
    """A token from raw header/payload JSON texts, HMAC-signed."""
    signing_input = b64u(header.encode()) + "." + b64u(payload.encode())
    mac = hmac.new(secret, signing_input.encode(), getattr(hashlib, f"sha{bits}")).digest()
    return signing_input + "." + b64u(mac)


def call(name: str, *args: Any) -> list[Any]:
    """The builtin's result as `opa_call` reports it: [] when undefined."""
    token = set_context(EvalContext(now_ns=1_700_000_000 * 10**9))
    try:
        return [to_json(REGISTRY[name](*args))]
    except BuiltinError:
        return []
    finally:
        reset_context(token)


def sign(header: dict[str, Any], payload: dict[str, Any], jwk: dict[str, Any]) -> str:
    (token,) = call("io.jwt.encode_sign", header, payload, jwk)
    return token


# ---------------------------------------------------------------- tokens used below

NOW = 1_700_000_000 * 10**9
CLAIMS = {"sub": "alice", "iss": "https://issuer.example", "aud": "api", "exp": 4102444800}
HS = hs_token('{"alg":"HS256","typ":"JWT"}', json.dumps(CLAIMS))
HS384 = hs_token('{"alg":"HS384"}', '{"sub":"bob"}', bits=384)
HS512 = hs_token('{"alg":"HS512"}', '{"sub":"bob"}', bits=512)
RS = sign({"alg": "RS256", "kid": "k1"}, {"sub": "bob"}, rsa_jwk(RSA_KEY, True))
RS512 = sign({"alg": "RS512"}, {"sub": "bob"}, rsa_jwk(RSA_KEY, True))
PS = sign({"alg": "PS256"}, {"sub": "bob"}, rsa_jwk(RSA_KEY, True))
ES = sign({"alg": "ES256"}, {"sub": "bob"}, ec_jwk(EC_KEY, True))
ES384 = sign({"alg": "ES384"}, {"sub": "bob"}, ec_jwk(EC384_KEY, True))
ED = sign({"alg": "EdDSA"}, {"sub": "bob"}, ed_jwk(ED_KEY, True))
INNER = hs_token('{"alg":"HS256"}', '{"sub":"inner"}')
NESTED = hs_token('{"alg":"HS256","cty":"JWT"}', INNER)
NESTED_QUOTED = hs_token('{"alg":"HS256","cty":"JWT"}', f'"{INNER}"')
RSA_PEM = pub_pem(RSA_KEY)
RSA_JWKS = json.dumps(
    {"keys": [rsa_jwk(RSA_OTHER, kid="k0"), rsa_jwk(RSA_KEY, kid="k1", alg="RS256")]}
)


def dv(token: str, **constraints: Any) -> tuple[str, tuple[Any, ...]]:
    return ("io.jwt.decode_verify", (token, constraints))


DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    # decode
    ("io.jwt.decode", (HS,)),
    ("io.jwt.decode", (RS,)),
    ("io.jwt.decode", (NESTED_QUOTED,)),
    ("io.jwt.decode", (hs_token('{"alg":"HS256"}', '{"a":1,"a":2,"f":1.5,"n":null}'),)),
    ("io.jwt.decode", (hs_token('{"alg":"HS256"}', "[1,2]"),)),  # payload not an object
    ("io.jwt.decode", (hs_token('{"alg":"HS256","enc":"A128GCM"}', "{}"),)),  # JWE
    ("io.jwt.decode", (hs_token('{"alg":"HS256"}', '{"s":"\\ud800"}'),)),  # lone surrogate
    ("io.jwt.decode", (hs_token('{"alg":"HS256"}', '{"n":NaN}'),)),
    ("io.jwt.decode", ("no-dots",)),
    ("io.jwt.decode", ("eyJhbGciOiJIUzI1NiJ9.e30=.xy==",)),
    ("io.jwt.decode", ("eyJhbGciOiJIUzI1NiJ9.e30.x",)),  # 1 char mod 4: illegal
    ("io.jwt.decode", ("eyJhbGciOiJIUzI1NiJ9.e30.x+y",)),  # standard alphabet
    # verify_hs*
    ("io.jwt.verify_hs256", (HS, "secret")),
    ("io.jwt.verify_hs256", (HS, "wrong")),
    ("io.jwt.verify_hs384", (HS384, "secret")),
    ("io.jwt.verify_hs512", (HS512, "secret")),
    ("io.jwt.verify_hs256", (hs_token('{"alg":"HS256"}', "{}", secret=b""), "")),
    ("io.jwt.verify_hs256", ("a.b.c.d", "secret")),
    # verify_rs/ps/es/eddsa with PEM keys, certificates and JWK(S)
    ("io.jwt.verify_rs256", (RS, RSA_PEM)),
    ("io.jwt.verify_rs256", (RS, cert_pem(RSA_KEY))),
    ("io.jwt.verify_rs256", (RS, pub_pem(RSA_OTHER))),
    ("io.jwt.verify_rs384", (RS, RSA_PEM)),
    ("io.jwt.verify_rs512", (RS512, RSA_PEM)),
    ("io.jwt.verify_rs256", (RS, RSA_PEM + "\n")),  # extra data after the block
    ("io.jwt.verify_rs256", (RS, RSA_PEM.replace("PUBLIC KEY", "RSA PUBLIC KEY"))),
    ("io.jwt.verify_rs256", (RS, json.dumps(rsa_jwk(RSA_KEY)))),
    ("io.jwt.verify_rs256", (RS, json.dumps(rsa_jwk(RSA_KEY, True)))),  # private: wrong type
    ("io.jwt.verify_rs256", (RS, RSA_JWKS)),
    ("io.jwt.verify_rs256", (RS, json.dumps({"keys": [rsa_jwk(RSA_KEY, alg="RS512")]}))),
    ("io.jwt.verify_rs256", (RS, json.dumps({"keys": [rsa_jwk(RSA_KEY, alg="FOO")]}))),
    ("io.jwt.verify_rs256", (RS, json.dumps({"keys": [rsa_jwk(RSA_KEY, alg="RSA-OAEP")]}))),
    ("io.jwt.verify_rs256", (RS, json.dumps({"keys": []}))),
    ("io.jwt.verify_ps256", (PS, RSA_PEM)),
    ("io.jwt.verify_ps256", (RS, RSA_PEM)),
    ("io.jwt.verify_es256", (ES, pub_pem(EC_KEY))),
    ("io.jwt.verify_es256", (ES, cert_pem(EC_KEY))),
    ("io.jwt.verify_es256", (ES, json.dumps(ec_jwk(EC_KEY)))),
    ("io.jwt.verify_es384", (ES384, pub_pem(EC384_KEY))),
    ("io.jwt.verify_es256", (RS, pub_pem(EC_KEY))),
    ("io.jwt.verify_es256", (ES, pub_pem(ec.generate_private_key(ec.SECP256K1())))),
    ("io.jwt.verify_eddsa", (ED, pub_pem(ED_KEY))),
    ("io.jwt.verify_eddsa", (ED, cert_pem(ED_KEY))),
    ("io.jwt.verify_eddsa", (ED, RSA_PEM)),
    # decode_verify
    dv(HS, secret="secret", time=NOW),
    dv(HS, secret="secret", iss="https://issuer.example", aud="api", time=NOW),
    dv(HS, secret="secret", aud="other", time=NOW),
    dv(HS, secret="secret", iss="other", time=NOW),
    dv(HS, secret="wrong", aud="api", time=NOW),
    dv(HS, secret="secret", aud="api", time=4102444800 * 10**9),  # exactly exp
    dv(HS, secret="secret", aud="api", time=4102444800 * 10**9 - 1),
    dv(HS, secret="secret", aud="api", alg="HS512"),
    dv(HS, secret="secret", cert=RSA_PEM),
    dv(HS),
    dv(HS, secret="secret", foo="bar"),
    dv(hs_token('{"alg":"HS256"}', '{"nbf":1700000000.5}'), secret="secret", time=NOW),
    dv(hs_token('{"alg":"HS256"}', '{"nbf":1700000000}'), secret="secret", time=NOW),
    dv(hs_token('{"alg":"HS256"}', '{"exp":"soon"}'), secret="secret", time=NOW),
    dv(hs_token('{"alg":"HS256"}', '{"aud":["x","api"]}'), secret="secret", aud="api"),
    dv(hs_token('{"alg":"HS256"}', '{"aud":""}'), secret="secret"),
    dv(hs_token('{"alg":"HS256","crit":["x"],"x":1}', "{}"), secret="secret"),
    dv(hs_token('{"alg":"HS256","crit":[]}', "{}"), secret="secret"),
    dv(hs_token('{"typ":"JWT"}', "{}"), secret="secret"),
    dv(NESTED, secret="secret"),
    dv(RS, cert=RSA_JWKS, time=NOW),
    dv(PS, cert=cert_pem(RSA_KEY)),
    dv(ES, cert=pub_pem(EC_KEY)),
    dv(ED, cert=json.dumps(ed_jwk(ED_KEY))),
    dv(hs_token('{"alg":"HS256"}', "{}"), cert=json.dumps(OCT)),
    # encode_sign / encode_sign_raw (deterministic algorithms)
    ("io.jwt.encode_sign", ({"typ": "JWT", "alg": "HS256"}, {"iss": "joe", "x": "<&>"}, OCT)),
    ("io.jwt.encode_sign", ({"alg": "HS512"}, {"n": [1, 2.5, None, True]}, OCT)),
    ("io.jwt.encode_sign", ({"alg": "RS256", "kid": "k1"}, {"sub": "x"}, rsa_jwk(RSA_KEY, True))),
    ("io.jwt.encode_sign", ({"alg": "EdDSA"}, {"sub": "x"}, ed_jwk(ED_KEY, True))),
    ("io.jwt.encode_sign", ({"alg": "RS256"}, {"sub": "x"}, OCT)),
    ("io.jwt.encode_sign", ({"alg": "HS256"}, {"sub": "x"}, {"kty": "oct", "k": ""})),
    ("io.jwt.encode_sign_raw", ('{"alg": "HS256" , "x":1}', '{ "a" : 1 }', json.dumps(OCT))),
    ("io.jwt.encode_sign_raw", ('{"alg":"HS256","alg":"RS256"}', "{}", json.dumps(OCT))),
    ("io.jwt.encode_sign_raw", ('{"alg":"HS256"}', "not json", json.dumps(OCT))),
    ("io.jwt.encode_sign_raw", ('{"alg":"HS256","typ":"text"}', "not json", json.dumps(OCT))),
    ("io.jwt.encode_sign_raw", ('{"alg":"HS256"}', "{}", "not a jwk")),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), DIFF_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(DIFF_CASES)]
)
def test_against_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_oracle_cases_are_not_trivial() -> None:
    results = [call(name, *args) for name, args in DIFF_CASES]
    assert sum(r == [True] for r in results) >= 10
    assert sum(r == [False] for r in results) >= 10
    assert sum(r == [] for r in results) >= 10
    assert sum(bool(r) and isinstance(r[0], list) and r[0][0] is True for r in results) >= 8


@needs_opa
@pytest.mark.parametrize(
    ("header", "jwk", "verifier", "key"),
    [
        ({"alg": "PS384"}, rsa_jwk(RSA_KEY, True), "io.jwt.verify_ps384", RSA_PEM),
        ({"alg": "ES256"}, ec_jwk(EC_KEY, True), "io.jwt.verify_es256", pub_pem(EC_KEY)),
        ({"alg": "ES384"}, ec_jwk(EC384_KEY, True), "io.jwt.verify_es384", pub_pem(EC384_KEY)),
    ],
)
def test_randomised_signatures_round_trip(
    header: dict[str, str], jwk: dict[str, str], verifier: str, key: str
) -> None:
    from oracle import opa_call

    token = sign(header, {"sub": "round-trip"}, jwk)
    assert call(verifier, token, key) == [True]
    assert opa_call(verifier, token, key) == [True]
    (opa_token,) = opa_call("io.jwt.encode_sign", header, {"sub": "round-trip"}, jwk)
    assert call(verifier, opa_token, key) == [True]
    assert opa_token.split(".")[:2] == token.split(".")[:2]


def test_decode_verify_uses_evaluation_time() -> None:
    token = hs_token('{"alg":"HS256"}', '{"exp":1700000001}')
    assert call("io.jwt.decode_verify", token, {"secret": "secret"})[0][0] is True
    ctx = set_context(EvalContext(now_ns=1_700_000_001 * 10**9))
    try:
        result = REGISTRY["io.jwt.decode_verify"](token, {"secret": "secret"})
    finally:
        reset_context(ctx)
    assert result == [False, {}, {}]


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("io.jwt.decode", (5,)),
        ("io.jwt.verify_hs256", (5, "s")),
        ("io.jwt.verify_hs256", (HS, 5)),
        ("io.jwt.verify_rs256", (RS, None)),
        ("io.jwt.decode_verify", (HS, "secret")),
        ("io.jwt.decode_verify", (HS, {"secret": 5})),
        ("io.jwt.encode_sign_raw", ({"alg": "HS256"}, "{}", json.dumps(OCT))),
        # OPA itself panics on these; undefined is the sane reading.
        ("io.jwt.decode", (hs_token('{"alg":"HS256","cty":5}', "{}"),)),
        (
            "io.jwt.decode_verify",
            (hs_token('{"alg":"HS256"}', '{"iss":5}'), {"secret": "secret", "iss": "x"}),
        ),
    ],
)
def test_errors_are_undefined(name: str, args: tuple[Any, ...]) -> None:
    assert call(name, *args) == []
