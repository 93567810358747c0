"""Tests for ``sprintf`` (Go fmt semantics) and the string builtins in ``fmt.py``."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from oracle import host_call as call
from oracle import needs_opa, opa_call, opa_eval_expr

from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.fmt import format_float, go_quote, rego_text
from engine.wasm.values import Set


def opa_call_untyped(name: str, *args: Any) -> list[Any]:
    """Like `opa_call`, but hides the argument types from OPA's type checker.

    Each argument goes through ``json.unmarshal`` so that wrong operand types
    reach the builtin at run time (a builtin error) instead of failing to compile.
    """
    wrapped = [f"json.unmarshal({orjson.dumps(orjson.dumps(a).decode()).decode()})" for a in args]
    return opa_eval_expr(f"{name}({', '.join(wrapped)})")


BIG = 99999999999999999999  # beyond int64: a *big.Int in OPA

SPRINTF_CASES: list[tuple[str, list[Any]]] = [
    # everyday use
    ("%d", [42]),
    ("resource %s in %s has %d issues", ["bucket", "eu-west-1", 3]),
    ("%s: %v", ["tags", {"env": "prod", "team": ["a", "b"]}]),
    ("%v|%v|%v|%v", [True, None, Set([3, 1, 2]), Set()]),
    ("%v", [[1, "x", [2.5], {"k": Set(["b", "a"])}]]),
    ("%s", [{"b": 1, "a": "é\t\u00a0\x01"}]),
    ("%v", [{1: "one", "1": "str"}]),
    # numbers
    ("%v %v %v %v %v", [1e6, 123456789.0, 1e20, 0.0001, 0.00001]),
    ("%v %v %v %v", [1.0, -0.0, 0.1, 5e-324]),
    ("%T %T %T %T %T", [1, -1, 9223372036854775807, 9223372036854775808, 1.5]),
    ("%d %s %v %x %X %o %b", [BIG, BIG, BIG, BIG, BIG, BIG, BIG]),
    ("%+08d|%-25d|%.30d|%#o|%O|%#X|% 30d|%030d", [-BIG, -BIG, BIG, BIG, BIG, BIG, BIG, -BIG]),
    ("%f %e %s", [BIG, -BIG, BIG]),
    ("%.2f %.0f %5.1f %-8.3f| %+.1f %08.2f % .3f", [3.14159, 2.5, 9.99, 1.5, 2.0, -3.14159, 1.0]),
    (
        "%e %E %.2e %.0e %g %G %.3g %g %g",
        [123456.789, 1e-7, 0.000123, 5.5, 1e21, 1e-5, 1234.5, 1e5, 1e-4],
    ),
    ("%#g %#.3g %#v %#e %#f %#.0f %#x %#g", [1.0, 2.0, 2.5, 1.0, 1.0, 3.0, 0.0, 0.0]),
    ("%x %X %.2x %#.3X %b %x", [1.0, -3.75, 0.1, 0.1, 1.0, 1e300]),
    ("%F %.3F %10.4v|%-10.4g|", [1.5, 2.0, 3.14159, 3.14159]),
    (
        "%d %5d %-5d| %05d %+d %x %X %o %#o %O %b %#b %#x",
        [1, -42, -42, -42, 0, -255, 255, 8, 8, 8, 5, 5, -255],
    ),
    ("%.3d %.0d|%5.0d| %08.3d %+05d % 05d %x %#08x", [7, 0, 0, 7, 42, 42, -1, 255]),
    ("%d", [10**400]),
    # characters and quoting
    ("%c %c %c %c %c", [65, 0x65E5, -1, 0x110000, 0xD800]),
    ("%q %q %+q %U %#U %#U %.6U %08U", [0x1F600, 10, 0x1F600, -1, 0x1F600, 10, 65, 65]),
    ("%q %+q %#q %#q %#q", ["héllo\n", "é😀", "a`b", "tab\there", "raw"]),
    ("%q", ['\x00\x07\x7f\u200b\u00ad\U0001f600 \\ "']),
    ("%x % X %#x %# x %.1x %10x|%-10X|%x", ["hi", "hi", "hi", "abc", "日本", "ab", "ab", ""]),
    ("%5.1s|%-5s|%.2s|%5q|%.3q|%05s|%-05s|", ["héllo", "ab", "日本語", "a", "abcdef", "ab", "ab"]),
    ("%10T|%-10T|%.3T", [1, 1.0, "x"]),
    ("%s|%10v|%-12v|%.4v", [[1, 2], Set([1]), {"a": 1}, ["xyz"]]),
    # width and precision from arguments, explicit indexes
    ("%*d|%-*d|%.*f|%*.*f", [5, 1, 4, 2, 2, 3.14159, 8, 3, 2.0]),
    ("%*d", [-6, 7]),
    ("%*d", ["a", 1]),
    ("%*d %d", [10000000, 1, 2]),
    ("%.*d", [-1, 5]),
    ("%[2]d %[1]d %d", [1, 2]),
    ("%[2]*[1]d|%[3]*.[2]*[1]f|", [12, 2, 6]),
    ("%3[1]d %.2[1]d", [5]),
    ("%[0]d %[x]d %[3]d", [5]),
    ("%[2]d", [1, 2, 3]),
    # Go's error forms
    ("%d %d", [1]),
    ("%d", [1, "a", {"a": [1]}]),
    ("", [1, 2.5, BIG, True]),
    ("%", []),
    ("%[1]", [5]),
    ("%.", [1]),
    ("100%% sure, %5%", []),
    ("%!", [1]),
    ("%d %s", ["x", 1]),
    ("%t %t", [True, "true"]),
    ("%z %+5z %-4z| %w %+w", [1, 2, 3.5, 4, 5]),
    ("%z %w", [BIG, "x"]),
    ("%ä %dä", [1, 2]),
    ("%-010d|%0-10d|%010.3f|%0+10.3e|%010v|%+010s", [5, 5, -1.5, 2.5, Set([1]), "x"]),
]


@needs_opa
@pytest.mark.parametrize(("fmt", "args"), SPRINTF_CASES, ids=[c[0] for c in SPRINTF_CASES])
def test_sprintf_matches_opa(fmt: str, args: list[Any]) -> None:
    assert call("sprintf", fmt, args) == opa_call("sprintf", fmt, args)


STRING_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("strings.any_prefix_match", ("abc", "ab")),
    ("strings.any_prefix_match", (["x", "abc"], Set(["ab"]))),
    ("strings.any_prefix_match", ([], "a")),
    ("strings.any_suffix_match", (Set(["foo.com", "bar.org"]), Set([".org"]))),
    ("strings.any_suffix_match", (["a.example.com"], ["example.org", ".example.net"])),
    ("strings.count", ("cheese", "e")),
    ("strings.count", ("日本語", "")),
    ("strings.split_n", ("a,b,c,d", ",", 2)),
    ("strings.split_n", ("a,b,c,d", ",", -2)),
    ("strings.split_n", ("a,b,c,d", ",", 0)),
    ("strings.split_n", ("a,b,c,d", "", 3)),
    ("strings.split_n", ("a,b", ",", 1.5)),
    ("strings.split_n", ("a,b", ",", 2.0)),
    ("strings.split_n", ("a,b", ",", 10**20)),
    ("indexof_n", ("日本語日本", "本")),
    ("indexof_n", ("aaaa", "aa")),
    ("indexof_n", ("abc", "")),
    ("glob.quote_meta", ("a[b]{c}?*\\!-,d^$.+()|日本",)),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), STRING_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(STRING_CASES)]
)
def test_string_builtins_match_opa(name: str, args: tuple[Any, ...]) -> None:
    assert call(name, *args) == opa_call(name, *args)


UNTYPED_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("sprintf", ("%s", "not an array")),
    ("sprintf", (1, [])),
    ("strings.any_prefix_match", (["abc", 1], "ab")),
    ("strings.any_suffix_match", ("abc", 1)),
    ("strings.count", (1, "a")),
    ("strings.split_n", ("a", ",", "1")),
    ("indexof_n", ("a", 1)),
    ("glob.quote_meta", (1,)),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), UNTYPED_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(UNTYPED_CASES)]
)
def test_operand_type_errors_match_opa(name: str, args: tuple[Any, ...]) -> None:
    assert call(name, *args) == opa_call_untyped(name, *args) == []


# ---------------------------------------------------------------- without the oracle


@pytest.mark.parametrize(
    ("fmt", "args", "expected"),
    [
        ("%5.2f|%-6d|%06.1f", [3.14159, 42, -2.5], " 3.14|42    |-002.5"),
        ("%v %v %v", [1e6, 100000.0, 1.5e-5], "1e+06 100000 1.5e-05"),
        ("%d %d", [1], "1 %!d(MISSING)"),
        ("%d", [1, "x"], "1%!(EXTRA string=x)"),
        ("%d|%T", [BIG, BIG], f"{BIG}|*big.Int"),
        ("%s", [{"b": [1, "x"], "a": Set()}], '{"a": set(), "b": [1, "x"]}'),
        ("%d", ["s"], "%!d(string=s)"),
        ("%#x|%x", [1.0, 0.5], "0x1.0000p+00|0x1p-01"),
        ("%[3]d", [1], "%!d(BADINDEX)"),
        ("%", [], "%!(NOVERB)"),
    ],
)
def test_sprintf_known_outputs(fmt: str, args: list[Any], expected: str) -> None:
    assert REGISTRY["sprintf"](fmt, args) == expected


def test_go_quote_escapes() -> None:
    assert go_quote('a"\\\n\x01é\u00a0😀') == '"a\\"\\\\\\n\\x01é\\u00a0😀"'
    assert go_quote("é😀", ascii_only=True) == '"\\u00e9\\U0001f600"'


def test_format_float_shortest_and_fixed() -> None:
    assert format_float(123456.0, "g", -1) == "123456"
    assert format_float(1234567.0, "g", -1) == "1.234567e+06"
    assert format_float(-0.0, "g", -1) == "-0"
    assert format_float(2.5, "f", 0) == "2"
    assert format_float(1.0, "b", -1) == "4503599627370496p-52"


def test_rego_text_sorts_members() -> None:
    assert rego_text(Set(["b", "a", 1])) == '{1, "a", "b"}'
    assert rego_text({"z": None, "a": [True]}) == '{"a": [true], "z": null}'


def test_errors() -> None:
    with pytest.raises(BuiltinError):
        REGISTRY["sprintf"]("%s", "x")
    with pytest.raises(BuiltinError):
        REGISTRY["indexof_n"]("abc", "")
    with pytest.raises(BuiltinError):
        REGISTRY["strings.any_prefix_match"](["a", 1], "a")
