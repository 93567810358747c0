"""The Python side of the Rego value model."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.wasm import values
from engine.wasm.values import BoolKey, ObjectKey, Set


def test_parse_sets_and_non_string_keys() -> None:
    parsed = values.parse('{set(), {"x": {2, 3}}, 1, "a", {[1]: 2, true: "t", 1: "one"}}')
    assert isinstance(parsed, Set) and len(parsed) == 5
    obj = next(m for m in parsed if isinstance(m, dict) and (1,) in m)
    assert obj[BoolKey(True)] == "t" and obj[1] == "one"


def test_big_numbers_stay_exact() -> None:
    assert values.parse("123456789012345678901234567890") == 123456789012345678901234567890
    assert values.parse("[1e400]") == [Decimal("1e400")]
    assert values.dumps(2**80) == b"1208925819614629174706176"


def test_rego_order() -> None:
    ordered = [None, False, True, -1, 0.5, 2, "a", "b", [1], [1, 2], {"a": 1}, Set([1])]
    assert values.sort_values(reversed(ordered)) == ordered


def test_set_equality_follows_rego() -> None:
    assert Set([1, 1.0, 2]) == Set([2, 1])
    assert len(Set([True, 1])) == 2
    assert 1.0 in Set([1])


def test_dumps_parse_round_trip() -> None:
    value = {"s": Set(["b", "a"]), 3: [None, True], (1, 2): "pair", BoolKey(False): 0.25}
    assert values.parse(values.dumps(value)) == value


@pytest.mark.parametrize("text", ["{1,", "[1 2]", "nope", '"open'])
def test_parse_rejects_non_values(text: str) -> None:
    with pytest.raises(ValueError):
        values.parse(text)


def test_json_form_sorts_sets_and_stringifies_keys() -> None:
    assert values.to_json({1: Set([3, "a", 1])}) == {"1": [1, 3, "a"]}
    assert values.dumps_json({"b": 1, "a": 2}) == b'{"a":2,"b":1}'


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
def test_dumps_refuses_non_finite_numbers(bad: float) -> None:
    with pytest.raises(ValueError, match="has no Rego form"):
        values.dumps({"x": [1, bad]})


def test_objects_as_object_keys_parse_compare_and_print_as_opa_does() -> None:
    parsed = values.parse('{{"b": 1, "a": [2]}: "o", {set()}: "s", 1: "n"}')
    assert parsed[ObjectKey({"a": [2], "b": 1})] == "o"
    assert values.parse(values.dumps(parsed)) == parsed
    assert values.dumps_json(parsed) == b'{"1":"n","[[]]":"s","{\\"a\\":[2],\\"b\\":1}":"o"}'
    assert values.compare(ObjectKey({"a": 1}), {"a": 2}) == -1
