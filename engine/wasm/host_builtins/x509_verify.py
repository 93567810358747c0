"""X.509 chain verification (``crypto.x509.parse_and_verify_certificates[_with_options]``).

OPA reads the operand as a list of certificates: the first is the trusted
root, the last the leaf, the ones between intermediates. It then runs Go's
``Certificate.Verify`` and returns ``[true, chain]`` (leaf first, root last)
or ``[false, []]``. This module follows Go's path building: candidate parents
by issuer name (key identifiers first), signature checks from the parent's
key, validity period, CA and path length constraints, the host name, and
extended key usages nested down the chain.

Where Go does more, the chain is refused rather than accepted: a chain with a
name-constrained CA, or with policy constraints or mappings, is not verified
(Go evaluates RFC 5280 name constraints and the RFC 9618 policy graph).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.host_builtins.x509 import certificates_from_string
from engine.wasm.values import Set

MAX_SIGNATURE_CHECKS = 100
"""Go's ``maxChainSignatureChecks``: signature checks one verification may make."""

KEY_USAGES: dict[str, int] = {
    "KeyUsageAny": 0,
    "KeyUsageServerAuth": 1,
    "KeyUsageClientAuth": 2,
    "KeyUsageCodeSigning": 3,
    "KeyUsageEmailProtection": 4,
    "KeyUsageIPSECEndSystem": 5,
    "KeyUsageIPSECTunnel": 6,
    "KeyUsageIPSECUser": 7,
    "KeyUsageTimeStamping": 8,
    "KeyUsageOCSPSigning": 9,
    "KeyUsageMicrosoftServerGatedCrypto": 10,
    "KeyUsageNetscapeServerGatedCrypto": 11,
    "KeyUsageMicrosoftCommercialCodeSigning": 12,
    "KeyUsageMicrosoftKernelCodeSigning": 13,
}
"""OPA's option names for Go's ``x509.ExtKeyUsage`` values."""

_EXT_KEY_USAGE_ANY = 0
_EXT_KEY_USAGE_SERVER_AUTH = 1
_KEY_USAGE_CERT_SIGN = 1 << 5

_SIGNATURES: dict[int, tuple[str, int, bool]] = {
    4: ("sha256", 1, False),
    5: ("sha384", 1, False),
    6: ("sha512", 1, False),
    10: ("sha256", 3, False),
    11: ("sha384", 3, False),
    12: ("sha512", 3, False),
    13: ("sha256", 1, True),
    14: ("sha384", 1, True),
    15: ("sha512", 1, True),
    16: ("", 4, False),
}
"""Go's ``SignatureAlgorithm`` accepted for certificates: hash, public key
algorithm, RSASSA-PSS. MD2, MD5, SHA-1 and DSA signatures are refused."""

_SAN_OID = [2, 5, 29, 17]
_POLICY_EXTENSIONS = ([2, 5, 29, 36], [2, 5, 29, 33])
_NAME_CONSTRAINT_FIELDS = (
    "PermittedDNSDomains",
    "ExcludedDNSDomains",
    "PermittedIPRanges",
    "ExcludedIPRanges",
    "PermittedEmailAddresses",
    "ExcludedEmailAddresses",
    "PermittedURIDomains",
    "ExcludedURIDomains",
)


class VerifyError(Exception):
    """The chain does not verify; OPA answers ``[false, []]``."""


@dataclass
class Options:
    """The part of Go's ``x509.VerifyOptions`` OPA sets."""

    dns_name: str = ""
    current_time_ns: int | None = None
    key_usages: list[int] = field(default_factory=list)
    max_constraint_comparisons: int = 0


@dataclass(eq=False)
class Cert:
    """A parsed certificate (Go's JSON shape) with the raw parts verification reads."""

    json: dict[str, Any]
    raw: bytes
    raw_subject: bytes
    raw_issuer: bytes
    raw_spki: bytes
    raw_tbs: bytes
    signature: bytes

    @classmethod
    def of(cls, cert: dict[str, Any]) -> Cert:
        """Wrap one certificate of :func:`certificates_from_string`."""
        decode = base64.b64decode
        return cls(
            json=cert,
            raw=decode(cert["Raw"]),
            raw_subject=decode(cert["RawSubject"]),
            raw_issuer=decode(cert["RawIssuer"]),
            raw_spki=decode(cert["RawSubjectPublicKeyInfo"]),
            raw_tbs=decode(cert["RawTBSCertificate"]),
            signature=decode(cert["Signature"] or ""),
        )

    def get(self, key: str) -> Any:
        """A field of Go's certificate."""
        return self.json[key]

    def key_id(self, key: str) -> bytes:
        """SubjectKeyId or AuthorityKeyId (empty when absent)."""
        value = self.json[key]
        return base64.b64decode(value) if value else b""

    def extension(self, oid: list[int]) -> bytes | None:
        """The value of the extension ``oid``, None when absent."""
        for ext in self.json["Extensions"] or []:
            if ext["Id"] == oid:
                return base64.b64decode(ext["Value"])
        return None


class Pool:
    """Go's ``CertPool``: certificates deduplicated, looked up by subject."""

    def __init__(self, certs: list[Cert]) -> None:
        self.certs: list[Cert] = []
        seen: set[bytes] = set()
        for cert in certs:
            digest = hashlib.sha224(cert.raw).digest()
            if digest not in seen:
                seen.add(digest)
                self.certs.append(cert)

    def contains(self, cert: Cert) -> bool:
        """Whether the pool holds exactly this certificate."""
        return any(c.raw == cert.raw for c in self.certs)

    def potential_parents(self, cert: Cert) -> list[Cert]:
        """Certificates whose subject is ``cert``'s issuer: matching key ids first,
        then those where one side has no key id, then mismatched ones."""
        matching: list[Cert] = []
        one: list[Cert] = []
        mismatch: list[Cert] = []
        akid = cert.key_id("AuthorityKeyId")
        for candidate in self.certs:
            if candidate.raw_subject != cert.raw_issuer:
                continue
            skid = candidate.key_id("SubjectKeyId")
            if skid == akid:
                matching.append(candidate)
            elif not skid or not akid:
                one.append(candidate)
            else:
                mismatch.append(candidate)
        return matching + one + mismatch


# ---------------------------------------------------------------- checks


def _time_ns(text: str) -> int:
    """An RFC 3339 UTC time of the certificate JSON as Unix nanoseconds."""
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    whole = int(moment.replace(microsecond=0).timestamp())
    return whole * 1_000_000_000 + moment.microsecond * 1000


def _load_key(cert: Cert) -> Any:
    from cryptography.hazmat.primitives.serialization import load_der_public_key

    try:
        return load_der_public_key(cert.raw_spki)
    except (ValueError, TypeError):
        return None


def check_signature_from(child: Cert, parent: Cert) -> None:
    """Go's ``CheckSignatureFrom``: ``parent`` may sign and its key signed ``child``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

    bc_valid = parent.get("BasicConstraintsValid")
    if (parent.get("Version") == 3 and not bc_valid) or (bc_valid and not parent.get("IsCA")):
        raise VerifyError("x509: invalid signature: parent certificate cannot sign this kind")
    usage = parent.get("KeyUsage")
    if usage and not usage & _KEY_USAGE_CERT_SIGN:
        raise VerifyError("x509: invalid signature: parent certificate cannot sign this kind")
    algorithm = _SIGNATURES.get(child.get("SignatureAlgorithm"))
    if algorithm is None:
        raise VerifyError("x509: cannot verify signature: insecure or unsupported algorithm")
    hash_name, key_kind, pss = algorithm
    if parent.get("PublicKeyAlgorithm") != key_kind:
        raise VerifyError("x509: signature algorithm does not match the public key")
    key = _load_key(parent)
    hash_alg: dict[str, Callable[[], hashes.HashAlgorithm]] = {
        "sha256": hashes.SHA256,
        "sha384": hashes.SHA384,
        "sha512": hashes.SHA512,
    }
    try:
        if isinstance(key, rsa.RSAPublicKey):
            chosen = hash_alg[hash_name]()
            pad: padding.AsymmetricPadding = (
                padding.PSS(mgf=padding.MGF1(chosen), salt_length=chosen.digest_size)
                if pss
                else padding.PKCS1v15()
            )
            key.verify(child.signature, child.raw_tbs, pad, chosen)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(child.signature, child.raw_tbs, ec.ECDSA(hash_alg[hash_name]()))
        elif isinstance(key, ed25519.Ed25519PublicKey):
            key.verify(child.signature, child.raw_tbs)
        else:
            raise VerifyError("x509: cannot verify signature: algorithm unimplemented")
    except InvalidSignature:
        raise VerifyError("x509: signature verification failure") from None


LEAF, INTERMEDIATE, ROOT = 0, 1, 2


def is_valid(cert: Cert, kind: int, chain: list[Cert], now_ns: int) -> None:
    """Go's ``Certificate.isValid`` for ``cert`` as the next link of ``chain``."""
    if cert.get("UnhandledCriticalExtensions"):
        raise VerifyError("x509: unhandled critical extension")
    if chain and chain[-1].raw_issuer != cert.raw_subject:
        raise VerifyError("x509: issuer name does not match subject from issuing certificate")
    if now_ns < _time_ns(cert.get("NotBefore")) or now_ns > _time_ns(cert.get("NotAfter")):
        raise VerifyError("x509: certificate has expired or is not yet valid")
    if kind == INTERMEDIATE and not (cert.get("BasicConstraintsValid") and cert.get("IsCA")):
        raise VerifyError("x509: certificate is not authorized to sign other certificates")
    max_path = cert.get("MaxPathLen")
    if cert.get("BasicConstraintsValid") and max_path >= 0 and len(chain) - 1 > max_path:
        raise VerifyError("x509: too many intermediates for path length constraint")


def _already_in_chain(candidate: Cert, chain: list[Cert]) -> bool:
    """Go's ``alreadyInChain``: same subject, key and subject alternative names."""
    candidate_san = candidate.extension(_SAN_OID)
    for cert in chain:
        if cert.raw_subject != candidate.raw_subject or cert.raw_spki != candidate.raw_spki:
            continue
        cert_san = cert.extension(_SAN_OID)
        if candidate_san is None and cert_san is None:
            return True
        if candidate_san is None or cert_san is None:
            return False
        if candidate_san == cert_san:
            return True
    return False


@dataclass
class _Builder:
    roots: Pool
    intermediates: Pool
    now_ns: int
    checks: int = 0

    def chains(self, chain: list[Cert]) -> list[list[Cert]]:
        """Go's ``buildChains``: every chain from ``chain`` up to a root."""
        cert = chain[-1]
        found: list[list[Cert]] = []
        hint: str | None = None
        for kind, pool in ((ROOT, self.roots), (INTERMEDIATE, self.intermediates)):
            for candidate in pool.potential_parents(cert):
                current_context().check_time()
                self.checks += 1
                if self.checks > MAX_SIGNATURE_CHECKS:
                    raise VerifyError("x509: signature check attempts limit reached")
                if candidate.get("PublicKey") is None or _already_in_chain(candidate, chain):
                    continue
                try:
                    check_signature_from(cert, candidate)
                    is_valid(candidate, kind, chain, self.now_ns)
                except VerifyError as exc:
                    hint = hint or str(exc)
                    continue
                if kind == ROOT:
                    found.append([*chain, candidate])
                else:
                    found += self.chains([*chain, candidate])
        if not found:
            raise VerifyError(hint or "x509: certificate signed by unknown authority")
        return found


# ---------------------------------------------------------------- host names


def _lower_ascii(text: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def _valid_hostname(host: str, *, pattern: bool) -> bool:
    """Go's ``validHostname`` (RFC 6125 with Go's leniency for ``_``)."""
    if not pattern:
        host = host.removesuffix(".")
    if not host or host == "*":
        return False
    for i, part in enumerate(host.split(".")):
        if not part:
            return False
        if pattern and i == 0 and part == "*":
            continue
        for j, c in enumerate(part):
            if c.isascii() and (c.isalnum() or c == "_" or (c == "-" and j != 0)):
                continue
            return False
    return True


def _match_hostnames(pattern: str, host_parts: list[str]) -> bool:
    pattern = _lower_ascii(pattern)
    if not pattern or not host_parts:
        return False
    parts = pattern.split(".")
    if len(parts) != len(host_parts):
        return False
    return all(
        (i == 0 and p == "*") or p == h
        for i, (p, h) in enumerate(zip(parts, host_parts, strict=True))
    )


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if "%" in text:
        return None
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def verify_hostname(cert: Cert, host: str) -> None:
    """Go's ``Certificate.VerifyHostname``: IP SANs for addresses, DNS SANs otherwise
    (wildcards only as a whole left-most label; the Common Name is ignored)."""
    candidate_ip = host[1:-1] if len(host) >= 3 and host[0] == "[" and host[-1] == "]" else host
    ip = _parse_ip(candidate_ip)
    if ip is not None:
        if any(_parse_ip(san) == ip for san in cert.get("IPAddresses") or []):
            return
        raise VerifyError(f"x509: certificate is not valid for {candidate_ip}")
    name = _lower_ascii(host)
    valid_name = _valid_hostname(name, pattern=False)
    host_parts = name.removesuffix(".").split(".")
    for match in cert.get("DNSNames") or []:
        if valid_name and _valid_hostname(match, pattern=True):
            if _match_hostnames(match, host_parts):
                return
        elif match not in ("", ".") and name not in ("", ".") and _lower_ascii(match) == name:
            return
    raise VerifyError(f"x509: certificate is not valid for {host}")


# ---------------------------------------------------------------- usages


def chain_allows_usages(chain: list[Cert], usages: list[int]) -> bool:
    """Go's ``checkChainForKeyUsage``: some requested usage survives every certificate
    from the root down that lists extended key usages."""
    remaining = list(usages)
    for cert in reversed(chain):
        known = cert.get("ExtKeyUsage") or []
        if not known and not cert.get("UnknownExtKeyUsage"):
            continue
        if _EXT_KEY_USAGE_ANY in known:
            continue
        remaining = [usage for usage in remaining if usage in known]
        if not remaining:
            return False
    return True


def _unsupported_constraints(chain: list[Cert]) -> bool:
    """Whether the chain carries name constraints or policy constraints/mappings,
    which this host does not evaluate (the chain is then refused)."""
    for cert in chain:
        if any(cert.get(name) for name in _NAME_CONSTRAINT_FIELDS):
            return True
        if any(cert.extension(oid) is not None for oid in _POLICY_EXTENSIONS):
            return True
    return False


def verify_chain(certs: list[Cert], options: Options) -> list[Cert]:
    """OPA's ``verifyX509CertificateChain``: the first chain Go's ``Verify`` finds
    from the last certificate to the first."""
    if len(certs) < 2:
        raise VerifyError("must supply at least two certificates to be able to verify")
    roots = Pool(certs[:1])
    intermediates = Pool(certs[1:-1])
    leaf = certs[-1]
    now_ns = options.current_time_ns
    if now_ns is None:
        now_ns = current_context().now_ns
    is_valid(leaf, LEAF, [], now_ns)
    if options.dns_name:
        verify_hostname(leaf, options.dns_name)
    if roots.contains(leaf):
        candidates = [[leaf]]
    else:
        candidates = _Builder(roots, intermediates, now_ns).chains([leaf])
    usages = options.key_usages or [_EXT_KEY_USAGE_SERVER_AUTH]
    any_usage = _EXT_KEY_USAGE_ANY in options.key_usages
    chains = [
        chain
        for chain in candidates
        if (any_usage or chain_allows_usages(chain, usages)) and not _unsupported_constraints(chain)
    ]
    if not chains:
        raise VerifyError("x509: no valid chains")
    return chains[0]


# ---------------------------------------------------------------- options


def _int64(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    number = int(value)
    return number if -(2**63) <= number < 2**63 else None


def verify_options(options: dict[Any, Any]) -> Options:
    """OPA's ``extractVerifyOpts``: the options object, refused on an unknown key
    or a mistyped value."""
    out = Options()
    for key in sorted(k for k in options if isinstance(k, str)):
        value = options[key]
        if key == "DNSName":
            if not isinstance(value, str):
                raise BuiltinError("'DNSName' should be a string")
            out.dns_name = value.strip('"')
        elif key == "CurrentTime":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise BuiltinError("'CurrentTime' should be a number")
            nanos = _int64(value)
            if nanos is None:
                raise BuiltinError("'CurrentTime' should be a valid int64 number")
            out.current_time_ns = nanos
        elif key == "MaxConstraintComparisons":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise BuiltinError("'MaxConstraintComparisons' should be a number")
            number = _int64(value)
            if number is None:
                raise BuiltinError("'MaxConstraintComparisons' should be a valid number")
            out.max_constraint_comparisons = number
        elif key == "KeyUsages":
            if not isinstance(value, list | Set):
                raise BuiltinError("'KeyUsages' should be an Array or Set")
            items = list(value)
            invalid = []
            for item in items:
                if not isinstance(item, str):
                    continue
                name = item.strip('"')
                if name in KEY_USAGES:
                    out.key_usages.append(KEY_USAGES[name])
                else:
                    invalid.append(name)
            if invalid:
                raise BuiltinError(f"invalid entries for 'KeyUsages' found: [{' '.join(invalid)}]")
        else:
            raise BuiltinError("invalid key option")
    return out


# ---------------------------------------------------------------- builtins


def _verified(name: str, text: Any, options: Callable[[], Options]) -> list[Any]:
    if not isinstance(text, str):
        raise BuiltinError(f"{name}: operand 1 must be string")
    try:
        certs = [Cert.of(c) for c in certificates_from_string(name, text)]
    except BuiltinError:
        return [False, []]
    opts = options()
    try:
        return [True, [cert.json for cert in verify_chain(certs, opts)]]
    except VerifyError:
        return [False, []]


@register("crypto.x509.parse_and_verify_certificates")
def parse_and_verify_certificates(certs: Any) -> list[Any]:
    """``crypto.x509.parse_and_verify_certificates``: ``[valid, chain]`` for root
    first, leaf last; the chain leaf first, with ``URIStrings``."""
    return _verified("crypto.x509.parse_and_verify_certificates", certs, Options)


@register("crypto.x509.parse_and_verify_certificates_with_options")
def parse_and_verify_certificates_with_options(certs: Any, options: Any) -> list[Any]:
    """``crypto.x509.parse_and_verify_certificates_with_options``: as the plain form,
    with Go's verify options; the chain without ``URIStrings``."""
    name = "crypto.x509.parse_and_verify_certificates_with_options"
    if isinstance(certs, str) and not isinstance(options, dict):
        raise BuiltinError(f"{name}: operand 2 must be object")
    valid, chain = _verified(name, certs, lambda: verify_options(options))
    return [valid, [{k: v for k, v in c.items() if k != "URIStrings"} for c in chain]]
