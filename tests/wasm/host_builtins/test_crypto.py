"""Tests for the crypto.* host builtins (digests, HMAC) and the Go decoding helpers."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.crypto import go_b64decode, pem_decode

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("crypto.md5", ("",)),
    ("crypto.md5", ("hello world",)),
    ("crypto.md5", ("héllo wörld ✓",)),
    ("crypto.sha1", ("",)),
    ("crypto.sha1", ("The quick brown fox jumps over the lazy dog",)),
    ("crypto.sha1", ("日本語",)),
    ("crypto.sha256", ("",)),
    ("crypto.sha256", ("abc",)),
    ("crypto.sha256", ("line1\nline2\ttab\u0000nul",)),
    ("crypto.hmac.md5", ("message", "key")),
    ("crypto.hmac.md5", ("", "")),
    ("crypto.hmac.sha1", ("message", "key")),
    ("crypto.hmac.sha1", ("ünïcode", "kéy")),
    ("crypto.hmac.sha256", ("message", "key")),
    ("crypto.hmac.sha256", ("message", "k" * 200)),  # key longer than the block size
    ("crypto.hmac.sha256", ("", "")),
    ("crypto.hmac.sha512", ("message", "key")),
    ("crypto.hmac.sha512", ("x" * 1000, "secret")),
    ("crypto.hmac.equal", ("abc", "abc")),
    ("crypto.hmac.equal", ("abc", "abd")),
    ("crypto.hmac.equal", ("abc", "abcd")),
    ("crypto.hmac.equal", ("", "")),
    ("crypto.hmac.equal", ("é", "é")),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), DIFF_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(DIFF_CASES)]
)
def test_against_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_known_digests() -> None:
    assert REGISTRY["crypto.md5"]("") == "d41d8cd98f00b204e9800998ecf8427e"
    assert REGISTRY["crypto.sha256"]("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    assert REGISTRY["crypto.hmac.sha256"]("message", "key") == (
        "6e9ef29b75fffc5b7abae527d58fdadb2fe42e7219011976917343065f58ed4a"
    )


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("crypto.md5", (1,)),
        ("crypto.sha1", (None,)),
        ("crypto.sha256", (["a"],)),
        ("crypto.hmac.sha256", ("m", 1)),
        ("crypto.hmac.sha512", (1, "k")),
        ("crypto.hmac.equal", ("a", 1)),
    ],
)
def test_operand_type_errors(name: str, args: tuple[Any, ...]) -> None:
    with pytest.raises(BuiltinError):
        REGISTRY[name](*args)


@pytest.mark.parametrize(
    ("text", "url", "padded", "expected"),
    [
        ("aGVsbG8=", False, True, b"hello"),
        ("aGVs\nbG8=", False, True, b"hello"),
        ("aGVsbG8", False, False, b"hello"),
        ("-_8=", True, True, b"\xfb\xff"),
        ("aGk=", False, True, b"hi"),
        ("aGl=", False, True, b"hi"),  # non-zero trailing bits are accepted, as in Go
    ],
)
def test_go_b64decode_ok(text: str, url: bool, padded: bool, expected: bytes) -> None:
    assert go_b64decode(text, url=url, padded=padded) == expected


@pytest.mark.parametrize(
    ("text", "url", "padded"),
    [
        ("aGVsbG8", False, True),  # missing padding
        ("aGVsbG8=", False, False),  # padding in a raw encoding
        ("-_8=", False, True),  # URL alphabet in standard encoding
        ("+/8=", True, True),
        ("a===", False, True),
        ("ab=c", False, True),
        ("a", False, False),
        ("aGVs bG8=", False, True),
    ],
)
def test_go_b64decode_errors(text: str, url: bool, padded: bool) -> None:
    with pytest.raises(ValueError):
        go_b64decode(text, url=url, padded=padded)


def test_pem_decode() -> None:
    pem = b"junk\n-----BEGIN TEST-----\naGVs\nbG8=\n-----END TEST-----\nrest"
    block, rest = pem_decode(pem)
    assert block is not None
    assert (block.type, block.bytes, rest) == ("TEST", b"hello", b"rest")
    # Trailing newline after the END line is consumed; a second one is left over.
    block, rest = pem_decode(b"-----BEGIN A-----\naGk=\n-----END A-----\n\n")
    assert block is not None and rest == b"\n"
    # Mismatched END type, bad base64, or no block at all: nothing decoded.
    for bad in (
        b"-----BEGIN A-----\naGk=\n-----END B-----\n",
        b"-----BEGIN A-----\na!k=\n-----END A-----\n",
        b"no pem here",
    ):
        assert pem_decode(bad) == (None, bad)
