"""Tests for crypto.x509.parse_and_verify_certificates[_with_options].

Chains are generated here (root first, leaf last, as OPA reads them) and each
result is compared with the pinned ``opa eval``.
"""

from __future__ import annotations

import datetime
import ipaddress
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from oracle import host_call, needs_opa, opa_call

PLAIN = "crypto.x509.parse_and_verify_certificates"
WITH_OPTIONS = "crypto.x509.parse_and_verify_certificates_with_options"

NOW = datetime.datetime.now(datetime.UTC).replace(tzinfo=None, microsecond=0)
DAY = datetime.timedelta(days=1)
PAST = datetime.datetime(2019, 1, 1)
PAST_END = datetime.datetime(2020, 1, 1)


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _cert(
    key: Any,
    issuer_key: Any,
    subject: str,
    issuer: str,
    *,
    ca: bool,
    path_length: int | None = None,
    dns: tuple[str, ...] = (),
    ips: tuple[str, ...] = (),
    usages: tuple[x509.ObjectIdentifier, ...] | None = None,
    not_before: datetime.datetime = NOW - DAY,
    not_after: datetime.datetime = NOW + 365 * DAY,
    extra: tuple[tuple[x509.ExtensionType, bool], ...] = (),
    algorithm: hashes.HashAlgorithm | None = None,
    pss: bool = False,
) -> x509.Certificate:
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=path_length), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()),
            critical=False,
        )
    )
    names: list[x509.GeneralName] = [x509.DNSName(d) for d in dns]
    names += [x509.IPAddress(ipaddress.ip_address(i)) for i in ips]
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    if usages is not None:
        builder = builder.add_extension(x509.ExtendedKeyUsage(list(usages)), critical=False)
    for extension, critical in extra:
        builder = builder.add_extension(extension, critical=critical)
    if isinstance(issuer_key, ed25519.Ed25519PrivateKey):
        return builder.sign(issuer_key, None)
    chosen = algorithm or hashes.SHA256()
    if pss:
        pad = padding.PSS(mgf=padding.MGF1(chosen), salt_length=chosen.digest_size)
        return builder.sign(issuer_key, chosen, rsa_padding=pad)
    return builder.sign(issuer_key, chosen)


def _pem(*certs: x509.Certificate) -> str:
    return "".join(c.public_bytes(serialization.Encoding.PEM).decode() for c in certs)


ROOT_KEY = ec.generate_private_key(ec.SECP256R1())
OTHER_ROOT_KEY = ec.generate_private_key(ec.SECP256R1())
INTER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
LEAF_KEY = ec.generate_private_key(ec.SECP384R1())
ED_KEY = ed25519.Ed25519PrivateKey.generate()
SERVER = (ExtendedKeyUsageOID.SERVER_AUTH,)
CLIENT = (ExtendedKeyUsageOID.CLIENT_AUTH,)

ROOT = _cert(ROOT_KEY, ROOT_KEY, "Root", "Root", ca=True, not_before=PAST)
OTHER_ROOT = _cert(OTHER_ROOT_KEY, OTHER_ROOT_KEY, "Root", "Root", ca=True)
ROOT_PATHLEN0 = _cert(ROOT_KEY, ROOT_KEY, "Root", "Root", ca=True, path_length=0)
INTER = _cert(INTER_KEY, ROOT_KEY, "Inter", "Root", ca=True, not_before=PAST)
INTER_NOT_CA = _cert(INTER_KEY, ROOT_KEY, "Inter", "Root", ca=False)
INTER_EXPIRED = _cert(
    INTER_KEY, ROOT_KEY, "Inter", "Root", ca=True, not_before=PAST, not_after=PAST_END
)
INTER_CLIENT_ONLY = _cert(INTER_KEY, ROOT_KEY, "Inter", "Root", ca=True, usages=CLIENT)
INTER_SHA224 = _cert(INTER_KEY, ROOT_KEY, "Inter", "Root", ca=True, algorithm=hashes.SHA224())


def _leaf(**kwargs: Any) -> x509.Certificate:
    options: dict[str, Any] = {
        "dns": ("www.example.com", "*.apps.example.com"),
        "ips": ("10.0.0.1",),
        "usages": SERVER,
    }
    options.update(kwargs)
    return _cert(LEAF_KEY, INTER_KEY, "leaf", "Inter", ca=False, **options)


LEAF = _leaf()
LEAF_PSS = _leaf(pss=True)
LEAF_CLIENT = _leaf(usages=CLIENT)
LEAF_NO_EKU = _leaf(usages=None)
LEAF_EXPIRED = _leaf(not_before=PAST, not_after=PAST_END)
ED_ROOT = _cert(ED_KEY, ED_KEY, "Ed Root", "Ed Root", ca=True)
ED_LEAF = _cert(LEAF_KEY, ED_KEY, "ed leaf", "Ed Root", ca=False, dns=("ed.example.com",))

ONE_HOUR_AGO = int((NOW - datetime.timedelta(hours=1)).timestamp()) * 1_000_000_000
IN_2019 = int(datetime.datetime(2019, 6, 1, tzinfo=datetime.UTC).timestamp()) * 1_000_000_000

PLAIN_CASES = {
    "valid chain": _pem(ROOT, INTER, LEAF),
    "valid, RSASSA-PSS leaf": _pem(ROOT, INTER, LEAF_PSS),
    "valid, Ed25519 root": _pem(ED_ROOT, ED_LEAF),
    "leaf is its own root": _pem(LEAF, LEAF),
    "wrong root": _pem(OTHER_ROOT, INTER, LEAF),
    "missing intermediate": _pem(ROOT, LEAF),
    "reversed order": _pem(LEAF, INTER, ROOT),
    "one certificate": _pem(ROOT),
    "expired leaf": _pem(ROOT, INTER, LEAF_EXPIRED),
    "expired intermediate": _pem(ROOT, INTER_EXPIRED, LEAF),
    "intermediate not a CA": _pem(ROOT, INTER_NOT_CA, LEAF),
    "path length exceeded": _pem(ROOT_PATHLEN0, INTER, LEAF),
    "leaf only for client auth": _pem(ROOT, INTER, LEAF_CLIENT),
    "leaf without extended usages": _pem(ROOT, INTER, LEAF_NO_EKU),
    "intermediate limits usages": _pem(ROOT, INTER_CLIENT_ONLY, LEAF),
    "SHA-224 signature, unknown to Go": _pem(ROOT, INTER_SHA224, LEAF),
    "the right root among duplicates": _pem(ROOT, INTER, INTER, LEAF),
    "not PEM": "not a certificate",
}


@needs_opa
@pytest.mark.parametrize("certs", PLAIN_CASES.values(), ids=PLAIN_CASES.keys())
def test_plain_form_against_opa(certs: str) -> None:
    assert host_call(PLAIN, certs) == opa_call(PLAIN, certs)


def test_plain_form_outcomes() -> None:
    valid = host_call(PLAIN, PLAIN_CASES["valid chain"])[0]
    assert valid[0] is True
    assert [c["Subject"]["CommonName"] for c in valid[1]] == ["leaf", "Inter", "Root"]
    assert "URIStrings" in valid[1][0]
    for case in (
        "wrong root",
        "expired leaf",
        "leaf only for client auth",
        "SHA-224 signature, unknown to Go",
    ):
        assert host_call(PLAIN, PLAIN_CASES[case]) == [[False, []]], case


OPTION_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "DNS name matches": (_pem(ROOT, INTER, LEAF), {"DNSName": "www.example.com"}),
    "DNS name, other case": (_pem(ROOT, INTER, LEAF), {"DNSName": "WWW.Example.com."}),
    "DNS name by wildcard": (_pem(ROOT, INTER, LEAF), {"DNSName": "x.apps.example.com"}),
    "DNS wildcard, one label only": (_pem(ROOT, INTER, LEAF), {"DNSName": "a.b.apps.example.com"}),
    "DNS name mismatch": (_pem(ROOT, INTER, LEAF), {"DNSName": "other.example.com"}),
    "IP matches": (_pem(ROOT, INTER, LEAF), {"DNSName": "10.0.0.1"}),
    "IP mismatch": (_pem(ROOT, INTER, LEAF), {"DNSName": "[10.0.0.2]"}),
    "client usage requested": (
        _pem(ROOT, INTER, LEAF_CLIENT),
        {"KeyUsages": ["KeyUsageClientAuth"]},
    ),
    "server usage requested of a client leaf": (
        _pem(ROOT, INTER, LEAF_CLIENT),
        {"KeyUsages": ["KeyUsageServerAuth"]},
    ),
    "one of two usages": (
        _pem(ROOT, INTER, LEAF_CLIENT),
        {"KeyUsages": ["KeyUsageServerAuth", "KeyUsageClientAuth"]},
    ),
    "any usage": (_pem(ROOT, INTER, LEAF_CLIENT), {"KeyUsages": ["KeyUsageAny"]}),
    "current time in the past": (_pem(ROOT, INTER, LEAF_EXPIRED), {"CurrentTime": IN_2019}),
    "current time before validity": (_pem(ROOT, INTER, LEAF), {"CurrentTime": IN_2019}),
    "current time within validity": (_pem(ROOT, INTER, LEAF), {"CurrentTime": ONE_HOUR_AGO}),
    "max constraint comparisons": (_pem(ROOT, INTER, LEAF), {"MaxConstraintComparisons": 10}),
    "no options": (_pem(ROOT, INTER, LEAF), {}),
    "bad certificates beat bad options": ("junk", {"Nope": 1}),
}


@needs_opa
@pytest.mark.parametrize(("certs", "options"), OPTION_CASES.values(), ids=list(OPTION_CASES.keys()))
def test_options_form_against_opa(certs: str, options: dict[str, Any]) -> None:
    assert host_call(WITH_OPTIONS, certs, options) == opa_call(WITH_OPTIONS, certs, options)


def test_options_form_outcomes() -> None:
    def valid(case: str) -> bool:
        return bool(host_call(WITH_OPTIONS, *OPTION_CASES[case])[0][0])

    assert valid("DNS name by wildcard")
    assert not valid("DNS name mismatch")
    assert valid("client usage requested")
    assert not valid("server usage requested of a client leaf")
    assert valid("current time in the past")
    assert not valid("current time before validity")
    chain = host_call(WITH_OPTIONS, *OPTION_CASES["no options"])[0][1]
    assert "URIStrings" not in chain[0]


BAD_OPTIONS = [
    {"Nope": 1},
    {"DNSName": 1},
    {"CurrentTime": "now"},
    {"CurrentTime": 1.5},
    {"MaxConstraintComparisons": "x"},
    {"KeyUsages": "KeyUsageAny"},
    {"KeyUsages": ["KeyUsageEverything"]},
]


@needs_opa
@pytest.mark.parametrize("options", BAD_OPTIONS, ids=[str(o) for o in BAD_OPTIONS])
def test_bad_options_are_errors_like_opa(options: dict[str, Any]) -> None:
    certs = _pem(ROOT, INTER, LEAF)
    assert host_call(WITH_OPTIONS, certs, options) == []
    assert opa_call(WITH_OPTIONS, certs, options) == []


def test_name_constrained_chains_are_refused() -> None:
    constraints = x509.NameConstraints(
        permitted_subtrees=[x509.DNSName("example.com")], excluded_subtrees=None
    )
    inter = _cert(INTER_KEY, ROOT_KEY, "Inter", "Root", ca=True, extra=((constraints, True),))
    assert host_call(PLAIN, _pem(ROOT, inter, LEAF)) == [[False, []]]
