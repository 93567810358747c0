"""JSON Web Token builtins (``io.jwt.*``) with OPA's semantics.

OPA splits a token on ``.``, base64url-decodes each part (padding optional),
and reads header and payload with Go's JSON decoder. The ``verify_*``
builtins check one signature with a fixed hash; ``decode_verify`` follows
RFC 7519 7.2 with the JWS algorithm named in the header (verifying through
lestrrat-go/jwx, whose PSS and ECDSA checks are stricter than OPA's own
``verify_ps*``/``verify_es*``). Keys are PEM certificates, PEM public keys,
or JWK / JWK-set JSON.
"""

from __future__ import annotations

import hmac
import json
import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cryptography import x509
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)

from engine.wasm.host_builtins.crypto import (
    b64url_encode_raw,
    check_go_public_key,
    go_b64decode,
    pem_decode,
    string_operand,
    utf8,
)
from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set, parse_number

TOKEN_ALGORITHMS = frozenset(
    [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512",
        "HS256", "HS384", "HS512", "EdDSA",
    ]
)  # fmt: skip

# Algorithm names lestrrat-go/jwx accepts in a JWK's "alg" (others fail to parse).
JWK_ALGORITHMS = TOKEN_ALGORITHMS | frozenset(
    [
        "none", "Ed25519", "Ed448", "ES256K", "RSA1_5", "RSA-OAEP", "RSA-OAEP-256",
        "RSA-OAEP-384", "RSA-OAEP-512",
        "A128KW", "A192KW", "A256KW", "dir", "ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A192KW",
        "ECDH-ES+A256KW", "A128GCMKW", "A192GCMKW", "A256GCMKW", "PBES2-HS256+A128KW",
        "PBES2-HS384+A192KW", "PBES2-HS512+A256KW", "A128CBC-HS256", "A192CBC-HS384",
        "A256CBC-HS512", "A128GCM", "A192GCM", "A256GCM",
    ]
)  # fmt: skip

_HASHES: dict[str, type[hashes.HashAlgorithm]] = {
    "256": hashes.SHA256,
    "384": hashes.SHA384,
    "512": hashes.SHA512,
}

_HASHLIB = {"256": "sha256", "384": "sha384", "512": "sha512"}


# ---------------------------------------------------------------- decoding helpers


def b64url_decode(text: str) -> bytes:
    """OPA's ``base64url.decode``: padding added when missing, then Go URL decoding."""
    if not text.endswith("="):
        rem = len(text) % 4
        if rem == 1:
            raise ValueError(f"illegal base64url string: {text}")
        text += "=" * (-len(text) % 4)
    return go_b64decode(text, url=True, padded=True)


def _fix_surrogates(value: Any) -> Any:
    """Go's JSON decoder turns unpaired ``\\uD800``-style escapes into U+FFFD."""
    if isinstance(value, str):
        if any("\ud800" <= c <= "\udfff" for c in value):
            return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
        return value
    if isinstance(value, list):
        return [_fix_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_fix_surrogates(k): _fix_surrogates(v) for k, v in value.items()}
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"invalid JSON constant {name}")


def go_json_loads(data: bytes, *, exact: bool = False) -> Any:
    """Parse JSON like Go's ``encoding/json`` (invalid UTF-8 becomes U+FFFD).

    Numbers become engine numbers, or Decimals when ``exact``. Raises ValueError.
    """
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        raise ValueError("invalid character at start of JSON")
    value = json.loads(
        text,
        parse_float=Decimal if exact else parse_number,
        parse_int=Decimal if exact else int,
        parse_constant=_no_constant,
    )
    return _fix_surrogates(value)


def _json_object(data: bytes) -> dict[str, Any]:
    try:
        value = go_json_loads(data)
    except ValueError as e:
        raise ValueError(f"invalid JSON: {e}") from None
    if not isinstance(value, dict):
        raise ValueError("decoded JSON type was not an Object")
    return value


def go_json_dumps(value: Any) -> bytes:
    """Serialise like Go's ``json.Marshal`` of OPA's JSON form of a Rego value."""
    text = json.dumps(_json_ready(value), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    text = (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
    return text.encode("utf-8", "surrogatepass")


def _json_ready(value: Any) -> Any:
    if isinstance(value, Set):
        return [_json_ready(v) for v in value]
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ValueError("object keys must be strings")
            out[k] = _json_ready(v)
        return out
    if isinstance(value, Decimal):
        return float(value)
    return value


# ---------------------------------------------------------------- tokens


@dataclass
class Token:
    """The three base64url sections of a compact JWS."""

    header: str
    payload: str
    signature: str

    def decoded_header(self) -> dict[str, Any]:
        """The header object; JWE headers (with ``enc``) are refused."""
        try:
            raw = b64url_decode(self.header)
        except ValueError as e:
            raise ValueError(f"JWT header had invalid encoding: {e}") from None
        try:
            header = _json_object(raw)
        except ValueError as e:
            raise ValueError(f"bad JWT header: {e}") from None
        if "enc" in header:
            raise ValueError("JWT is a JWE object, which is not supported")
        return header

    def decoded_payload(self) -> bytes:
        """The payload bytes."""
        try:
            return b64url_decode(self.payload)
        except ValueError as e:
            raise ValueError(f"JWT payload had invalid encoding: {e}") from None

    def decoded_signature(self) -> bytes:
        """The signature bytes."""
        return b64url_decode(self.signature)

    def signing_input(self) -> bytes:
        """``header.payload`` as signed."""
        return utf8(self.header + "." + self.payload)


def split_token(name: str, value: Any) -> Token:
    """Split a compact token into its three sections (OPA's ``decodeJWT``)."""
    text = string_operand(name, value, 1)
    if "." not in text:
        raise BuiltinError(f"{name}: encoded JWT had no period separators")
    parts = text.split(".")
    if len(parts) != 3:
        raise BuiltinError(f"{name}: encoded JWT must have 3 sections, found {len(parts)}")
    return Token(*parts)


@dataclass
class HeaderParams:
    """The JOSE header parameters OPA interprets."""

    alg: str = ""
    kid: str = ""
    typ: str = ""
    cty: str = ""
    crit: frozenset[str] = frozenset()
    unknown: tuple[str, ...] = ()

    def valid(self) -> bool:
        """``alg`` present and no unrecognised critical parameter (RFC 7515)."""
        if not self.alg:
            return False
        return not any(u in self.crit for u in self.unknown)


def parse_header_params(header: dict[str, Any]) -> HeaderParams:
    """Read ``alg``/``kid``/``typ``/``cty`` (strings) and ``crit`` (non-empty list)."""
    params = HeaderParams()
    unknown: list[str] = []
    for key, value in header.items():
        if key in ("alg", "kid", "typ", "cty"):
            if not isinstance(value, str):
                raise ValueError(f"{key}: must be a string")
            setattr(params, key, value)
        elif key == "crit":
            if not isinstance(value, list):
                raise ValueError("crit: must be a list")
            names = frozenset(v for v in value if isinstance(v, str))
            if not names:
                raise ValueError("crit: must be a nonempty list")
            params.crit = names
        else:
            unknown.append(key)
    params.unknown = tuple(unknown)
    return params


def _guard(name: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except BuiltinError:
        raise
    except (ValueError, TypeError, UnsupportedAlgorithm) as e:
        raise BuiltinError(f"{name}: {e}") from None


# ---------------------------------------------------------------- io.jwt.decode


def _decode(token: Token) -> list[Any]:
    header = token.decoded_header()
    payload = token.decoded_payload()
    cty = header.get("cty")
    if cty is not None:
        if not isinstance(cty, str):
            raise ValueError("cty: must be a string")
        if cty == "JWT":
            inner = payload.decode("utf-8", "replace").strip("\"'")
            return _decode(split_token("io.jwt.decode", inner))
    body = _json_object(payload)
    try:
        signature = b64url_decode(token.signature)
    except ValueError as e:
        raise ValueError(f"JWT signature had invalid encoding: {e}") from None
    return [header, body, signature.hex()]


@register("io.jwt.decode")
def jwt_decode(jwt: Any) -> list[Any]:
    """``io.jwt.decode``: ``[header, payload, signature-hex]`` without verification."""
    token = split_token("io.jwt.decode", jwt)
    return _guard("io.jwt.decode", _decode, token)


# ---------------------------------------------------------------- keys


@dataclass(frozen=True)
class VerificationKey:
    """A key to verify with; ``alg``/``kid`` come from a JWK ("" otherwise)."""

    key: Any
    alg: str = ""
    kid: str = ""


def _jwk_int(obj: dict[str, Any], name: str) -> int:
    return int.from_bytes(_jwk_bytes(obj, name), "big")


def _jwk_bytes(obj: dict[str, Any], name: str) -> bytes:
    value = obj.get(name)
    if not isinstance(value, str):
        raise ValueError(f"jwk: required field {name} is missing")
    return _jwx_b64decode(value)


def _jwx_b64decode(text: str) -> bytes:
    """lestrrat-go/jwx's base64 decoding: the variant guessed from padding and alphabet."""
    raw = not text.endswith("=")
    url = not any(c in text for c in "+/")
    return go_b64decode(text, url=url, padded=not raw)


_JWK_CURVES: dict[str, ec.EllipticCurve] = {
    "P-256": ec.SECP256R1(),
    "P-384": ec.SECP384R1(),
    "P-521": ec.SECP521R1(),
}


def jwk_to_key(obj: Any) -> VerificationKey:
    """One JWK object as a cryptography key (private when ``d`` is present) or bytes."""
    if not isinstance(obj, dict):
        raise ValueError("jwk: key must be an object")
    kty = obj.get("kty")
    key: Any
    if kty == "RSA":
        n, e = _jwk_int(obj, "n"), _jwk_int(obj, "e")
        public = rsa.RSAPublicNumbers(e, n)
        if "d" in obj:
            d = _jwk_int(obj, "d")
            p, q = _jwk_int(obj, "p"), _jwk_int(obj, "q")
            key = rsa.RSAPrivateNumbers(
                p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q),
                rsa.rsa_crt_iqmp(p, q), public,
            ).private_key()  # fmt: skip
        else:
            key = public.public_key()
    elif kty == "EC":
        crv = obj.get("crv")
        curve = _JWK_CURVES.get(crv) if isinstance(crv, str) else None
        if curve is None:
            raise ValueError("jwk: unsupported curve")
        x, y = _jwk_int(obj, "x"), _jwk_int(obj, "y")
        pub = ec.EllipticCurvePublicNumbers(x, y, curve)
        if "d" in obj:
            key = ec.EllipticCurvePrivateNumbers(_jwk_int(obj, "d"), pub).private_key()
        else:
            key = pub.public_key()
    elif kty == "OKP":
        if obj.get("crv") != "Ed25519":
            raise ValueError("jwk: unsupported curve")
        if "d" in obj:
            key = ed25519.Ed25519PrivateKey.from_private_bytes(_jwk_bytes(obj, "d"))
        else:
            key = ed25519.Ed25519PublicKey.from_public_bytes(_jwk_bytes(obj, "x"))
    elif kty == "oct":
        key = _jwk_bytes(obj, "k")
    else:
        raise ValueError(f"jwk: invalid key type {kty!r}")
    alg, kid = obj.get("alg", ""), obj.get("kid", "")
    if not isinstance(alg, str) or not isinstance(kid, str):
        raise ValueError("jwk: alg and kid must be strings")
    if "alg" in obj and alg not in JWK_ALGORITHMS:
        raise ValueError(f"jwk: invalid key algorithm {alg!r}")
    return VerificationKey(key, alg, kid)


def parse_jwk_set(text: str) -> list[VerificationKey]:
    """A JWK or a JWK set (``{"keys": [...]}``) as keys, in order."""
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except ValueError as e:
        raise ValueError(f"failed to parse a JWK key (set): {e}") from None
    if isinstance(doc, dict) and "keys" in doc:
        if not isinstance(doc["keys"], list):
            raise ValueError("jwk: keys must be an array")
        return [jwk_to_key(k) for k in doc["keys"]]
    return [jwk_to_key(doc)]


def parse_keys(text: str) -> list[VerificationKey]:
    """Keys from a PEM certificate, a PEM public key, or JWK(S) JSON (OPA's rules)."""
    block, rest = pem_decode(utf8(text))
    if block is not None:
        if rest:
            raise ValueError("extra data after a PEM certificate block")
        if block.type == "CERTIFICATE":
            cert = x509.load_der_x509_certificate(block.bytes)
            return [VerificationKey(check_go_public_key(cert.public_key()))]
        if block.type == "PUBLIC KEY":
            key = serialization.load_der_public_key(block.bytes)
            return [VerificationKey(check_go_public_key(key))]
        raise ValueError("failed to extract a Key from the PEM certificate")
    keys = []
    for k in parse_jwk_set(text):
        if k.alg and k.alg not in TOKEN_ALGORITHMS:
            continue
        keys.append(k)
    return keys


def _public(key: Any) -> Any:
    if hasattr(key, "public_key"):
        return key.public_key()
    return key


# ---------------------------------------------------------------- signature checks


def _verify_rsa(key: Any, data: bytes, sig: bytes, bits: str, pss: str | None) -> bool:
    if not isinstance(key, rsa.RSAPublicKey):
        return False
    h = _HASHES[bits]()
    pad: padding.AsymmetricPadding
    if pss is None:
        pad = padding.PKCS1v15()
    else:
        salt = padding.PSS.AUTO if pss == "auto" else h.digest_size
        pad = padding.PSS(mgf=padding.MGF1(h), salt_length=salt)
    try:
        key.verify(sig, data, pad, h)
    except (InvalidSignature, ValueError):
        return False
    return True


def _verify_ecdsa(key: Any, data: bytes, sig: bytes, bits: str, strict: bool) -> bool:
    if not isinstance(key, ec.EllipticCurvePublicKey):
        return False
    if strict:
        size = (key.curve.key_size + 7) // 8
        if len(sig) != 2 * size:
            return False
    half = len(sig) // 2
    r, s = int.from_bytes(sig[:half], "big"), int.from_bytes(sig[half:], "big")
    if r == 0 or s == 0:
        return False
    try:
        key.verify(encode_dss_signature(r, s), data, ec.ECDSA(_HASHES[bits]()))
    except (InvalidSignature, ValueError):
        return False
    return True


def _verify_eddsa(key: Any, data: bytes, sig: bytes) -> bool:
    if not isinstance(key, ed25519.Ed25519PublicKey):
        return False
    try:
        key.verify(sig, data)
    except (InvalidSignature, ValueError):
        return False
    return True


def _verify_hmac(key: Any, data: bytes, sig: bytes, bits: str, allow_empty: bool) -> bool:
    if not isinstance(key, bytes) or (not key and not allow_empty):
        return False
    return hmac.compare_digest(sig, hmac.new(key, data, _HASHLIB[bits]).digest())


def jws_verify(key: Any, alg: str, data: bytes, sig: bytes) -> bool:
    """Verify as lestrrat-go/jwx's ``jwsbb.Verify`` (the header's algorithm)."""
    if alg not in TOKEN_ALGORITHMS:
        return False
    key = _public(key)
    family, bits = alg[:2], alg[2:]
    if family == "HS":
        return _verify_hmac(key, data, sig, bits, allow_empty=False)
    if family == "RS":
        return _verify_rsa(key, data, sig, bits, None)
    if family == "PS":
        return _verify_rsa(key, data, sig, bits, "hash")
    if family == "ES":
        return _verify_ecdsa(key, data, sig, bits, strict=True)
    return _verify_eddsa(key, data, sig)


def _verify_with_keys(name: str, jwt: Any, keyspec: Any, check: Any) -> bool:
    token = split_token(name, jwt)
    text = string_operand(name, keyspec, 2)

    def run() -> bool:
        keys = parse_keys(text)
        sig = token.decoded_signature()
        params = parse_header_params(token.decoded_header())
        data = token.signing_input()
        if params.kid:
            for k in keys:
                if k.kid == params.kid:
                    return check(k.key, data, sig)
        for k in keys:
            if k.alg and k.alg != params.alg:
                continue
            if check(k.key, data, sig):
                return True
        return False

    return _guard(name, run)


def _register_verify(name: str, check: Any) -> None:
    def fn(jwt: Any, certificate: Any) -> bool:
        return _verify_with_keys(name, jwt, certificate, check)

    fn.__doc__ = f"``{name}(jwt, certificate)``: whether the signature verifies."
    register(name)(fn)


for _bits in ("256", "384", "512"):
    _register_verify(
        f"io.jwt.verify_rs{_bits}",
        lambda k, d, s, b=_bits: _verify_rsa(k, d, s, b, None),
    )
    _register_verify(
        f"io.jwt.verify_ps{_bits}",
        lambda k, d, s, b=_bits: _verify_rsa(k, d, s, b, "auto"),
    )
    _register_verify(
        f"io.jwt.verify_es{_bits}",
        lambda k, d, s, b=_bits: _verify_ecdsa(k, d, s, b, strict=False),
    )
_register_verify("io.jwt.verify_eddsa", _verify_eddsa)


def _register_verify_hs(bits: str) -> None:
    name = f"io.jwt.verify_hs{bits}"

    def fn(jwt: Any, secret: Any) -> bool:
        string_operand(name, jwt, 1)
        key = utf8(string_operand(name, secret, 2))
        token = split_token(name, jwt)
        sig = _guard(name, token.decoded_signature)
        return _verify_hmac(key, token.signing_input(), sig, bits, allow_empty=True)

    fn.__doc__ = f"``{name}(jwt, secret)``: whether the HMAC signature verifies."
    register(name)(fn)


for _bits in ("256", "384", "512"):
    _register_verify_hs(_bits)


# ---------------------------------------------------------------- io.jwt.decode_verify


@dataclass
class Constraints:
    """The constraints object of ``io.jwt.decode_verify``."""

    keys: list[VerificationKey] | None = None
    secret: str = ""
    alg: str = ""
    iss: str = ""
    aud: str = ""
    time: float = -1.0


def _time_value(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise ValueError("token time constraint: must be a number")
    t = float(value)
    if math.isinf(t):
        raise ValueError("token time constraint: unvalid float64")
    if t < 0:
        raise ValueError("token time constraint: must not be negative")
    return t


def parse_constraints(obj: dict[Any, Any]) -> Constraints:
    """Read and validate the constraints (unknown names are errors)."""
    c = Constraints()
    for name, value in obj.items():
        if name == "cert":
            if not isinstance(value, str):
                raise ValueError("cert constraint: must be a string")
            c.keys = parse_keys(value)
        elif name in ("secret", "alg", "iss", "aud"):
            if not isinstance(value, str):
                raise ValueError(f"{name} constraint: must be a string")
            setattr(c, name, value)
        elif name == "time":
            c.time = _time_value(value)
        else:
            raise ValueError(f"unknown token validation constraint: {name}")
    if c.time == -1:
        c.time = _time_value(current_context().now_ns)
    count = (c.keys is not None) + (c.secret != "")
    if count > 1:
        raise ValueError("duplicate key constraints")
    if count < 1:
        raise ValueError("no key constraint")
    return c


def _constraint_verify(c: Constraints, params: HeaderParams, token: Token, sig: bytes) -> bool:
    data = token.signing_input()
    if c.keys is not None:
        if params.kid:
            for k in c.keys:
                if k.kid == params.kid:
                    return jws_verify(k.key, params.alg, data, sig)
        for k in c.keys:
            if k.alg and k.alg != params.alg:
                continue
            if jws_verify(k.key, params.alg, data, sig):
                return True
        return False
    return jws_verify(utf8(c.secret), params.alg, data, sig)


def _float_text(f: float) -> Decimal:
    """The exact decimal value of Go's shortest formatting of a float64."""
    return Decimal(repr(f))


def _decode_verify(jwt: Any, c: Constraints) -> list[Any]:
    unverified: list[Any] = [False, {}, {}]
    current = jwt
    while True:
        token = split_token("io.jwt.decode_verify", current)
        header = token.decoded_header()
        params = parse_header_params(header)
        if not params.valid():
            return unverified
        if c.alg and c.alg != params.alg:
            return unverified
        sig = token.decoded_signature()
        if not _constraint_verify(c, params, token, sig):
            return unverified
        raw_payload = token.decoded_payload()
        if params.cty.lower() == "jwt":
            current = raw_payload.decode("utf-8", "replace")
            continue
        break
    payload = _json_object(raw_payload)
    exact = go_json_loads(raw_payload, exact=True)
    if c.iss:
        iss = payload.get("iss")
        if iss is None:
            return unverified
        if not isinstance(iss, str):
            raise ValueError("iss value must be a string")
        if iss != c.iss:
            return unverified
    if "aud" in payload:
        aud = payload["aud"]
        if isinstance(aud, str):
            ok = aud == c.aud
        elif isinstance(aud, list):
            ok = any(isinstance(a, str) and a == c.aud for a in aud)
        else:
            ok = False
        if not ok:
            return unverified
    elif c.aud:
        return unverified
    now = _float_text(c.time / 1e9)
    if "exp" in payload:
        exp = exact["exp"]
        if not isinstance(exp, Decimal):
            raise ValueError("exp value must be a number")
        if not now < exp:
            return unverified
    if "nbf" in payload:
        nbf = exact["nbf"]
        if not isinstance(nbf, Decimal):
            raise ValueError("nbf value must be a number")
        if now < nbf:
            return unverified
    return [True, header, payload]


@register("io.jwt.decode_verify")
def jwt_decode_verify(jwt: Any, constraints: Any) -> list[Any]:
    """``io.jwt.decode_verify``: ``[valid, header, payload]`` under the constraints."""
    name = "io.jwt.decode_verify"
    if not isinstance(constraints, dict):
        raise BuiltinError(f"{name}: operand 2 must be object")
    c = _guard(name, parse_constraints, constraints)
    return _guard(name, _decode_verify, jwt, c)


# ---------------------------------------------------------------- signing


def _sign(alg: str, key: Any, data: bytes) -> bytes:
    family, bits = alg[:2], alg[2:]
    if family == "HS":
        if not isinstance(key, bytes):
            raise ValueError("invalid key type for HMAC")
        if not key:
            raise ValueError("missing key while signing payload")
        return hmac.new(key, data, _HASHLIB[bits]).digest()
    if family in ("RS", "PS"):
        if not isinstance(key, rsa.RSAPrivateKey):
            raise ValueError("an RSA private key is required")
        h = _HASHES[bits]()
        pad: padding.AsymmetricPadding = (
            padding.PKCS1v15()
            if family == "RS"
            else padding.PSS(mgf=padding.MGF1(h), salt_length=h.digest_size)
        )
        return key.sign(data, pad, h)
    if family == "ES":
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("an ECDSA private key is required")
        der = key.sign(data, ec.ECDSA(_HASHES[bits]()))
        r, s = decode_dss_signature(der)
        size = (key.curve.key_size + 7) // 8
        return r.to_bytes(size, "big") + s.to_bytes(size, "big")
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise ValueError("an Ed25519 private key is required")
    return key.sign(data)


def _header_string(header: Any, name: str) -> str | None:
    if not isinstance(header, dict):
        return None
    value = header.get(name)
    return value if isinstance(value, str) else None


def _first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        out.setdefault(k, v)
    return out


def _json_valid(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        json.loads(data, parse_constant=_no_constant)
    except ValueError:
        return False
    return True


def encode_sign(headers: bytes, payload: bytes, jwk: bytes) -> str:
    """Sign ``headers``/``payload`` (JSON bytes) with the first key of a JWK (set)."""
    keys = parse_jwk_set(jwk.decode("utf-8", "replace"))
    if not keys:
        raise ValueError("no keys found in JWK set")
    key = keys[0].key
    try:
        # fastjson, which jwx reads the header with, finds the first duplicate key.
        header = json.loads(headers, parse_constant=_no_constant, object_pairs_hook=_first_wins)
    except ValueError:
        header = None
    alg = _header_string(header, "alg")
    if alg is None:
        raise ValueError("missing or invalid 'alg' header")
    if alg not in TOKEN_ALGORITHMS:
        raise ValueError(f"unknown JWS algorithm: {alg}")
    typ = _header_string(header, "typ")
    if (typ is None or typ == "JWT") and not _json_valid(payload):
        raise ValueError("type is JWT but payload is not JSON")
    signing_input = b64url_encode_raw(headers) + "." + b64url_encode_raw(payload)
    signature = _sign(alg, key, signing_input.encode("ascii"))
    return signing_input + "." + b64url_encode_raw(signature)


@register("io.jwt.encode_sign")
def jwt_encode_sign(headers: Any, payload: Any, key: Any) -> str:
    """``io.jwt.encode_sign``: a compact JWS of the JSON-marshalled arguments."""
    name = "io.jwt.encode_sign"
    return _guard(
        name,
        lambda: encode_sign(go_json_dumps(headers), go_json_dumps(payload), go_json_dumps(key)),
    )


@register("io.jwt.encode_sign_raw")
def jwt_encode_sign_raw(headers: Any, payload: Any, key: Any) -> str:
    """``io.jwt.encode_sign_raw``: a compact JWS of the given JSON texts."""
    name = "io.jwt.encode_sign_raw"
    jwk = string_operand(name, key, 3)
    h = string_operand(name, headers, 1)
    p = string_operand(name, payload, 2)
    return _guard(name, encode_sign, utf8(h), utf8(p), utf8(jwk))
