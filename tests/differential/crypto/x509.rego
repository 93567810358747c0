package diff.crypto.x509

import rego.v1

# A self-signed EC P-256 CA certificate with SANs, and its PKCS #8 key (test data only).
cert := `-----BEGIN CERTIFICATE-----
MIIBmjCCAUCgAwIBAgICEJIwCgYIKoZIzj0EAwIwLDEQMA4GA1UECgwHRXhhbXBs
ZTEYMBYGA1UEAwwPc3ZjLmV4YW1wbGUuY29tMB4XDTI0MDEwMTAwMDAwMFoXDTM0
MDEwMTAwMDAwMFowLDEQMA4GA1UECgwHRXhhbXBsZTEYMBYGA1UEAwwPc3ZjLmV4
YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEZXrmAzZB8VxKcMOT
rFEsJ5j76l+jhDLbTUjYMimecJRer8ej0knxZp7eM6a+fa6ANurfbUrGmlgk1dE7
OFnYFKNSMFAwEgYDVR0TAQH/BAgwBgEB/wIBADA6BgNVHREEMzAxgg9zdmMuZXhh
bXBsZS5jb22HBAoAAAGGGHNwaWZmZTovL2V4YW1wbGUuY29tL3N2YzAKBggqhkjO
PQQDAgNIADBFAiEA4w2pv6wmj5CGXeeqprVyE9+LJiO/Cf8Ku+pERWhr01gCIAWM
STKgGLo7TXyDv5MX40oq/IFU+tuwlkd8RRAXKcCa
-----END CERTIFICATE-----`

key := `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgT9V43ZZrFQxLFUBt
2722vKLUSfVXFHFmGOuY3xZGme+hRANCAARleuYDNkHxXEpww5OsUSwnmPvqX6OE
MttNSNgyKZ5wlF6vx6PSSfFmnt4zpr59roA26t9tSsaaWCTV0Ts4WdgU
-----END PRIVATE KEY-----`

certs := crypto.x509.parse_certificates(cert)

subject := certs[0].Subject

sans := {"dns": certs[0].DNSNames, "ip": certs[0].IPAddresses, "uri": certs[0].URIStrings}

validity := [certs[0].NotBefore, certs[0].NotAfter, certs[0].SerialNumber]

ca := [certs[0].IsCA, certs[0].MaxPathLen, certs[0].MaxPathLenZero, certs[0].KeyUsage]

keypair_leaf_cn := crypto.x509.parse_keypair(cert, key).Leaf.Subject.CommonName

private_keys := crypto.parse_private_keys(key)

jwk := crypto.x509.parse_rsa_private_key(key)

# Undefined: not a certificate.
broken := crypto.x509.parse_certificates("bm90IGEgY2VydA==")
