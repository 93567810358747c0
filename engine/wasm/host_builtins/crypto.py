"""Hashing, HMAC and X.509/private-key builtins (``crypto.*``).

Digests are hex strings of the UTF-8 bytes of the argument, as in OPA. The
PEM and base64 helpers follow Go's ``encoding/pem`` and ``encoding/base64``
decoders, which OPA uses to read certificates and keys; ``jwt`` shares them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from engine.wasm.host_builtins.registry import BuiltinError, register

# ---------------------------------------------------------------- operands


def string_operand(name: str, value: Any, pos: int) -> str:
    """The string operand ``pos`` (1-based) of builtin ``name``, else a type error."""
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand {pos} must be string")
    return value


def utf8(text: str) -> bytes:
    """The UTF-8 bytes of a Rego string."""
    return text.encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------- Go base64

_STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_URL_TO_STD = bytes.maketrans(b"-_", b"+/")


def go_b64decode(data: bytes | str, *, url: bool = False, padded: bool = True) -> bytes:
    """Decode like Go's ``base64.{Std,URL,RawStd,RawURL}Encoding.DecodeString``.

    Carriage returns and newlines are ignored; padding must be exact for the
    padded encodings and absent for the raw ones; trailing bits may be non-zero.
    Raises ValueError on malformed input.
    """
    if isinstance(data, str):
        try:
            data = data.encode("ascii")
        except UnicodeEncodeError:
            raise ValueError("illegal base64 data") from None
    data = data.replace(b"\r", b"").replace(b"\n", b"")
    body = data
    if padded:
        if len(data) % 4:
            raise ValueError("illegal base64 data")
        if data.endswith(b"=="):
            body = data[:-2]
            if len(body) % 4 != 2:
                raise ValueError("illegal base64 data")
        elif data.endswith(b"="):
            body = data[:-1]
    elif len(data) % 4 == 1:
        raise ValueError("illegal base64 data")
    alphabet = _URL if url else _STD
    text = body.decode("ascii")
    if any(c not in alphabet for c in text):
        raise ValueError("illegal base64 data")
    if len(body) % 4 == 1:
        raise ValueError("illegal base64 data")
    if url:
        body = body.translate(_URL_TO_STD)
    body += b"=" * (-len(body) % 4)
    return binascii.a2b_base64(body)


def b64url_encode_raw(data: bytes) -> str:
    """Go's ``base64.RawURLEncoding.EncodeToString``."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


# ---------------------------------------------------------------- Go PEM


@dataclass
class PemBlock:
    """A decoded PEM block (Go ``pem.Block``)."""

    type: str
    bytes: bytes
    headers: dict[str, str] = field(default_factory=dict)


def _get_line(data: bytes) -> tuple[bytes, bytes]:
    i = data.find(b"\n")
    if i < 0:
        line, rest = data, b""
    else:
        line, rest = data[:i], data[i + 1 :]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line.rstrip(b" \t"), rest


def pem_decode(data: bytes) -> tuple[PemBlock | None, bytes]:
    """Find the next PEM block like Go's ``pem.Decode``: (block, rest) or (None, data)."""
    rest = data
    while True:
        if rest.startswith(b"-----BEGIN "):
            rest = rest[len(b"-----BEGIN ") :]
        else:
            i = rest.find(b"\n-----BEGIN ")
            if i < 0:
                return None, data
            rest = rest[i + len(b"\n-----BEGIN ") :]
        type_line, rest = _get_line(rest)
        if not type_line.endswith(b"-----"):
            continue
        type_line = type_line[: -len(b"-----")]
        headers: dict[str, str] = {}
        truncated = False
        while True:
            if not rest:
                truncated = True
                break
            line, nxt = _get_line(rest)
            key, sep, val = line.partition(b":")
            if not sep:
                break
            headers[key.strip().decode("latin-1")] = val.strip().decode("latin-1")
            rest = nxt
        if truncated:
            return None, data
        if not headers and rest.startswith(b"-----END "):
            end_index = 0
            trailer_index = len(b"-----END ")
        else:
            end_index = rest.find(b"\n-----END ")
            trailer_index = end_index + len(b"\n-----END ")
        if end_index < 0:
            continue
        trailer = rest[trailer_index:]
        trailer_len = len(type_line) + len(b"-----")
        if len(trailer) < trailer_len:
            continue
        rest_of_end_line = trailer[trailer_len:]
        trailer = trailer[:trailer_len]
        if not trailer.startswith(type_line) or not trailer.endswith(b"-----"):
            continue
        if _get_line(rest_of_end_line)[0]:
            continue
        b64 = rest[:end_index].replace(b" ", b"").replace(b"\t", b"")
        try:
            der = go_b64decode(b64)
        except ValueError:
            continue
        _, after = _get_line(rest[end_index + len(b"\n-----END ") - 1 :])
        return PemBlock(type_line.decode("latin-1"), der, headers), after


# ---------------------------------------------------------------- Go key parsing

GO_CURVES = ("secp224r1", "secp256r1", "secp384r1", "secp521r1")


def check_go_public_key(key: Any) -> Any:
    """Refuse key types Go's x509 package does not parse (other curves, Ed448, ...)."""
    if isinstance(key, rsa.RSAPublicKey | ed25519.Ed25519PublicKey):
        return key
    if isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name in GO_CURVES:
        return key
    raise ValueError("x509: unsupported public key type")


# ---------------------------------------------------------------- digests


def _digest(name: str, algorithm: Callable[[bytes], Any]) -> None:
    def fn(x: Any) -> str:
        return algorithm(utf8(string_operand(name, x, 1))).hexdigest()

    fn.__doc__ = f"``{name}``: hex digest of the UTF-8 bytes of a string."
    register(name)(fn)


_digest("crypto.md5", hashlib.md5)
_digest("crypto.sha1", hashlib.sha1)
_digest("crypto.sha256", hashlib.sha256)


def _hmac(name: str, digestmod: str) -> None:
    def fn(message: Any, key: Any) -> str:
        msg = utf8(string_operand(name, message, 1))
        secret = utf8(string_operand(name, key, 2))
        return hmac.new(secret, msg, digestmod).hexdigest()

    fn.__doc__ = f"``{name}(message, key)``: hex HMAC of the message."
    register(name)(fn)


_hmac("crypto.hmac.md5", "md5")
_hmac("crypto.hmac.sha1", "sha1")
_hmac("crypto.hmac.sha256", "sha256")
_hmac("crypto.hmac.sha512", "sha512")


@register("crypto.hmac.equal")
def hmac_equal(mac1: Any, mac2: Any) -> bool:
    """``crypto.hmac.equal``: constant-time comparison of two strings' bytes."""
    a = utf8(string_operand("crypto.hmac.equal", mac1, 1))
    b = utf8(string_operand("crypto.hmac.equal", mac2, 2))
    return hmac.compare_digest(a, b)
