"""Tests for json.verify_schema and json.match_schema (gojsonschema's texts), against opa.

Where gojsonschema walks a Go map (several members of one object failing) OPA's
error order is random; those cases compare the errors as sorted lists.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from oracle import host_call, needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.json_schema import _big_float_text, _go_float

match_schema = REGISTRY["json.match_schema"]
verify_schema = REGISTRY["json.verify_schema"]

SCHEMAS: dict[str, Any] = {
    "obj": {
        "type": "object",
        "properties": {
            "id": {"type": "integer", "minimum": 1, "maximum": 100},
            "name": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
            "tags": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 1,
                "maxItems": 3,
                "uniqueItems": True,
            },
        },
        "required": ["id", "name"],
        "additionalProperties": False,
    },
}

CASES: list[tuple[Any, Any]] = [
    ({"id": 5, "name": "ab"}, SCHEMAS["obj"]),
    ({"id": "x"}, SCHEMAS["obj"]),
    ({"id": 0, "name": "ABCDEFG", "tags": ["a", "a", "b", "c"]}, SCHEMAS["obj"]),
    ({"id": 101, "name": "a", "tags": [], "extra": 1}, SCHEMAS["obj"]),
    ({"id": 1.5, "name": "ab"}, SCHEMAS["obj"]),
    ({"x": 3}, {"properties": {"x": {"enum": [1, "two", [3], {"a": 1}, None]}}}),
    ({"x": 3}, {"properties": {"x": {"const": {"a": [1, 2.50, "<&>"]}}}}),
    ({"x": 7}, {"properties": {"x": {"multipleOf": 0.1}}}),
    (
        {"x": 7.25},
        {"properties": {"x": {"multipleOf": 0.5, "exclusiveMinimum": 10, "exclusiveMaximum": 1}}},
    ),
    ({"x": 5}, {"properties": {"x": {"minimum": 5, "exclusiveMinimum": True}}}),
    (
        {"x": 5},
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "properties": {"x": {"maximum": 5, "exclusiveMaximum": True}},
        },
    ),
    ({"x": 1000000}, {"properties": {"x": {"maximum": 999999.5}}}),
    ({"x": 0.00001}, {"properties": {"x": {"minimum": 0.0001}}}),
    ({"x": 1e7}, {"properties": {"x": {"maximum": 1e6}}}),
    (5, {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 10}]}),
    (5, {"oneOf": [{"type": "integer"}, {"minimum": 1}]}),
    (5, {"oneOf": [{"type": "string"}, {"maximum": 1}]}),
    (5, {"allOf": [{"type": "integer"}, {"maximum": 1}, {"minimum": 10}]}),
    (5, {"not": {"type": "integer"}}),
    ({"a": 1}, {"dependencies": {"a": ["b", "c"]}}),
    ({"a": 1}, {"dependencies": {"a": {"required": ["z"]}}}),
    (
        {"a": 1},
        {"if": {"required": ["a"]}, "then": {"required": ["t"]}, "else": {"required": ["e"]}},
    ),
    (
        {"b": 1},
        {"if": {"required": ["a"]}, "then": {"required": ["t"]}, "else": {"required": ["e"]}},
    ),
    (
        [1, "a", None],
        {"items": [{"type": "integer"}, {"type": "integer"}], "additionalItems": False},
    ),
    ([1, "a", None], {"items": [{"type": "integer"}], "additionalItems": {"type": "string"}}),
    ([1, 2], {"contains": {"type": "string"}}),
    ({"aa": 1, "bbb": 2}, {"propertyNames": {"maxLength": 2}}),
    (
        {"x1": "a", "y": 1},
        {
            "patternProperties": {"^x": {"type": "integer"}},
            "additionalProperties": {"type": "string"},
        },
    ),
    ({}, {"minProperties": 1}),
    ({"a": 1, "b": 2}, {"maxProperties": 1}),
    (None, {"type": ["string", "null"]}),
    (True, {"type": ["string", "integer"]}),
    ("x", False),
    ("x", True),
    (
        {"a": {"b": {"c": 1}}},
        {"properties": {"a": {"properties": {"b": {"properties": {"c": {"type": "string"}}}}}}},
    ),
    (
        {"n": {"n": {"v": "x"}}},
        {
            "definitions": {
                "node": {
                    "properties": {"v": {"type": "integer"}, "n": {"$ref": "#/definitions/node"}}
                }
            },
            "$ref": "#/definitions/node",
        },
    ),
    (
        {
            "e": "not-an-email",
            "d": "2024-13-01",
            "t": "2024-01-01T00:00:00Z",
            "h": "-bad-",
            "i": "1.2.3.4",
            "u": "relative/path",
            "uu": "123e4567-e89b-12d3-a456-426614174000",
        },
        {
            "properties": {
                "e": {"format": "email"},
                "d": {"format": "date"},
                "t": {"format": "date-time"},
                "h": {"format": "hostname"},
                "i": {"format": "ipv6"},
                "u": {"format": "uri"},
                "uu": {"format": "uuid"},
            }
        },
    ),
    ('{"id": 1.00}', '{"properties": {"id": {"enum": [1]}}}'),
    ("{bad", {"type": "object"}),
    ({"id": 5}, {"type": "unknown"}),
    ({"id": 5}, {"type": ["string", "string"]}),
    ({"id": 5}, {"minLength": -1}),
    ({"id": 5}, {"minLength": 1.5}),
    ({"id": 5}, {"minimum": "1"}),
    ({"id": 5}, {"required": "id"}),
    ({"id": 5}, {"required": ["a", "a"]}),
    ({"id": 5}, {"enum": [1, 1.0]}),
    ({"id": 5}, {"pattern": "(unclosed"}),
    ({"id": 5}, {"properties": []}),
    ({"id": 5}, {"multipleOf": 0}),
    ({"id": 5}, {"minLength": 5, "maxLength": 2}),
    ({"id": 5}, {"items": 3}),
    ({"id": 5}, {"not": 3}),
    ({"id": 5}, {"$ref": "#/definitions/missing"}),
    ({"id": 5}, {"exclusiveMinimum": True}),
]


def _operand(value: Any) -> Any:
    """Objects and strings go as they are; other JSON as its text (the type checker
    takes only strings and objects)."""
    return value if isinstance(value, dict | str) else json.dumps(value)


def _sorted_errors(result: list[Any]) -> list[Any]:
    return [[r[0], sorted(r[1], key=json.dumps)] if isinstance(r[1], list) else r for r in result]


@needs_opa
@pytest.mark.parametrize(("document", "schema"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_match_schema_against_opa(document: Any, schema: Any) -> None:
    from oracle import opa_call

    args = (_operand(document), _operand(schema))
    expected = opa_call("json.match_schema", *args)
    actual = host_call("json.match_schema", *args)
    assert _sorted_errors(actual) == _sorted_errors(expected)


@needs_opa
@pytest.mark.parametrize("schema", [s for _, s in CASES], ids=[str(i) for i in range(len(CASES))])
def test_verify_schema_against_opa(schema: Any) -> None:
    from oracle import opa_call

    arg = _operand(schema)
    assert host_call("json.verify_schema", arg) == opa_call("json.verify_schema", arg)


def test_errors_in_gojsonschema_order() -> None:
    schema = {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 10}]}
    valid, errors = match_schema("5", schema)
    assert valid is False
    assert [(e["type"], e["field"], e["desc"]) for e in errors] == [
        ("number_any_of", "(Root)", "Must validate at least one schema (anyOf)"),
        ("number_gte", "(Root)", "Must be greater than or equal to 10"),
    ]
    assert errors[1]["error"] == "(Root): Must be greater than or equal to 10"


def test_nested_fields_and_map_order_is_sorted() -> None:
    schema = {"properties": {"b": {"type": "integer"}, "a": {"items": {"type": "string"}}}}
    _, errors = match_schema({"b": "x", "a": [1]}, schema)
    assert [e["error"] for e in errors] == [
        "a.0: Invalid type. Expected: string, given: integer",
        "b: Invalid type. Expected: integer, given: string",
    ]


def test_valid_documents() -> None:
    assert match_schema('{"id": 5}', '{"required": ["id"]}') == [True, []]
    assert verify_schema({"type": "boolean"}) == [True, None]


def test_invalid_schemas() -> None:
    assert verify_schema({"type": "unknown_type"}) == [
        False,
        "jsonschema: has a primitive type that is NOT VALID -- given: /unknown_type/ "
        "Expected valid values are:[array boolean integer number null object string]",
    ]
    assert verify_schema("{bad") == [False, "jsonschema: invalid JSON string"]
    with pytest.raises(BuiltinError, match=r"json\.match_schema: minLength must be of an integer"):
        match_schema({}, {"minLength": "1"})


def test_only_references_inside_the_schema_resolve() -> None:
    with pytest.raises(BuiltinError, match="only references within the schema"):
        match_schema({}, {"$ref": "https://example.com/schema.json"})
    schema = {"definitions": {"n": {"type": "integer"}}, "items": {"$ref": "#/definitions/n"}}
    assert match_schema("[1, 2]", schema) == [True, []]


@pytest.mark.parametrize(
    ("value", "text"),
    [(1.0, "1"), (0.1, "0.1"), (1e-7, "1e-7"), (1e21, "1e+21"), (123456.5, "123456.5")],
)
def test_go_float_text(value: float, text: str) -> None:
    assert _go_float(value) == text


@pytest.mark.parametrize(
    ("number", "text"),
    [
        ("5", "5"),
        ("0.1", "0.1"),
        ("1000000", "1e+06"),
        ("999999.5", "999999.5"),
        ("0.00001", "1e-05"),
    ],
)
def test_big_float_text(number: str, text: str) -> None:
    from decimal import Decimal
    from fractions import Fraction

    assert _big_float_text(Fraction(Decimal(number))) == text
