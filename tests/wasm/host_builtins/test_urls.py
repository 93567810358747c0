"""Tests for urlquery.* and uri.* (Go net/url semantics)."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.values import Set

URIS = [
    "https://user:pw@Example.com:8443/a%2Fb/c?x=1&y=%20#frag",
    "mailto:joe@x.com",
    "/just/path",
    "http://[::1]:80/",
    "http://a b",
    "%zz",
    "",
    "http://x/%zz",
    "a:b:c",
    "//host/x",
    "HTTP://x?",
    "http://x/a%20b",
    "http://[fe80::1%25en0]:8080/p",
    "http://[1.2.3.4]/",
    "http://h:80:80/",
    "mongodb://h1:1,h2:2/db",
    "http://x#a%20b",
    "./a:b",
    "a/b:c",
    "http://u:p@ss@h/",
    "http://h/ü?ä=1#ö",
    "file:///etc/passwd",
    "s3://bucket/key/a.txt",
    "http://x/a%2f%2F",
]

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    *(("uri.parse", (u,)) for u in URIS),
    *(("uri.is_valid", (u,)) for u in URIS[:16]),
    ("urlquery.encode", ("a b/c?d=é~*'",)),
    ("urlquery.encode", ("!#$&'()*+,/:;=?@[]-_.~",)),
    ("urlquery.decode", ("a+b%20c",)),
    ("urlquery.decode", ("a%zz",)),
    ("urlquery.decode", ("%",)),
    ("urlquery.decode", ("%ff%fe",)),
    ("urlquery.decode_object", ("a=1&a=2&b=&c&d=%20x+y",)),
    ("urlquery.decode_object", ("a=1;b=2",)),
    ("urlquery.decode_object", ("&&a=%E4%BD%A0&=x&k=v=w",)),
    ("urlquery.decode_object", ("a=%zz&b=1",)),
    ("urlquery.encode_object", ({"b": ["x y", "z&"], "a": "1", "c": Set(["q", "p"])},)),
    ("urlquery.encode_object", ({},)),
    ("urlquery.encode_object", ({"é": "ü", "A": "b", "e": []},)),
]


@needs_opa
@pytest.mark.parametrize(("name", "args"), DIFF_CASES)
def test_matches_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_uri_parse_fields() -> None:
    assert call("uri.parse", "https://u@Host.example:8443/a%2Fb?q=1#f") == [
        {
            "fragment": "f",
            "hostname": "Host.example",
            "path": "/a/b",
            "port": "8443",
            "raw_path": "/a%2Fb",
            "raw_query": "q=1",
            "scheme": "https",
        }
    ]
    # raw_path falls back to the decoded path when the escaping is the default one.
    assert call("uri.parse", "/a%20b") == [{"path": "/a b", "raw_path": "/a b"}]
    assert call("uri.parse", "mailto:x@y") == [{"scheme": "mailto"}]
    assert call("uri.is_valid", "") == [False]
    assert call("uri.is_valid", 5) == [False]


def test_urlquery() -> None:
    assert call("urlquery.encode", "a b&c") == ["a+b%26c"]
    assert call("urlquery.decode", "%e4%bd%a0+x") == ["你 x"]
    assert call("urlquery.decode_object", "b=2&a=1&a=3") == [{"a": ["1", "3"], "b": ["2"]}]
    assert call("urlquery.encode_object", {"a": 1}) == []
    assert call("urlquery.encode_object", {"a": [1]}) == []
    assert call("urlquery.encode_object", "a=1") == []
    assert call("urlquery.decode", 1) == []
