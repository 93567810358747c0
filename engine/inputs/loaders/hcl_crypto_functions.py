"""Terraform's hash and crypto functions whose value the configuration decides:
``md5``, ``sha1``, ``sha256``, ``sha512``, ``base64sha256``, ``base64sha512``,
``uuidv5`` and ``rsadecrypt``. Text is hashed as its UTF-8 bytes. ``bcrypt`` and
``uuid`` are random and have no value before apply (see :mod:`hcl_functions`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import uuid
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from engine.inputs.loaders.hcl_conversions import FunctionError, as_string

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

_NAMESPACES = {
    "dns": uuid.NAMESPACE_DNS,
    "url": uuid.NAMESPACE_URL,
    "oid": uuid.NAMESPACE_OID,
    "x500": uuid.NAMESPACE_X500,
}


def _hexdigest(algorithm: str) -> Callable[[Any], str]:
    return lambda text: hashlib.new(algorithm, as_string(text).encode()).hexdigest()


def _base64digest(algorithm: str) -> Callable[[Any], str]:
    return lambda text: base64.b64encode(
        hashlib.new(algorithm, as_string(text).encode()).digest()
    ).decode()


def _uuidv5(namespace: Any, name: Any) -> str:
    space = as_string(namespace)
    if space in _NAMESPACES:
        base = _NAMESPACES[space]
    else:
        try:
            base = uuid.UUID(space)
        except ValueError:
            raise FunctionError(
                f"uuidv5() namespace must be dns, url, oid, x500 or a UUID: {space!r}"
            ) from None
    return str(uuid.uuid5(base, as_string(name)))


def _rsadecrypt(ciphertext: Any, private_key: Any) -> str:
    """PKCS #1 v1.5 decryption with a PEM (PKCS #1, PKCS #8) or OpenSSH RSA key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    try:
        data = base64.b64decode(as_string(ciphertext), validate=True)
    except binascii.Error:
        raise FunctionError("rsadecrypt() ciphertext is not valid base64") from None
    pem = as_string(private_key).encode()
    key: PrivateKeyTypes
    try:
        if b"OPENSSH PRIVATE KEY" in pem:
            key = serialization.load_ssh_private_key(pem, password=None)
        else:
            key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as exc:
        raise FunctionError(f"rsadecrypt() cannot read the private key: {exc}") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise FunctionError("rsadecrypt() needs an RSA private key")
    try:
        plain = key.decrypt(data, padding.PKCS1v15())
    except ValueError:
        raise FunctionError("rsadecrypt() failed to decrypt") from None
    try:
        return plain.decode()
    except UnicodeDecodeError:
        raise FunctionError("rsadecrypt() result is not valid UTF-8") from None


CRYPTO_FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    **{name: _hexdigest(name) for name in ("md5", "sha1", "sha256", "sha512")},
    "base64sha256": _base64digest("sha256"),
    "base64sha512": _base64digest("sha512"),
    "rsadecrypt": _rsadecrypt,
    "uuidv5": _uuidv5,
}
"""The hash and crypto functions whose value the configuration decides."""
