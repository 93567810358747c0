"""X.509 and private-key builtins (``crypto.x509.*``, ``crypto.parse_private_keys``).

OPA returns Go's ``x509.Certificate`` (and ``CertificateRequest``,
``tls.Certificate``, ``rsa.PrivateKey``...) as ``encoding/json`` writes them:
exported field names, byte slices as standard base64, big integers as
numbers, times in RFC 3339, nil slices as null. The DER structure is walked
here to keep every raw slice byte-exact; ``cryptography`` loads the keys and
checks signatures. Inputs are PEM, base64 of DER, or base64 of PEM, as OPA
reads them.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.wasm.host_builtins.crypto import PemBlock, go_b64decode, pem_decode
from engine.wasm.host_builtins.registry import BuiltinError, register
from engine.wasm.host_builtins.urls import parse_url

# ---------------------------------------------------------------- DER


class DerError(ValueError):
    """Malformed DER, with Go's ``asn1``/``x509`` wording where known."""


@dataclass(frozen=True)
class Tlv:
    """One DER element: its tag byte, full encoding and contents."""

    tag: int
    raw: bytes
    content: bytes

    def children(self) -> list[Tlv]:
        """The elements inside a constructed element."""
        out: list[Tlv] = []
        rest = self.content
        while rest:
            tlv, rest = read_tlv(rest)
            out.append(tlv)
        return out


def read_tlv(data: bytes) -> tuple[Tlv, bytes]:
    """The first DER element of ``data`` and what follows it."""
    if len(data) < 2:
        raise DerError("asn1: syntax error: data truncated")
    tag = data[0]
    if tag & 0x1F == 0x1F:
        raise DerError("asn1: structure error: high-tag-number form is not supported")
    length = data[1]
    pos = 2
    if length & 0x80:
        count = length & 0x7F
        if count == 0 or count > 4 or len(data) < 2 + count:
            raise DerError("asn1: structure error: length too large")
        length = int.from_bytes(data[2 : 2 + count], "big")
        pos += count
    end = pos + length
    if end > len(data):
        raise DerError("asn1: syntax error: data truncated")
    return Tlv(tag, data[:end], data[pos:end]), data[end:]


def _seq(data: bytes) -> Tlv:
    tlv, rest = read_tlv(data)
    if tlv.tag != 0x30:
        raise DerError("asn1: structure error: tags don't match")
    if rest:
        raise DerError("x509: trailing data")
    return tlv


def _oid(content: bytes) -> list[int]:
    if not content:
        raise DerError("asn1: syntax error: zero length OBJECT IDENTIFIER")
    arcs: list[int] = []
    value = 0
    for byte in content:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            arcs.append(value)
            value = 0
    first = arcs[0]
    head = [min(first // 40, 2), first - 40 * min(first // 40, 2)]
    return head + arcs[1:]


def _oid_text(oid: list[int]) -> str:
    return ".".join(str(arc) for arc in oid)


def _int(tlv: Tlv) -> int:
    if tlv.tag != 0x02 or not tlv.content:
        raise DerError("asn1: structure error: tags don't match")
    return int.from_bytes(tlv.content, "big", signed=True)


def _bool(tlv: Tlv) -> bool:
    if tlv.tag != 0x01 or len(tlv.content) != 1:
        raise DerError("asn1: syntax error: invalid boolean")
    return tlv.content != b"\x00"


def _bits(tlv: Tlv) -> tuple[bytes, int]:
    """A BIT STRING's bytes and bit length."""
    if tlv.tag != 0x03 or not tlv.content or tlv.content[0] > 7:
        raise DerError("asn1: syntax error: invalid bit string")
    unused = tlv.content[0]
    data = tlv.content[1:]
    return data, len(data) * 8 - unused


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


_STRING_TAGS = {0x0C, 0x13, 0x16, 0x14, 0x12, 0x1A, 0x1E, 0x1C}


def _string(tlv: Tlv) -> Any:
    """An attribute value as Go's asn1 unmarshals it into ``any``."""
    if tlv.tag == 0x1E:
        return tlv.content.decode("utf-16-be", "replace")
    if tlv.tag in _STRING_TAGS:
        return tlv.content.decode("utf-8", "replace")
    if tlv.tag == 0x02:
        return _int(tlv)
    if tlv.tag == 0x01:
        return _bool(tlv)
    if tlv.tag == 0x06:
        return _oid(tlv.content)
    if tlv.tag == 0x04:
        return _b64(tlv.content)
    return _b64(tlv.raw)


def _time(tlv: Tlv) -> str:
    """UTCTime or GeneralizedTime as Go's ``time.Time`` JSON (RFC 3339, UTC)."""
    text = tlv.content.decode("ascii", "replace")
    try:
        if tlv.tag == 0x17:
            moment = datetime.datetime.strptime(text, "%y%m%d%H%M%SZ")
            if moment.year >= 2050:
                moment = moment.replace(year=moment.year - 100)
        elif tlv.tag == 0x18:
            fmt = "%Y%m%d%H%M%S.%fZ" if "." in text else "%Y%m%d%H%M%SZ"
            moment = datetime.datetime.strptime(text, fmt)
        else:
            raise ValueError
    except ValueError:
        raise DerError("x509: malformed validity") from None
    out = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        out += ("." + f"{moment.microsecond:06d}").rstrip("0")
    return out + "Z"


# ---------------------------------------------------------------- names

_NAME_FIELDS = {
    "2.5.4.6": "Country",
    "2.5.4.10": "Organization",
    "2.5.4.11": "OrganizationalUnit",
    "2.5.4.7": "Locality",
    "2.5.4.8": "Province",
    "2.5.4.9": "StreetAddress",
    "2.5.4.17": "PostalCode",
}


def pkix_name(tlv: Tlv) -> dict[str, Any]:
    """Go's ``pkix.Name`` filled from an RDNSequence."""
    name: dict[str, Any] = {field: None for field in _NAME_FIELDS.values()}
    name.update({"SerialNumber": "", "CommonName": "", "Names": [], "ExtraNames": None})
    for rdn in tlv.children():
        if rdn.tag != 0x31:
            raise DerError("x509: invalid RDNSequence")
        for atv in rdn.children():
            parts = atv.children()
            if atv.tag != 0x30 or len(parts) != 2 or parts[0].tag != 0x06:
                raise DerError("x509: invalid RDNSequence: invalid attribute")
            oid = _oid(parts[0].content)
            value = _string(parts[1])
            name["Names"].append({"Type": oid, "Value": value})
            if not isinstance(value, str):
                continue
            key = _oid_text(oid)
            if key == "2.5.4.3":
                name["CommonName"] = value
            elif key == "2.5.4.5":
                name["SerialNumber"] = value
            elif key in _NAME_FIELDS:
                field = _NAME_FIELDS[key]
                name[field] = [*(name[field] or []), value]
    return name


# ---------------------------------------------------------------- algorithms

_SIGNATURE_ALGORITHMS = {
    "1.2.840.113549.1.1.2": 1,
    "1.2.840.113549.1.1.4": 2,
    "1.2.840.113549.1.1.5": 3,
    "1.3.14.3.2.29": 3,
    "1.2.840.113549.1.1.11": 4,
    "1.2.840.113549.1.1.12": 5,
    "1.2.840.113549.1.1.13": 6,
    "1.2.840.10040.4.3": 7,
    "2.16.840.1.101.3.4.3.2": 8,
    "1.2.840.10045.4.1": 9,
    "1.2.840.10045.4.3.2": 10,
    "1.2.840.10045.4.3.3": 11,
    "1.2.840.10045.4.3.4": 12,
    "1.3.101.112": 16,
}
"""Go's ``x509.SignatureAlgorithm`` by OID (RSASSA-PSS depends on its hash)."""

_PSS_HASHES = {
    "2.16.840.1.101.3.4.2.1": 13,
    "2.16.840.1.101.3.4.2.2": 14,
    "2.16.840.1.101.3.4.2.3": 15,
}

_PUBLIC_KEY_ALGORITHMS = {
    "1.2.840.113549.1.1.1": 1,
    "1.2.840.10040.4.1": 2,
    "1.2.840.10045.2.1": 3,
    "1.3.101.112": 4,
}


def signature_algorithm(tlv: Tlv) -> int:
    """Go's enum for an AlgorithmIdentifier (0: unknown)."""
    parts = tlv.children()
    oid = _oid_text(_oid(parts[0].content))
    if oid == "1.2.840.113549.1.1.10":
        try:
            params = parts[1].children()
            hash_alg = params[0].children()[0].children()[0]
            return _PSS_HASHES.get(_oid_text(_oid(hash_alg.content)), 0)
        except (IndexError, DerError):
            return 0
    return _SIGNATURE_ALGORITHMS.get(oid, 0)


def go_public_key(key: Any) -> Any:
    """A ``cryptography`` public key as Go's JSON of the matching Go key."""
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed25519, rsa
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    if isinstance(key, rsa.RSAPublicKey):
        numbers = key.public_numbers()
        return {"N": numbers.n, "E": numbers.e}
    if isinstance(key, ec.EllipticCurvePublicKey):
        point = key.public_numbers()
        return {"Curve": {}, "X": point.x, "Y": point.y}
    if isinstance(key, ed25519.Ed25519PublicKey):
        return _b64(key.public_bytes(Encoding.Raw, PublicFormat.Raw))
    if isinstance(key, dsa.DSAPublicKey):
        dsa_numbers = key.public_numbers()
        p = dsa_numbers.parameter_numbers
        return {"Parameters": {"P": p.p, "Q": p.q, "G": p.g}, "Y": dsa_numbers.y}
    return None


def _public_key(spki: Tlv) -> tuple[int, Any]:
    from cryptography.hazmat.primitives.serialization import load_der_public_key

    algorithm = spki.children()[0]
    oid = _oid_text(_oid(algorithm.children()[0].content))
    kind = _PUBLIC_KEY_ALGORITHMS.get(oid, 0)
    if kind == 0:
        return 0, None
    try:
        key = load_der_public_key(spki.raw)
    except (ValueError, TypeError):
        raise DerError("x509: failed to parse public key") from None
    from engine.wasm.host_builtins.crypto import check_go_public_key

    if kind != 2:
        try:
            check_go_public_key(key)
        except ValueError as exc:
            raise DerError(str(exc)) from None
    return kind, go_public_key(key)


# ---------------------------------------------------------------- extensions

_EXT_KEY_USAGES = {
    "2.5.29.37.0": 0,
    "1.3.6.1.5.5.7.3.1": 1,
    "1.3.6.1.5.5.7.3.2": 2,
    "1.3.6.1.5.5.7.3.3": 3,
    "1.3.6.1.5.5.7.3.4": 4,
    "1.3.6.1.5.5.7.3.5": 5,
    "1.3.6.1.5.5.7.3.6": 6,
    "1.3.6.1.5.5.7.3.7": 7,
    "1.3.6.1.5.5.7.3.8": 8,
    "1.3.6.1.5.5.7.3.9": 9,
    "1.3.6.1.4.1.311.10.3.3": 10,
    "2.16.840.1.113730.4.1": 11,
    "1.3.6.1.4.1.311.2.1.22": 12,
    "1.3.6.1.4.1.311.61.1.1": 13,
}


def _ip_text(data: bytes) -> str:
    """Go's ``net.IP.String`` of 4 or 16 bytes."""
    if len(data) == 4:
        return str(ipaddress.IPv4Address(data))
    if len(data) == 16:
        v6 = ipaddress.IPv6Address(data)
        return str(v6.ipv4_mapped) if v6.ipv4_mapped else str(v6)
    return "?" + data.hex()


def go_url(text: str) -> dict[str, Any]:
    """Go's ``url.URL`` struct as JSON, from ``url.Parse(text)``."""
    try:
        parsed = parse_url(text)
    except ValueError as exc:
        raise DerError(f"x509: cannot parse URI {text!r}: {exc}") from None
    scheme = parsed.get("scheme", "")
    after_scheme = text[len(scheme) + 1 :] if scheme else text
    opaque = ""
    if scheme and not after_scheme.startswith("/"):
        opaque = after_scheme.split("#", 1)[0].split("?", 1)[0]
    host = parsed.get("hostname", "")
    if ":" in host:
        host = f"[{host}]"
    if parsed.get("port"):
        host += ":" + parsed["port"]
    path = parsed.get("path", "")
    raw_path = parsed.get("raw_path", "")
    authority = after_scheme[2:].split("/", 1)[0] if after_scheme.startswith("//") else ""
    return {
        "Scheme": scheme,
        "Opaque": opaque,
        "User": {} if "@" in authority else None,
        "Host": host,
        "Path": path,
        "RawPath": "" if raw_path == path else raw_path,
        "OmitHost": False,
        "ForceQuery": text.split("#", 1)[0].endswith("?"),
        "RawQuery": parsed.get("raw_query", ""),
        "Fragment": parsed.get("fragment", ""),
        "RawFragment": "",
    }


def _general_names(tlv: Tlv) -> tuple[list[str], list[str], list[str], list[str]]:
    dns: list[str] = []
    emails: list[str] = []
    ips: list[str] = []
    uris: list[str] = []
    for name in tlv.children():
        text = name.content.decode("utf-8", "replace")
        if name.tag == 0x82:
            dns.append(text)
        elif name.tag == 0x81:
            emails.append(text)
        elif name.tag == 0x86:
            uris.append(text)
        elif name.tag == 0x87:
            if len(name.content) not in (4, 16):
                raise DerError(f"x509: cannot parse IP address of length {len(name.content)}")
            ips.append(_ip_text(name.content))
    return dns, emails, ips, uris


def _ip_net(data: bytes) -> dict[str, str | None]:
    half = len(data) // 2
    if len(data) not in (8, 32):
        raise DerError(f"x509: invalid constraint value of length {len(data)}")
    return {"IP": _ip_text(data[:half]), "Mask": _b64(data[half:])}


def _name_constraints(cert: dict[str, Any], value: Tlv, critical: bool) -> bool:
    """Fill the name constraint fields; whether a form Go does not handle occurs."""
    unhandled = False
    cert["PermittedDNSDomainsCritical"] = critical
    for subtrees in value.children():
        kind = "Permitted" if subtrees.tag == 0xA0 else "Excluded"
        for subtree in subtrees.children():
            base = subtree.children()[0]
            text = base.content.decode("utf-8", "replace")
            if base.tag == 0x82:
                field = f"{kind}DNSDomains"
                cert[field] = [*(cert[field] or []), text]
            elif base.tag == 0x87:
                field = f"{kind}IPRanges"
                cert[field] = [*(cert[field] or []), _ip_net(base.content)]
            elif base.tag == 0x81:
                field = f"{kind}EmailAddresses"
                cert[field] = [*(cert[field] or []), text]
            elif base.tag == 0x86:
                field = f"{kind}URIDomains"
                cert[field] = [*(cert[field] or []), text]
            else:
                unhandled = True
    return unhandled


def _policies(cert: dict[str, Any], value: Tlv) -> None:
    identifiers: list[list[int]] = []
    texts: list[str] = []
    for info in value.children():
        oid = _oid(info.children()[0].content)
        identifiers.append(oid)
        texts.append(_oid_text(oid))
    cert["PolicyIdentifiers"] = identifiers
    cert["Policies"] = texts


def _key_usage(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    data, length = _bits(ext)
    usage = 0
    for i in range(min(9, length)):
        if data[i // 8] >> (7 - i % 8) & 1:
            usage |= 1 << i
    cert["KeyUsage"] = usage
    return True


def _basic_constraints(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    parts = ext.children()
    is_ca = bool(parts) and parts[0].tag == 0x01 and _bool(parts[0])
    rest = parts[1:] if parts and parts[0].tag == 0x01 else parts
    max_path = _int(rest[0]) if rest else -1
    cert.update(
        BasicConstraintsValid=True,
        IsCA=is_ca,
        MaxPathLen=max_path,
        MaxPathLenZero=max_path == 0,
    )
    return True


def _subject_alt_names(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    dns, emails, ips, uris = _general_names(ext)
    cert["DNSNames"] = dns or None
    cert["EmailAddresses"] = emails or None
    cert["IPAddresses"] = ips or None
    cert["URIs"] = [go_url(u) for u in uris] or None
    cert["URIStrings"] = uris or None
    return bool(dns or emails or ips or uris)


def _name_constraints_ext(cert: dict[str, Any], ext: Tlv, critical: bool) -> bool:
    return not _name_constraints(cert, ext, critical)


def _crl_points(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    points: list[str] = []
    for point in ext.children():
        for part in point.children():
            if part.tag != 0xA0:
                continue
            for name in part.children():
                if name.tag == 0xA0:
                    points += [g.content.decode() for g in name.children() if g.tag == 0x86]
    cert["CRLDistributionPoints"] = points or None
    return True


def _authority_key_id(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    for part in ext.children():
        if part.tag == 0x80:
            cert["AuthorityKeyId"] = _b64(part.content)
    return True


def _ext_key_usage(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    known: list[int] = []
    unknown: list[list[int]] = []
    for item in ext.children():
        usage_oid = _oid(item.content)
        if _oid_text(usage_oid) in _EXT_KEY_USAGES:
            known.append(_EXT_KEY_USAGES[_oid_text(usage_oid)])
        else:
            unknown.append(usage_oid)
    cert["ExtKeyUsage"] = known or None
    cert["UnknownExtKeyUsage"] = unknown or None
    return True


def _subject_key_id(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    cert["SubjectKeyId"] = _b64(ext.content)
    return True


def _certificate_policies(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    _policies(cert, ext)
    return True


def _policy_mappings(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    mappings = []
    for pair in ext.children():
        issuer, subject = pair.children()
        mappings.append(
            {
                "IssuerDomainPolicy": _oid_text(_oid(issuer.content)),
                "SubjectDomainPolicy": _oid_text(_oid(subject.content)),
            }
        )
    cert["PolicyMappings"] = mappings or None
    return True


def _policy_constraints(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    for part in ext.children():
        number = int.from_bytes(part.content, "big", signed=True)
        field = "RequireExplicitPolicy" if part.tag == 0x80 else "InhibitPolicyMapping"
        cert[field] = number
        cert[f"{field}Zero"] = number == 0
    return True


def _inhibit_any_policy(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    cert["InhibitAnyPolicy"] = _int(ext)
    cert["InhibitAnyPolicyZero"] = cert["InhibitAnyPolicy"] == 0
    return True


_ACCESS_METHODS = {
    "1.3.6.1.5.5.7.48.1": "OCSPServer",
    "1.3.6.1.5.5.7.48.2": "IssuingCertificateURL",
}


def _authority_info_access(cert: dict[str, Any], ext: Tlv, _critical: bool) -> bool:
    for access in ext.children():
        method, location = access.children()
        if location.tag != 0x86:
            continue
        field = _ACCESS_METHODS.get(_oid_text(_oid(method.content)))
        if field:
            cert[field] = [*(cert[field] or []), location.content.decode("utf-8", "replace")]
    return True


_EXTENSIONS: dict[str, Callable[[dict[str, Any], Tlv, bool], bool]] = {
    "2.5.29.15": _key_usage,
    "2.5.29.19": _basic_constraints,
    "2.5.29.17": _subject_alt_names,
    "2.5.29.30": _name_constraints_ext,
    "2.5.29.31": _crl_points,
    "2.5.29.35": _authority_key_id,
    "2.5.29.37": _ext_key_usage,
    "2.5.29.14": _subject_key_id,
    "2.5.29.32": _certificate_policies,
    "2.5.29.33": _policy_mappings,
    "2.5.29.36": _policy_constraints,
    "2.5.29.54": _inhibit_any_policy,
    "1.3.6.1.5.5.7.1.1": _authority_info_access,
}
"""Go's handling of each extension it knows, by OID: each fills the certificate
fields the extension sets and says whether Go counts it as handled."""


def _apply_extension(cert: dict[str, Any], oid: str, critical: bool, value: bytes) -> bool:
    """Fill the certificate fields an extension sets; False when Go leaves it unhandled."""
    ext, _ = read_tlv(value)  # a malformed value is an error whatever the OID
    handler = _EXTENSIONS.get(oid)
    return handler is not None and handler(cert, ext, critical)


def _extensions(cert: dict[str, Any], tlv: Tlv, *, apply: bool) -> None:
    extensions = []
    unhandled: list[list[int]] = []
    seen: set[str] = set()
    for ext in tlv.children():
        parts = ext.children()
        oid = _oid(parts[0].content)
        critical = len(parts) == 3 and _bool(parts[1])
        value = parts[-1]
        if value.tag != 0x04:
            raise DerError("x509: malformed extension value field")
        key = _oid_text(oid)
        if key in seen:
            raise DerError(f"x509: certificate contains duplicate extension with OID {key!r}")
        seen.add(key)
        extensions.append({"Id": oid, "Critical": critical, "Value": _b64(value.content)})
        if apply:
            try:
                handled = _apply_extension(cert, key, critical, value.content)
            except (IndexError, ValueError) as exc:
                raise DerError(str(exc) or "x509: malformed extension") from None
            if critical and not handled:
                unhandled.append(oid)
    cert["Extensions"] = extensions
    cert["UnhandledCriticalExtensions"] = unhandled or None


def _empty_certificate() -> dict[str, Any]:
    none_fields = [
        "KeyUsage",
        "InhibitAnyPolicy",
        "InhibitPolicyMapping",
        "RequireExplicitPolicy",
        "MaxPathLen",
    ]
    null_fields = [
        "Extensions",
        "ExtraExtensions",
        "UnhandledCriticalExtensions",
        "ExtKeyUsage",
        "UnknownExtKeyUsage",
        "SubjectKeyId",
        "AuthorityKeyId",
        "OCSPServer",
        "IssuingCertificateURL",
        "DNSNames",
        "EmailAddresses",
        "IPAddresses",
        "URIs",
        "PermittedDNSDomains",
        "ExcludedDNSDomains",
        "PermittedIPRanges",
        "ExcludedIPRanges",
        "PermittedEmailAddresses",
        "ExcludedEmailAddresses",
        "PermittedURIDomains",
        "ExcludedURIDomains",
        "CRLDistributionPoints",
        "PolicyIdentifiers",
        "Policies",
        "PolicyMappings",
        "URIStrings",
    ]
    false_fields = [
        "BasicConstraintsValid",
        "IsCA",
        "MaxPathLenZero",
        "PermittedDNSDomainsCritical",
        "InhibitAnyPolicyZero",
        "InhibitPolicyMappingZero",
        "RequireExplicitPolicyZero",
    ]
    cert: dict[str, Any] = dict.fromkeys(null_fields)
    cert.update(dict.fromkeys(none_fields, 0))
    cert.update(dict.fromkeys(false_fields, False))
    return cert


def parse_certificate(der: bytes) -> tuple[dict[str, Any], bytes]:
    """One certificate as Go's JSON (with OPA's ``URIStrings``), and the bytes after it."""
    outer, rest = read_tlv(der)
    if outer.tag != 0x30:
        raise DerError("x509: malformed certificate")
    parts = outer.children()
    if len(parts) != 3:
        raise DerError("x509: malformed certificate")
    tbs, sig_alg, signature = parts
    fields = tbs.children()
    version = 0
    if fields and fields[0].tag == 0xA0:
        version = _int(fields[0].children()[0])
        fields = fields[1:]
    if version > 2 or version < 0:
        raise DerError("x509: invalid version")
    if len(fields) < 6:
        raise DerError("x509: malformed tbs certificate")
    serial, _inner_alg, issuer, validity, subject, spki = fields[:6]
    cert = _empty_certificate()
    kind, public_key = _public_key(spki)
    not_before, not_after = validity.children()
    sig_bytes, _ = _bits(signature)
    cert.update(
        Raw=_b64(outer.raw),
        RawTBSCertificate=_b64(tbs.raw),
        RawSubjectPublicKeyInfo=_b64(spki.raw),
        RawSubject=_b64(subject.raw),
        RawIssuer=_b64(issuer.raw),
        Signature=_b64(sig_bytes),
        SignatureAlgorithm=signature_algorithm(sig_alg),
        PublicKeyAlgorithm=kind,
        PublicKey=public_key,
        Version=version + 1,
        SerialNumber=_int(serial),
        Issuer=pkix_name(issuer),
        Subject=pkix_name(subject),
        NotBefore=_time(not_before),
        NotAfter=_time(not_after),
    )
    for extra in fields[6:]:
        if extra.tag == 0xA3 and version == 2:
            _extensions(cert, extra.children()[0], apply=True)
    return cert, rest


def parse_certificates_der(der: bytes) -> list[dict[str, Any]]:
    """Go's ``x509.ParseCertificates``: concatenated DER certificates."""
    certs: list[dict[str, Any]] = []
    while der:
        cert, der = parse_certificate(der)
        certs.append(cert)
    return certs


# ---------------------------------------------------------------- requests

_EXTENSION_REQUEST = "1.2.840.113549.1.9.14"


def _attribute_set(attribute: Tlv) -> dict[str, Any] | None:
    """An attribute as Go's ``pkix.AttributeTypeAndValueSET``; None when it is not one."""
    parts = attribute.children()
    if attribute.tag != 0x30 or len(parts) != 2 or parts[0].tag != 0x06 or parts[1].tag != 0x31:
        return None
    values = []
    for seq in parts[1].children():
        if seq.tag != 0x30:
            return None
        atvs = []
        for atv in seq.children():
            fields = atv.children()
            if atv.tag != 0x30 or len(fields) < 2 or fields[0].tag != 0x06:
                return None
            atvs.append({"Type": _oid(fields[0].content), "Value": _string(fields[1])})
        values.append(atvs)
    return {"Type": _oid(parts[0].content), "Value": values}


def parse_certificate_request(der: bytes) -> dict[str, Any]:
    """Go's ``x509.ParseCertificateRequest`` as JSON."""
    outer = _seq(der)
    parts = outer.children()
    if len(parts) != 3:
        raise DerError("x509: malformed certificate request")
    tbs, sig_alg, signature = parts
    fields = tbs.children()
    if len(fields) < 3:
        raise DerError("x509: malformed certificate request")
    version, subject, spki = fields[:3]
    kind, public_key = _public_key(spki)
    sig_bytes, _ = _bits(signature)
    attributes = []
    cert = _empty_certificate()
    extensions: list[dict[str, Any]] | None = None
    for extra in fields[3:]:
        if extra.tag != 0xA0:
            continue
        for attribute in extra.children():
            parsed = _attribute_set(attribute)
            if parsed is not None:
                attributes.append(parsed)
            attr_parts = attribute.children()
            if _oid_text(_oid(attr_parts[0].content)) == _EXTENSION_REQUEST:
                for ext_list in attr_parts[1].children():
                    _extensions(cert, ext_list, apply=False)
                    extensions = [*(extensions or []), *cert["Extensions"]]
    for ext in extensions or []:
        if _oid_text(ext["Id"]) == "2.5.29.17":
            _apply_extension(cert, "2.5.29.17", ext["Critical"], base64.b64decode(ext["Value"]))
    return {
        "Raw": _b64(outer.raw),
        "RawTBSCertificateRequest": _b64(tbs.raw),
        "RawSubjectPublicKeyInfo": _b64(spki.raw),
        "RawSubject": _b64(subject.raw),
        "Version": _int(version),
        "Signature": _b64(sig_bytes),
        "SignatureAlgorithm": signature_algorithm(sig_alg),
        "PublicKeyAlgorithm": kind,
        "PublicKey": public_key,
        "Subject": pkix_name(subject),
        "Attributes": attributes or None,
        "Extensions": extensions,
        "ExtraExtensions": None,
        "DNSNames": cert["DNSNames"],
        "EmailAddresses": cert["EmailAddresses"],
        "IPAddresses": cert["IPAddresses"],
        "URIs": cert["URIs"],
    }


@register("crypto.x509.parse_certificate_request")
def parse_csr(csr: Any) -> dict[str, Any]:
    """``crypto.x509.parse_certificate_request``: a PEM or base64 DER request as Go's JSON."""
    name = "crypto.x509.parse_certificate_request"
    text = _string_operand(name, csr)
    raw = text.encode("utf-8", "surrogatepass")
    if not text.startswith("-----BEGIN CERTIFICATE REQUEST-----"):
        raw = _std_b64(text)
    block, _ = pem_decode(raw)
    if block is not None and block.type != "CERTIFICATE REQUEST":
        raise BuiltinError(f"{name}: invalid PEM-encoded certificate signing request")
    if block is not None:
        raw = block.bytes
    try:
        return parse_certificate_request(raw)
    except (DerError, IndexError) as exc:
        raise BuiltinError(f"{name}: {exc or 'asn1: structure error'}") from None


# ---------------------------------------------------------------- inputs


def _std_b64(text: str) -> bytes:
    try:
        return go_b64decode(text)
    except ValueError:
        raise BuiltinError(_illegal_base64(text)) from None


def _illegal_base64(text: str) -> str:
    """Go's ``base64.CorruptInputError`` text (the offset of the first bad byte)."""
    data = text.encode("utf-8", "surrogatepass").replace(b"\r", b"").replace(b"\n", b"")
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    for i, byte in enumerate(data):
        if byte not in alphabet and byte != ord("="):
            return f"illegal base64 data at input byte {i}"
    return f"illegal base64 data at input byte {len(data) - len(data) % 4}"


def certificates_from_string(name: str, text: str) -> list[dict[str, Any]]:
    """OPA's reading of a certificates operand: PEM, base64 DER, or base64 PEM."""
    raw = text.encode("utf-8", "surrogatepass")
    if not text.startswith("-----BEGIN"):
        raw = _std_b64(text)
        if not raw.startswith(b"-----BEGIN"):
            return _parse_der(name, raw)
    der = b""
    while raw:
        block, rest = pem_decode(raw)
        if block is None:
            break
        if block.type != "CERTIFICATE":
            raise BuiltinError(f"{name}: PEM block type is '{block.type}', expected CERTIFICATE")
        der += block.bytes
        raw = rest
    return _parse_der(name, der)


def _parse_der(name: str, der: bytes) -> list[dict[str, Any]]:
    try:
        return parse_certificates_der(der)
    except (DerError, IndexError) as exc:
        raise BuiltinError(f"{name}: {exc or 'x509: malformed certificate'}") from None


def _string_operand(name: str, value: Any, pos: int = 1) -> str:
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand {pos} must be string")
    return value


@register("crypto.x509.parse_certificates")
def parse_certificates(certs: Any) -> list[dict[str, Any]]:
    """``crypto.x509.parse_certificates``: every certificate, as Go's JSON."""
    name = "crypto.x509.parse_certificates"
    return certificates_from_string(name, _string_operand(name, certs))


# ---------------------------------------------------------------- private keys


def go_private_key(key: Any) -> Any:
    """A ``cryptography`` private key as Go's JSON of the matching Go key."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    if isinstance(key, rsa.RSAPrivateKey):
        n = key.private_numbers()
        return {
            "N": n.public_numbers.n,
            "E": n.public_numbers.e,
            "D": n.d,
            "Primes": [n.p, n.q],
            "Precomputed": {"Dp": n.dmp1, "Dq": n.dmq1, "Qinv": n.iqmp, "CRTValues": []},
        }
    if isinstance(key, ec.EllipticCurvePrivateKey):
        numbers = key.private_numbers()
        point = numbers.public_numbers
        return {"Curve": {}, "X": point.x, "Y": point.y, "D": numbers.private_value}
    if isinstance(key, ed25519.Ed25519PrivateKey):
        seed = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        public = key.public_key().public_bytes(Encoding.Raw, _raw_public())
        return _b64(seed + public)
    return None


def _raw_public() -> Any:
    from cryptography.hazmat.primitives.serialization import PublicFormat

    return PublicFormat.Raw


def _load_private_key(block: PemBlock) -> Any:
    """Go's ParsePKCS1PrivateKey / ParsePKCS8PrivateKey / ParseECPrivateKey by block type."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    from cryptography.hazmat.primitives.serialization import load_der_private_key

    try:
        key = load_der_private_key(block.bytes, password=None)
    except (ValueError, TypeError) as exc:
        raise BuiltinError(f"x509: failed to parse private key: {exc}") from None
    wanted: dict[str, tuple[type, ...]] = {
        "RSA PRIVATE KEY": (rsa.RSAPrivateKey,),
        "EC PRIVATE KEY": (ec.EllipticCurvePrivateKey,),
        "PRIVATE KEY": (rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey, ed25519.Ed25519PrivateKey),
    }
    if not isinstance(key, wanted[block.type]):
        raise BuiltinError("x509: unsupported private key type")
    return key


def private_keys_from_pem(text: str) -> list[Any]:
    """OPA's ``getPrivateKeysFromPEMData``: the RSA, EC and PKCS #8 keys of the PEM blocks."""
    data = text.encode("utf-8", "surrogatepass")
    with contextlib.suppress(ValueError):
        data = go_b64decode(text)
    keys: list[Any] = []
    while data:
        before = len(data)
        block, data = pem_decode(data)
        if block is None:
            break
        if len(data) == before:
            break
        if block.type in ("RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY"):
            keys.append(_load_private_key(block))
    return keys


@register("crypto.parse_private_keys")
def parse_private_keys(keys: Any) -> Any:
    """``crypto.parse_private_keys``: the private keys of PEM (or base64 PEM) data."""
    text = _string_operand("crypto.parse_private_keys", keys)
    if text == "":
        return None
    return [go_private_key(key) for key in private_keys_from_pem(text)]


def _jwk_b64(number: int, size: int | None = None) -> str:
    length = size if size is not None else max(1, (number.bit_length() + 7) // 8)
    raw = number.to_bytes(length, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def jwk_of(key: Any) -> dict[str, Any]:
    """The JWK (``kty`` and its members) of a private key, as OPA's jwx library writes it."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

    if isinstance(key, rsa.RSAPrivateKey):
        n = key.private_numbers()
        return {
            "kty": "RSA",
            "n": _jwk_b64(n.public_numbers.n),
            "e": _jwk_b64(n.public_numbers.e),
            "d": _jwk_b64(n.d),
            "p": _jwk_b64(n.p),
            "q": _jwk_b64(n.q),
            "dp": _jwk_b64(n.dmp1),
            "dq": _jwk_b64(n.dmq1),
            "qi": _jwk_b64(n.iqmp),
        }
    if isinstance(key, ec.EllipticCurvePrivateKey):
        size = (key.curve.key_size + 7) // 8
        numbers = key.private_numbers()
        crv = {"secp256r1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521"}[key.curve.name]
        return {
            "kty": "EC",
            "crv": crv,
            "x": _jwk_b64(numbers.public_numbers.x, size),
            "y": _jwk_b64(numbers.public_numbers.y, size),
            "d": _jwk_b64(numbers.private_value, size),
        }
    if isinstance(key, ed25519.Ed25519PrivateKey):
        from cryptography.hazmat.primitives.serialization import (
            Encoding,
            NoEncryption,
            PrivateFormat,
        )

        seed = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        public = key.public_key().public_bytes(Encoding.Raw, _raw_public())
        return {
            "kty": "OKP",
            "crv": "Ed25519",
            "x": base64.urlsafe_b64encode(public).rstrip(b"=").decode("ascii"),
            "d": base64.urlsafe_b64encode(seed).rstrip(b"=").decode("ascii"),
        }
    raise BuiltinError("unsupported key type for a JWK")


@register("crypto.x509.parse_rsa_private_key")
def parse_rsa_private_key(pem: Any) -> Any:
    """``crypto.x509.parse_rsa_private_key``: the first private key as a JWK object."""
    name = "crypto.x509.parse_rsa_private_key"
    text = _string_operand(name, pem)
    if text == "":
        raise BuiltinError(f"{name}: input PEM data was empty")
    if not text.startswith("-----BEGIN"):
        text = _std_b64(text).decode("utf-8", "replace")
    keys = private_keys_from_pem(text)
    if not keys:
        return None
    return jwk_of(keys[0])


# ---------------------------------------------------------------- key pairs


def _pem_or_b64(name: str, text: str) -> bytes:
    raw = text.encode("utf-8", "surrogatepass")
    return raw if raw.startswith(b"-----BEGIN ") else _std_b64(text)


def _pem_encode(block_type: str, der: bytes) -> bytes:
    body = base64.b64encode(der)
    lines = b"\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return (
        b"-----BEGIN "
        + block_type.encode()
        + b"-----\n"
        + lines
        + (b"\n-----END " + block_type.encode() + b"-----\n")
    )


def _same_public_key(a: Any, b: Any) -> bool:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    spki = PublicFormat.SubjectPublicKeyInfo
    return bool(a.public_bytes(Encoding.DER, spki) == b.public_bytes(Encoding.DER, spki))


def x509_key_pair(cert_pem: bytes, key_pem: bytes) -> dict[str, Any]:
    """Go's ``tls.X509KeyPair`` as JSON (the leaf parsed, as Go 1.23+ does)."""
    from cryptography.hazmat.primitives.serialization import (
        load_der_private_key,
        load_der_public_key,
    )

    chain: list[bytes] = []
    rest = cert_pem
    while True:
        block, rest = pem_decode(rest)
        if block is None:
            break
        if block.type == "CERTIFICATE":
            chain.append(block.bytes)
    if not chain:
        raise BuiltinError("tls: failed to find any PEM data in certificate input")
    rest = key_pem
    key_block = None
    while True:
        block, rest = pem_decode(rest)
        if block is None:
            break
        if block.type == "PRIVATE KEY" or block.type.endswith(" PRIVATE KEY"):
            key_block = block
            break
    if key_block is None:
        raise BuiltinError("tls: failed to find any PEM data in key input")
    try:
        leaf, _ = parse_certificate(chain[0])
    except (DerError, IndexError) as exc:
        raise BuiltinError(str(exc) or "x509: malformed certificate") from None
    try:
        key = load_der_private_key(key_block.bytes, password=None)
    except (ValueError, TypeError):
        raise BuiltinError("tls: failed to parse private key") from None
    spki = base64.b64decode(leaf["RawSubjectPublicKeyInfo"])
    if not _same_public_key(load_der_public_key(spki), key.public_key()):
        raise BuiltinError("tls: private key does not match public key")
    leaf.pop("URIStrings")
    return {
        "Certificate": [_b64(der) for der in chain],
        "PrivateKey": go_private_key(key),
        "SupportedSignatureAlgorithms": None,
        "OCSPStaple": None,
        "SignedCertificateTimestamps": None,
        "Leaf": leaf,
    }


@register("crypto.x509.parse_keypair")
def parse_keypair(cert: Any, key: Any) -> dict[str, Any]:
    """``crypto.x509.parse_keypair``: a certificate chain and its private key (PEM or base64)."""
    name = "crypto.x509.parse_keypair"
    cert_pem = _pem_or_b64(name, _string_operand(name, cert, 1))
    key_pem = _pem_or_b64(name, _string_operand(name, key, 2))
    if not cert_pem.startswith(b"-----BEGIN"):
        cert_pem = _pem_encode("CERTIFICATE", cert_pem)
    if not key_pem.startswith(b"-----BEGIN"):
        key_pem = _pem_encode("PRIVATE KEY", key_pem)
    return x509_key_pair(cert_pem, key_pem)
