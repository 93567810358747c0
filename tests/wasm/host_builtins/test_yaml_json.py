"""Tests for yaml.marshal, yaml.unmarshal and yaml.is_valid (go-yaml v3 semantics)."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.core.go_yaml import go_format_g, go_json_float, resolve
from engine.wasm.values import Set

MA = "yaml.marshal"
UN = "yaml.unmarshal"
OK = "yaml.is_valid"

NESTED = {
    "a": [1, 2, {"b": [[], {}], "c": {"d": [[1, 2], [3]]}}],
    "e": {"f": None, "g": True},
    "z": "multi\nline\n",
    "y": "trail\n\n",
    "x": "  lead\nz",
    "w": "a: b",
    "v": "yes",
    "u": "",
    "t": "1.5",
    "s": "#x",
    "r": "tab\there",
    "q": "é ü",
    "p": "2023-01-01",
    "o": "x # y",
    "n": [[["deep"]]],
    "m": "ends ",
    "k": "- x",
    "j": "null",
    "h": "0x1F",
    "f2": "'q'",
    "c2": "a\r\nb",
}

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    (MA, (NESTED,)),
    (MA, ([1.5, 1.0, 1e6, 100000000000000000000000, 1e-7, 0.0001, 123456789, -0.0],)),
    (MA, ([18446744073709551615, 18446744073709551616, -9223372036854775809],)),
    (MA, ("plain",)),
    (MA, ({},)),
    (MA, (None,)),
    (MA, ("a\nb",)),
    (MA, ("\n",)),
    (MA, (["emoji 😀", "nel\x85x", "1:20", "0o17", "017", "1e400", "<<"],)),
    (MA, (["---", "...", "?", ":x", "a:b", "-x", "@x", "`x", "x,y", "a#b", "'", "\\"],)),
    (MA, (["\x7f"],)),
    (MA, ({"b10": 1, "b2": 2, "a": 3, "B": 4, "10": 6, "2": 7, "a01": 8, "a1": 9, "é": 11},)),
    (MA, ({"k": Set(["a", "b"]), "lk": {"multi\nkey": 1}, "long" * 40: 1, "sq": [{"c: d": "e"}]},)),
    (MA, ([[], [[]], {"a": {}}, [{}], [[1], {"a": [2]}], {"x": [{"y": [{"z": 1}]}]}],)),
    (MA, ({"a": "  indented\nlines\n   more\n", "n": "x\n\n\n", "m": "\n\nx"},)),
    (MA, ({3: "a", 2.5: "b", True: "c", None: "d"},)),
    (UN, ("a: 1\nb: [yes, on, 1.0, 0x1F, 010, 09, 2023-01-01, ~, .5]\n",)),
    (UN, ("",)),
    (UN, ("---\n",)),
    (UN, ("a: 1\n---\nb: 2\n",)),
    (UN, ("a: 1\n---\nb: [\n",)),
    (UN, ("- &x {a: 1}\n- *x\n",)),
    (UN, ("base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n",)),
    (UN, ("a: &a {x: 1}\nb: &b {x: 2, z: 3}\nc:\n  <<: [*a, *b]\n",)),
    (UN, ("a: &a {x: 1}\nb: &b {x: 2, z: 3}\nc:\n  <<: *a\n  <<: *b\n",)),
    (UN, ("a: 1\na: 2\n",)),
    (UN, ("? [1]\n: x\n",)),
    (UN, ("~: x\n",)),
    (UN, ("1.5: a\n3.14159265358979: b\ntrue: c\n0x10: d\n",)),
    (UN, ("a: .inf\n",)),
    (UN, ("a: 1e400\nb: 1e300\nc: 123456789012345678901234567890\nd: 18446744073709551615\n",)),
    (UN, ("a: 0.1\nb: 1e-7\nc: 1e21\nd: 1e20\ne: -0.0\n",)),
    (UN, ('a: !!str 123\nb: !!int "42"\nc: !!float 1\nd: !!binary aGVsbG8=\ne: !custom val\n',)),
    (UN, ("a: !!bool yes\n",)),
    (UN, ("a: |\n  line1\n  line2\nb: >\n  folded\n  text\nc: 'it''s'\nd: \"\\t\\u00e9\"\n",)),
    (UN, ("[1, 2",)),
    (UN, ("a: b: c\n",)),
    (UN, ("\ta: 1\n",)),
    (UN, ("  a:\nb: 1",)),
    (UN, ("a: &a [*a]\n",)),
    (UN, ("a: *unknown\n",)),
    (UN, ("a: 1_000\nb: +12\nc: 0b101\nd: -0b101\ne: 0o17\nf: 1:20\n",)),
    (UN, ("a: 2001-12-14t21:59:43.10-05:00\nb: Yes\nc: NO\nd: True\n",)),
    (UN, ("a: !!timestamp 2001-12-14\n",)),
    (UN, ("a:\n  <<: 5\n",)),
    (UN, ("%YAML 1.1\n---\na: [1, {b: 2}]\n",)),
    (UN, ("a: 0x\nb: 1__0\nc: ._5\nd: .5e3\ne: 0.\nf: +.5\ng: -.inf\n",)),
    (OK, ("a: 1\n",)),
    (OK, ("a: 1\n---\nb: [\n",)),
    (OK, ("a: .nan\n",)),
    (OK, ("? [1]\n: x\n",)),
    (OK, ("x",)),
]


@needs_opa
@pytest.mark.parametrize(("name", "args"), DIFF_CASES)
def test_matches_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_marshal_layout() -> None:
    value = {"spec": {"containers": [{"name": "app", "ports": [80, 443]}]}, "on": "yes"}
    assert call(MA, value) == [
        '"on": "yes"\nspec:\n  containers:\n    - name: app\n'
        "      ports:\n        - 80\n        - 443\n"
    ]
    assert call(MA, {"s": "a\nb\n"}) == ["s: |\n  a\n  b\n"]
    assert call(MA, ["x\ty"]) == ['- "x\\ty"\n']
    # go-yaml escapes every character of a string that starts with a BOM.
    assert call(MA, "\ufeffbom") == ['"\\uFEFF\\x62\\x6F\\x6D"\n']


def test_unmarshal_core_schema() -> None:
    assert call(UN, "a: yes\nb: on\nc: 1.0\nd: 2023-01-01\ne: 010\n") == [
        {"a": "yes", "b": "on", "c": 1, "d": "2023-01-01", "e": 8}
    ]
    assert call(UN, "a: [") == []
    assert call(UN, 1) == []
    assert call(OK, "a: [") == [False]
    assert call(OK, 1) == [False]


def test_resolve_and_number_formats() -> None:
    assert resolve("", "0x1F") == ("!!int", 31)
    assert resolve("", "09") == ("!!float", 9.0)
    assert resolve("", "yes") == ("!!str", "yes")
    assert go_format_g(1e6) == "1e+06"
    assert go_format_g(123456.7) == "123456.7"
    assert go_json_float(1e-7) == "1e-7"
    assert go_json_float(1e20) == "100000000000000000000"
