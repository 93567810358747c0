"""Tests for hex.*, base64url.encode_no_pad, json.marshal_with_options and json.patch."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.host_builtins.encoding import apply_patch, go_json_string
from engine.wasm.values import Set

M = "json.marshal_with_options"
P = "json.patch"
DOC = {
    "a": [1, {"x": []}],
    "b": {},
    "c": '<&>\u2028\n\t\b\f\x01\x7f"\\',
    "d": None,
    "e": True,
    "f": 1.5,
    "g": Set([3, 1, 2]),
}
BASE = {"a": {"b": [1, 2, 3]}, "c": "x"}
SET_DOC = {"s": Set(["a", "b", [1]])}

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("hex.encode", ("",)),
    ("hex.encode", ("hello",)),
    ("hex.encode", ("é\u4f60\x00",)),
    ("hex.decode", ("4a4B",)),
    ("hex.decode", ("c3a9",)),
    ("hex.decode", ("",)),
    ("hex.decode", ("4a4",)),
    ("hex.decode", ("zz",)),
    ("hex.decode", ("ff",)),
    ("base64url.encode_no_pad", ("",)),
    ("base64url.encode_no_pad", ("a",)),
    ("base64url.encode_no_pad", ("ab",)),
    ("base64url.encode_no_pad", ("\u00ff?>",)),
    (M, (DOC, {})),
    (M, (DOC, {"pretty": True})),
    (M, (DOC, {"indent": "  "})),
    (M, (DOC, {"prefix": "> "})),
    (M, (DOC, {"indent": "  ", "prefix": "//", "pretty": False})),
    (M, (DOC, {"pretty": True, "indent": ""})),
    (M, ({"k": {"z": 1, "a": [None]}}, {"pretty": True})),
    (M, ([[]], {"pretty": True})),
    (M, ({1: "x", "b": 2}, {})),
    (M, ({"é": 1, "z": 2, "Z": 3}, {})),
    (M, ("s", {"prefix": "--"})),
    (M, (-2.5, {})),
    (M, ({"a": 1}, {"bad": 1})),
    (P, (BASE, [{"op": "add", "path": "/a/b/-", "value": 4}])),
    (P, (BASE, [{"op": "add", "path": "/a/b/0", "value": 0}])),
    (P, (BASE, [{"op": "add", "path": "/a/b/4", "value": 9}])),
    (P, (BASE, [{"op": "add", "path": "/a/b/01", "value": 9}])),
    (P, (BASE, [{"op": "add", "path": "/a/b/+1", "value": 9}])),
    (P, (BASE, [{"op": "remove", "path": "/a/b/1"}])),
    (P, (BASE, [{"op": "remove", "path": "/zz"}])),
    (P, (BASE, [{"op": "replace", "path": "/c", "value": {"n": 1}}])),
    (P, (BASE, [{"op": "replace", "path": "/zz", "value": 1}])),
    (P, (BASE, [{"op": "move", "from": "/c", "path": "/d"}])),
    (P, (BASE, [{"op": "move", "from": "/a", "path": "/a/x"}])),
    (P, (BASE, [{"op": "copy", "from": "/a/b", "path": "/e"}])),
    (P, (BASE, [{"op": "test", "path": "/c", "value": "x"}])),
    (P, (BASE, [{"op": "test", "path": "/c", "value": "y"}])),
    (P, (BASE, [{"op": "test", "path": "/a/b/0", "value": 1.0}])),
    (P, (BASE, [{"op": "add", "path": "", "value": [1]}])),
    (P, (BASE, [{"op": "add", "path": "/", "value": 5}])),
    (P, (BASE, [{"op": "add", "path": "//x", "value": 5}])),
    (P, (BASE, [{"op": "add", "path": ["a", "b", 0], "value": "arr"}])),
    (P, (BASE, [{"op": "bogus", "path": "/c"}])),
    (P, (BASE, [{"path": "/c"}])),
    (P, (BASE, [{"op": "add", "path": "/c"}])),
    (P, (BASE, [{"op": "add", "path": "/c/x", "value": 1}])),
    (
        P,
        (
            BASE,
            [{"op": "add", "path": "/a~1b", "value": 1}, {"op": "add", "path": "/t~0", "value": 2}],
        ),
    ),
    # OPA's edit tree reads an untouched array element from the original array.
    (P, (BASE, [{"op": "remove", "path": "/a/b/0"}, {"op": "test", "path": "/a/b/0", "value": 1}])),
    (P, (BASE, [{"op": "remove", "path": "/a/b/0"}, {"op": "test", "path": "/a/b/0", "value": 2}])),
    (
        P,
        (
            {"a": [{"x": 1}, {"x": 2}]},
            [{"op": "remove", "path": "/a/0"}, {"op": "add", "path": "/a/0/y", "value": 3}],
        ),
    ),
    (
        P,
        (
            BASE,
            [
                {"op": "remove", "path": "/c"},
                {"op": "add", "path": "/c", "value": 2},
                {"op": "remove", "path": "/c"},
                {"op": "remove", "path": "/c"},
            ],
        ),
    ),
    (P, (SET_DOC, [{"op": "add", "path": "/s/c", "value": "c"}])),
    (P, (SET_DOC, [{"op": "add", "path": "/s/c", "value": "d"}])),
    (P, (SET_DOC, [{"op": "remove", "path": "/s/a"}])),
    (P, (SET_DOC, [{"op": "remove", "path": "/s/zz"}])),
    (P, (SET_DOC, [{"op": "add", "path": ["s", [1], 0], "value": 9}])),
    (
        P,
        (
            SET_DOC,
            [
                {"op": "add", "path": ["s", [1], "-"], "value": 2},
                {"op": "add", "path": ["s", [1, 2], "-"], "value": 3},
            ],
        ),
    ),
    (P, (SET_DOC, [{"op": "remove", "path": "/s/a"}, {"op": "remove", "path": "/s/a"}])),
    (P, (Set([1, 2]), [{"op": "add", "path": [3], "value": 3}])),
    (P, (5, [{"op": "add", "path": "/x", "value": 3}])),
    (P, ({1: "n"}, [{"op": "add", "path": [1], "value": 3}, {"op": "remove", "path": "/1"}])),
    (P, ({"a": 1}, [])),
]


@needs_opa
@pytest.mark.parametrize(("name", "args"), DIFF_CASES)
def test_matches_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_hex_round_trip() -> None:
    assert call("hex.encode", "é") == ["c3a9"]
    assert call("hex.decode", "C3A9") == ["é"]
    assert call("hex.decode", "ff") == ["\ufffd"]
    assert call("hex.decode", "abc") == []


def test_base64url_no_pad() -> None:
    assert call("base64url.encode_no_pad", "\u00ff?>") == ["w78_Pg"]


def test_go_json_string_escapes_html() -> None:
    assert go_json_string("<a & b>\u2028\x01\b") == '"\\u003ca \\u0026 b\\u003e\\u2028\\u0001\\b"'


def test_marshal_with_options() -> None:
    value = {"b": [1, {}], "a": Set(["y", "x"])}
    assert call(M, value, {}) == ['{"a":["x","y"],"b":[1,{}]}']
    assert call(M, value, {"indent": " ", "prefix": "#"}) == [
        '#{\n# "a": [\n#  "x",\n#  "y"\n# ],\n# "b": [\n#  1,\n#  {}\n# ]\n#}'
    ]
    assert call(M, value, {"pretty": False, "indent": "x"}) == ['{"a":["x","y"],"b":[1,{}]}']
    assert call(M, value, {"pretty": "yes"}) == []
    assert call(M, value, {"indent": 2}) == []
    assert call(M, value, "opts") == []


def test_patch_semantics() -> None:
    assert apply_patch({"a": [1, 2]}, [{"op": "add", "path": "/a/1", "value": 9}]) == {
        "a": [1, 9, 2]
    }
    # The original-array lookup quirk: after removing /a/0, "/a/0/y" edits a copy
    # of the element that was originally at index 0.
    doc = {"a": [{"x": 1}, {"x": 2}]}
    ops = [{"op": "remove", "path": "/a/0"}, {"op": "add", "path": "/a/0/y", "value": 3}]
    assert apply_patch(doc, ops) == {"a": [{"x": 1, "y": 3}]}
    assert call(P, {"a": 1}, [{"op": "remove", "path": ""}]) == []
    assert call(P, {"a": 1}, Set([])) == []
    assert call(P, {"a": 1}, ["not an op"]) == []
    result = apply_patch(Set(["a", "b"]), [{"op": "remove", "path": "/a"}])
    assert result == Set(["b"])
