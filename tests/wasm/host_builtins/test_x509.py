"""Tests for the crypto.x509.* and crypto.parse_private_keys host builtins.

Certificates, requests and keys are generated here with every extension Go's
x509 package reads; each builtin's whole result is compared with the pinned
``opa eval``.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import AuthorityInformationAccessOID, ExtendedKeyUsageOID, NameOID
from oracle import host_call, needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError

PEM = serialization.Encoding.PEM
DER = serialization.Encoding.DER


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "GB"),
            x509.NameAttribute(NameOID.STATE_OR_PROVINCE_NAME, "London"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Example Ltd"),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Infra"),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Sec"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            x509.NameAttribute(NameOID.EMAIL_ADDRESS, "ops@example.com"),
            x509.NameAttribute(NameOID.SERIAL_NUMBER, "42"),
        ]
    )


def _leaf_extensions(key: Any, issuer_key: Any) -> list[tuple[x509.ExtensionType, bool]]:
    uris = ["spiffe://example.com/ns/default/sa/web", "https://user@example.com:8443/p%20q?x=1#f"]
    return [
        (x509.BasicConstraints(ca=False, path_length=None), True),
        (x509.KeyUsage(True, False, True, False, False, False, False, False, False), True),
        (
            x509.ExtendedKeyUsage(
                [
                    ExtendedKeyUsageOID.SERVER_AUTH,
                    ExtendedKeyUsageOID.CLIENT_AUTH,
                    x509.ObjectIdentifier("1.2.3.4.5"),
                ]
            ),
            False,
        ),
        (
            x509.SubjectAlternativeName(
                [
                    x509.DNSName("a.example.com"),
                    x509.DNSName("*.b.example.com"),
                    x509.RFC822Name("x@example.com"),
                    x509.IPAddress(ipaddress.ip_address("10.1.2.3")),
                    x509.IPAddress(ipaddress.ip_address("2001:db8::1")),
                    *(x509.UniformResourceIdentifier(u) for u in uris),
                ]
            ),
            False,
        ),
        (x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False),
        (x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), False),
        (
            x509.AuthorityInformationAccess(
                [
                    x509.AccessDescription(
                        AuthorityInformationAccessOID.OCSP,
                        x509.UniformResourceIdentifier("http://ocsp.example.com"),
                    ),
                    x509.AccessDescription(
                        AuthorityInformationAccessOID.CA_ISSUERS,
                        x509.UniformResourceIdentifier("http://ca.example.com/ca.crt"),
                    ),
                ]
            ),
            False,
        ),
        (
            x509.CRLDistributionPoints(
                [
                    x509.DistributionPoint(
                        [x509.UniformResourceIdentifier("http://crl.example.com/a.crl")],
                        None,
                        None,
                        None,
                    )
                ]
            ),
            False,
        ),
        (
            x509.CertificatePolicies(
                [
                    x509.PolicyInformation(x509.ObjectIdentifier("2.23.140.1.2.1"), None),
                    x509.PolicyInformation(
                        x509.ObjectIdentifier("1.3.6.1.4.1.99999.1"), ["http://cps.example.com"]
                    ),
                ]
            ),
            False,
        ),
    ]


def _ca_extensions() -> list[tuple[x509.ExtensionType, bool]]:
    return [
        (x509.BasicConstraints(ca=True, path_length=1), True),
        (x509.KeyUsage(True, False, False, False, False, True, True, False, False), True),
        (
            x509.NameConstraints(
                permitted_subtrees=[
                    x509.DNSName("example.com"),
                    x509.IPAddress(ipaddress.ip_network("10.0.0.0/8")),
                    x509.RFC822Name("example.com"),
                    x509.UniformResourceIdentifier(".example.com"),
                ],
                excluded_subtrees=[
                    x509.DNSName("bad.example.com"),
                    x509.IPAddress(ipaddress.ip_network("2001:db8::/32")),
                ],
            ),
            True,
        ),
        (x509.PolicyConstraints(require_explicit_policy=0, inhibit_policy_mapping=2), True),
        (x509.InhibitAnyPolicy(3), False),
        (x509.UnrecognizedExtension(x509.ObjectIdentifier("1.2.3.99"), b"\x05\x00"), True),
    ]


def _certificate(
    key: Any, issuer_key: Any, extensions: list[tuple[x509.ExtensionType, bool]], cn: str
) -> x509.Certificate:
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(cn))
        .issuer_name(_name(cn))
        .public_key(key.public_key())
        .serial_number(0x1234567890ABCDEF1234)
        .not_valid_before(datetime.datetime(2024, 1, 2, 3, 4, 5))
        .not_valid_after(datetime.datetime(2054, 1, 2, 3, 4, 5))
    )
    for extension, critical in extensions:
        builder = builder.add_extension(extension, critical=critical)
    algorithm = None if isinstance(issuer_key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    return builder.sign(issuer_key, algorithm)


def _pem(cert: x509.Certificate) -> str:
    return cert.public_bytes(PEM).decode()


def _b64(data: str | bytes) -> str:
    return base64.b64encode(data.encode() if isinstance(data, str) else data).decode()


RSA = rsa.generate_private_key(public_exponent=65537, key_size=1024)
EC = ec.generate_private_key(ec.SECP384R1())
EC256 = ec.generate_private_key(ec.SECP256R1())
ED = ed25519.Ed25519PrivateKey.generate()

RSA_LEAF = _certificate(RSA, RSA, _leaf_extensions(RSA, RSA), "rsa.example.com")
EC_CA = _certificate(EC, EC, _ca_extensions(), "ca.example.com")
ED_LEAF = _certificate(ED, ED, _leaf_extensions(ED, ED), "ed.example.com")
PLAIN = _certificate(EC256, EC256, [], "plain.example.com")


def _key_pem(key: Any, fmt: serialization.PrivateFormat) -> str:
    return key.private_bytes(PEM, fmt, serialization.NoEncryption()).decode()


TRADITIONAL = serialization.PrivateFormat.TraditionalOpenSSL
PKCS8 = serialization.PrivateFormat.PKCS8
KEYS = {
    "rsa-pkcs1": _key_pem(RSA, TRADITIONAL),
    "rsa-pkcs8": _key_pem(RSA, PKCS8),
    "ec-sec1": _key_pem(EC, TRADITIONAL),
    "ec-pkcs8": _key_pem(EC256, PKCS8),
    "ed-pkcs8": _key_pem(ED, PKCS8),
}


def _csr(key: Any, with_extensions: bool) -> str:
    builder = x509.CertificateSigningRequestBuilder().subject_name(_name("csr.example.com"))
    if with_extensions:
        san = x509.SubjectAlternativeName(
            [
                x509.DNSName("csr.example.com"),
                x509.IPAddress(ipaddress.ip_address("192.168.0.1")),
                x509.UniformResourceIdentifier("spiffe://x/y"),
            ]
        )
        builder = (
            builder.add_extension(san, critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_attribute(x509.oid.AttributeOID.CHALLENGE_PASSWORD, b"secret")
        )
    return builder.sign(key, hashes.SHA384()).public_bytes(PEM).decode()


CSR_FULL = _csr(EC, True)
CSR_PLAIN = _csr(RSA, False)
CSR_DER_B64 = _b64(x509.load_pem_x509_csr(CSR_PLAIN.encode()).public_bytes(DER))

CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("crypto.x509.parse_certificates", (_pem(RSA_LEAF),)),
    ("crypto.x509.parse_certificates", (_pem(EC_CA),)),
    ("crypto.x509.parse_certificates", (_pem(ED_LEAF),)),
    ("crypto.x509.parse_certificates", (_pem(PLAIN),)),
    ("crypto.x509.parse_certificates", (_pem(RSA_LEAF) + _pem(EC_CA) + _pem(PLAIN),)),
    ("crypto.x509.parse_certificates", (_b64(_pem(RSA_LEAF) + _pem(ED_LEAF)),)),
    ("crypto.x509.parse_certificates", (_b64(EC_CA.public_bytes(DER)),)),
    (
        "crypto.x509.parse_certificates",
        (_b64(PLAIN.public_bytes(DER) + ED_LEAF.public_bytes(DER)),),
    ),
    ("crypto.x509.parse_certificates", (KEYS["rsa-pkcs1"],)),  # not a certificate block
    ("crypto.x509.parse_certificates", ("not base64!",)),
    ("crypto.x509.parse_certificates", (_b64("garbage"),)),
    ("crypto.x509.parse_certificate_request", (CSR_FULL,)),
    ("crypto.x509.parse_certificate_request", (CSR_PLAIN,)),
    ("crypto.x509.parse_certificate_request", (_b64(CSR_FULL),)),
    ("crypto.x509.parse_certificate_request", (CSR_DER_B64,)),
    ("crypto.x509.parse_certificate_request", (_b64(_pem(PLAIN)),)),
    ("crypto.x509.parse_certificate_request", ("YmFkc3RyaW5n",)),
    ("crypto.x509.parse_keypair", (_pem(RSA_LEAF), KEYS["rsa-pkcs1"])),
    ("crypto.x509.parse_keypair", (_pem(RSA_LEAF), KEYS["rsa-pkcs8"])),
    ("crypto.x509.parse_keypair", (_pem(EC_CA), KEYS["ec-sec1"])),
    ("crypto.x509.parse_keypair", (_pem(ED_LEAF) + _pem(PLAIN), KEYS["ed-pkcs8"])),
    ("crypto.x509.parse_keypair", (_b64(_pem(RSA_LEAF)), _b64(KEYS["rsa-pkcs1"]))),
    (
        "crypto.x509.parse_keypair",
        (
            _b64(EC_CA.public_bytes(DER)),
            _b64(EC.private_bytes(DER, PKCS8, serialization.NoEncryption())),
        ),
    ),
    ("crypto.x509.parse_keypair", (_pem(RSA_LEAF), KEYS["ec-sec1"])),  # mismatched
    ("crypto.x509.parse_keypair", (KEYS["rsa-pkcs1"], _pem(RSA_LEAF))),  # switched
    *(("crypto.parse_private_keys", (pem,)) for pem in KEYS.values()),
    ("crypto.parse_private_keys", ("".join(KEYS.values()),)),
    ("crypto.parse_private_keys", (_b64(KEYS["ec-sec1"]),)),
    ("crypto.parse_private_keys", (_pem(PLAIN),)),
    ("crypto.parse_private_keys", ("nope",)),
    ("crypto.parse_private_keys", ("",)),
    *(("crypto.x509.parse_rsa_private_key", (pem,)) for pem in KEYS.values()),
    ("crypto.x509.parse_rsa_private_key", (_b64(KEYS["rsa-pkcs1"]),)),
    ("crypto.x509.parse_rsa_private_key", ("invalid",)),
    ("crypto.x509.parse_rsa_private_key", (_pem(PLAIN),)),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)]
)
def test_against_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert host_call(name, *args) == opa_call(name, *args)


def test_certificate_fields() -> None:
    (cert,) = REGISTRY["crypto.x509.parse_certificates"](_pem(RSA_LEAF))
    assert cert["Subject"]["CommonName"] == "rsa.example.com"
    assert cert["Subject"]["OrganizationalUnit"] == ["Infra", "Sec"]
    assert cert["SerialNumber"] == 0x1234567890ABCDEF1234
    assert cert["NotAfter"] == "2054-01-02T03:04:05Z"
    assert cert["KeyUsage"] == 1 | 4  # digitalSignature, keyEncipherment
    assert cert["ExtKeyUsage"] == [1, 2]
    assert cert["UnknownExtKeyUsage"] == [[1, 2, 3, 4, 5]]
    assert cert["IPAddresses"] == ["10.1.2.3", "2001:db8::1"]
    assert cert["URIStrings"][0] == "spiffe://example.com/ns/default/sa/web"
    assert cert["URIs"][0]["Host"] == "example.com"
    assert cert["PublicKey"]["E"] == 65537
    assert base64.b64decode(cert["Raw"]) == RSA_LEAF.public_bytes(DER)


def test_unhandled_critical_extensions_are_listed() -> None:
    (cert,) = REGISTRY["crypto.x509.parse_certificates"](_pem(EC_CA))
    assert cert["UnhandledCriticalExtensions"] == [[1, 2, 3, 99]]
    assert cert["PermittedIPRanges"] == [{"IP": "10.0.0.0", "Mask": "/wAAAA=="}]
    assert cert["MaxPathLen"] == 1 and cert["IsCA"] is True


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("crypto.x509.parse_certificates", ("not base64!",), "illegal base64 data"),
        (
            "crypto.x509.parse_certificates",
            (KEYS["ec-sec1"],),
            "PEM block type is 'EC PRIVATE KEY'",
        ),
        ("crypto.x509.parse_certificate_request", (_b64("bad"),), "asn1"),
        ("crypto.x509.parse_keypair", (_pem(RSA_LEAF), KEYS["ec-sec1"]), "does not match"),
        ("crypto.x509.parse_rsa_private_key", ("",), "input PEM data was empty"),
        ("crypto.parse_private_keys", (1,), "operand 1 must be string"),
    ],
)
def test_errors(name: str, args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(BuiltinError, match=message):
        REGISTRY[name](*args)
