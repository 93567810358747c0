"""Tests for the regex.* host builtins (Go regexp semantics on RE2) and globs_match."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError

F, S, R, T, G = (
    "regex.find_n",
    "regex.split",
    "regex.replace",
    "regex.template_match",
    "regex.globs_match",
)

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    # find_n: Go's FindAllString empty-match rules, n, anchors, UTF-8
    (F, ("a*", "baaa", -1)),
    (F, ("", "héllo", -1)),
    (F, ("^a", "aaa", -1)),
    (F, (r"\ba", "a a ba", -1)),
    (F, ("[0-9]+", "a1b22c333", 2)),
    (F, ("a", "aaa", 0)),
    (F, ("a", "aaa", -2)),
    (F, ("x*", "héxllo", -1)),
    (F, ("(a|ab)(c|bcd)", "abcd", -1)),
    (F, ("a|", "bab", -1)),
    (F, ("a", "aaa", 9223372036854775808)),  # n beyond int64: error
    (F, (r"\C", "a", -1)),  # RE2 accepts \C, Go does not
    (F, ("[", "a", -1)),
    (F, (r"(?i)straße", "STRASSE Straße", -1)),
    # split
    (S, ("a", "banana")),
    (S, ("", "abc")),
    (S, ("", "")),
    (S, ("a*", "")),
    (S, ("x*", "axbxc")),
    (S, ("a*", "baaa")),
    (S, ("$", "abc")),
    (S, (r",\s*", "a, b,c,, d")),
    (S, ("é", "aébéc")),
    (S, ("(", "a")),
    # replace: $n / ${name} expansion as Go's Expand
    (R, ("baaa", "a*", "X")),
    (R, ("abc", "", "-")),
    (R, ("foo", "^[a-z]", "F")),
    (R, ("abc", "(b)", "[$1]")),
    (R, ("abc", "(b)", "[$1x]")),
    (R, ("abc", "(b)", "[${1}x]")),
    (R, ("abc", "(?P<n>b)", "<$n>")),
    (R, ("abc", "(?<n>b)", "<${n}>")),
    (R, ("abc", "b", "$$")),
    (R, ("abc", "b", "$")),
    (R, ("abc", "b", "${1")),
    (R, ("abc", "(b)", "$01")),
    (R, ("abc", "(b)", "$2")),
    (R, ("abc", "(x)?b", "[$1]")),
    (R, ("abc", "(?P<a>x)?(?P<a>b)", "[$a]")),  # duplicate names: first that matched
    (R, ("abc", "(?P<é>b)", "$é")),  # non-ASCII group name: Go rejects
    (R, ("a]b", "[]](b)", "$1")),
    (R, ("a(b", r"\Q(\E(b)", "$1")),
    (R, ("abc", "x*", "-")),
    (R, ("héllo", "", ".")),
    (R, ("x", "[", "y")),
    # template_match
    (T, ("urn:foo:{.*}", "urn:foo:bar:baz", "{", "}")),
    (T, ("urn:foo.bar.com:{.*}", "urn:foo.bar.com:bar:baz", "{", "}")),
    (T, ("urn:foo:{.*}", "urn:foo.bar.com:bar:baz", "{", "}")),
    (T, ("urn:foo:<.*>", "urn:foo:bar:baz", "<", ">")),
    (T, ("a{[0-9]{2,3}}b", "a123b", "{", "}")),
    (T, ("urn:{.*", "urn:x", "{", "}")),
    (T, ("a}b", "a}b", "{", "}")),
    (T, ("a{x}b", "axb", "{{", "}")),
    (T, ("a{[}b", "a[b", "{", "}")),
    (T, ("a.b", "axb", "{", "}")),
    # globs_match: OPA's glob-intersection algorithm, including its errors
    (G, ("a.a.[0-9]+z", "a.b.[0-9]+")),
    (G, ("*.github.com", "gist.github.com")),
    (G, ("a*", "b*")),
    (G, (".*", "")),
    (G, ("a+", "")),
    (G, ("[a-c]+", "b")),
    (G, ("[a-c]+", "d")),
    (G, ("[", "a")),
    (G, ("a**", "a")),
    (G, ("a\\", "a")),
    (G, ("\\*", "*")),
    (G, ("[a-]", "a")),
    (G, ("[z-a]", "a")),
    (G, ("a+b+c+", "abc")),
    (G, ("a*b", "a*c")),
    (G, ("x[ab]*y", ".+")),
    (G, ("[]", ".")),
    (G, ("a.*b.*c", "a.+")),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), DIFF_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(DIFF_CASES)]
)
def test_against_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_known_results() -> None:
    assert REGISTRY[F]("a*", "baaa", -1) == ["", "aaa"]
    assert REGISTRY[S]("x*", "axbxc") == ["a", "b", "c"]
    assert REGISTRY[S]("", "") == []
    assert REGISTRY[R]("abc", "(b)", "[$1x]") == "a[]c"
    assert REGISTRY[R]("abc", "(b)", "[${1}x]") == "a[bx]c"
    assert REGISTRY[T]("urn:foo:{.*}", "urn:foo:bar", "{", "}") is True
    assert REGISTRY[G]("a.*", "ab+") is True
    assert REGISTRY[G]("a[0-9]+", "a[a-z]*") is False


@pytest.mark.parametrize(
    ("name", "args"),
    [
        (F, ("(", "a", -1)),
        (F, ("a", "a", 1.5)),
        (F, ("a", 1, -1)),
        (S, (1, "a")),
        (R, ("a", "(?P<é>a)", "")),
        (R, ("a", r"\C", "")),
        (T, ("a{(}b", "a", "{", "}")),
        (T, ("ab", "ab", "", "}")),
        (G, ("]", "a")),
        (G, ("a", 1)),
    ],
)
def test_errors(name: str, args: tuple[Any, ...]) -> None:
    with pytest.raises(BuiltinError):
        REGISTRY[name](*args)
