"""Tests for the graphql.* builtins (gqlparser's AST and messages, as OPA returns them)."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call_strict, needs_opa, opa_call_strict

from engine.wasm.host_builtins import REGISTRY, BuiltinError

QUERIES = [
    "{",
    "\n  { ...MissingOn }\n  fragment MissingOn Type\n",
    "{ field: {} }",
    "notanoperation Foo { field }",
    "...",
    "{ field(complex: { a: { b: [ $var ] } }) }",
    "query Foo($x: Complex = { a: { b: [ $var ] } }) { field }",
    "query ($withDirective: String @first @second, $withoutDirective: String) { f }",
    "fragment on on on { on }",
    "{ ...on }",
    "# c1 ਊ\n#c2\n{ a(x: 1) }",
    "query X {\n # c\n a # d\n b(x: # e\n 1) }",
    (
        "query on {\n"
        " ... a\n"
        " ... on on { field }\n"
        "}\n"
        "fragment a on Type {\n"
        " on(on: $on)\n"
        " @on(on: on)\n"
        "}"
    ),
    (
        '{ a(s: "x\\u0041\\n", b: """\n'
        "   hi\n"
        "     there\n"
        '  """, f: -1.5e3, n: null, t: true, e: RED, l: [1, 2, [3]], o: {x: 1 # c\n'
        " y: 2}) @skip(if: $v) { ... on T @d { z } ... F @e } }"
    ),
    "{ a(x: 01) }",
    "{ a(x: 1.) }",
    '{ a(x: "abc) }',
    '{ a(x: "a\\q") }',
    '{ a(x: "a\\u00zz") }',
    "{ a ' }",
    "{ a ? }",
    "{ a(x: 'b') }",
    "{ }",
    (
        "query Q($a: [Int!]! = [1], $b: In = {x: ENUM}) @dir { a }\n"
        "mutation M { b }\n"
        "subscription { c }"
    ),
    '{ a(x: """  a \\""" b """ ) }',
    '  \n\n   {a(x:   """\n\n x""" y: $) }',
    '{ a(x: "é" y: $) }',
    "",
]

SCHEMAS = [
    (
        "directive @d(a: Int = 1) repeatable on FIELD | QUERY\n"
        "schema @x { query: Q }\n"
        "extend schema { mutation: M }\n"
        '"desc" scalar S\n'
        "union U = | A | B\n"
        "enum E { A B }\n"
        "input I { a: [Int!]! = [1] }\n"
        "interface F implements G & H { x: Int }\n"
        "extend type Q { z: Int }"
    ),
    "# top\ntype Q { # in\n a: Int # after\n}",
    (
        '"""\n'
        "The query\n"
        '"""\n'
        "type Query implements & A & B @x(y: 1) {\n"
        '  "f" f("arg" a: Int = 2 @k, b: [String]): [Q!]! @deprecated(reason: "no")\n'
        "}\n"
        "# end"
    ),
    (
        "extend scalar S @a\n"
        "extend interface I @b { x: Int }\n"
        "extend union U = C\n"
        "extend enum E { Z }\n"
        "extend input In @c { q: Int }\n"
        "extend type T implements X"
    ),
    "extend type T",
    '"d" extend type T { a: Int }',
    "type T {}",
    "query { a }",
    "directive @d on NOPE",
    "type T { a(x: Int = $v): Int }",
    'enum E { A "d" B @x }\nschema { query: Q mutation: M subscription: S }',
    "extend schema",
    '"" type A { a: Int }',
    'type Q { # a\n # b\n a: Int\n "desc" # c\n b: Int # end\n}\n# trailing',
]

SCHEMA_CHECKS = [  # one per rule of gqlparser's schema validation
    "type Query { a: Int }",
    "type Query { a: Int }\ntype Query { b: Int }",
    "type Query { a: Int }\nextend type Query { b: Int }",
    "extend type Query { b: Int }",
    "type Query { a: Int }\nextend input Query { b: Int }",
    "type Query { a: Nope }",
    "type Query { a(x: Query): Int }",
    "type Query { a(x: Nope): Int }",
    "type Query { __a: Int }",
    "type __Q { a: Int }",
    "type Query { a: Int @nope }",
    "type Query { a: Int @deprecated @deprecated }",
    "directive @r repeatable on FIELD_DEFINITION\ntype Query { a: Int @r @r }",
    "type Query { a: Int @skip(if: true) }",
    "type Query { a: Int @deprecated(foo: 1) }",
    "scalar S @specifiedBy\ntype Query { a: S }",
    "scalar S @specifiedBy(url: null)\ntype Query { a: S }",
    'scalar S @specifiedBy(url: "x")\ntype Query { a: S }',
    "directive @d(a: Int @d) on ARGUMENT_DEFINITION\ntype Query { a: Int }",
    "directive @skip(if: Boolean!) on FIELD\ntype Query { a: Int }",
    "directive @d on FIELD\ndirective @d on FIELD\ntype Query { a: Int }",
    "directive @__d on FIELD\ntype Query { a: Int }",
    "directive @d(a: Q) on FIELD\ntype Query { a: Int }\ntype Q { b: Int }",
    "schema { query: Query }\nschema { query: Query }\ntype Query { a: Int }",
    "schema { query: Nope }",
    "schema @deprecated { query: Query }\ntype Query { a: Int }",
    "extend schema { mutation: Nope }\ntype Query { a: Int }",
    "union U = A | B\ntype Query { a: U }\ntype A { a: Int }",
    "union U = A | E\ntype Query { a: U }\ntype A { a: Int }\nenum E { X }",
    "union U = A | A\ntype Query { a: U }\ntype A { a: Int }",
    "type Query implements Nope { a: Int }",
    "type Query implements E { a: Int }\nenum E { X }",
    "interface I { a: Int b: String }\ntype Query implements I { a: Int }",
    "interface I { a: Int! }\ntype Query implements I { a: Int }",
    "interface I { a: I }\ntype Query implements I { a: Query }",
    "interface I { a: [I] }\ntype Query implements I { a: [Query]! }",
    "interface I { a(x: Int): Int }\ntype Query implements I { a: Int }",
    "interface I { a(x: Int): Int }\ntype Query implements I { a(x: String): Int }",
    "interface I { a(x: Int): Int }\ntype Query implements I { a(x: Int, y: Int!): Int }",
    "interface I { a(x: Int): Int }\ntype Query implements I { a(x: Int, y: Int! = 1): Int }",
    "interface J { a: Int }\ninterface I implements J { a: Int }\n"
    "type Query implements I { a: Int }",
    "interface I implements I { a: Int }\ntype Query { a: I }",
    "type Query",
    "type Query { a: In }\ninput In { x: Int }",
    "interface Query",
    "enum E\ntype Query { a: E }",
    "enum E { true }\ntype Query { a: E }",
    "enum E { A A }\ntype Query { a: E }",
    'enum E { A @deprecated(reason: "x") B @skip(if: true) }\ntype Query { a: E }',
    "input In\ntype Query { a(x: In): Int }",
    "input In { x: Query }\ntype Query { a(x: In): Int }",
    "input In { x: In! }\ntype Query { a(x: In): Int }",
    "input In { x: In2! }\ninput In2 { y: [In!] z: In! }\ntype Query { a(x: In): Int }",
    "input In { x: Int x: Int }\ntype Query { a(x: In): Int }",
    "type Query { a: Int a: String }",
    "type Query @deprecated { a: Int }",
    "input In @oneOf { x: Int }\ntype Query { a(x: In): Int }",
    "type Mutation { a: Int }\ntype Subscription { b: Int }",
    "scalar String\ntype Query { a: Int }",
    "type Query { a(x: Int = 1 @deprecated): Int }",
    "type Query { a(x: Int! @deprecated): Int }",
]

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [("graphql.parse_query", (q,)) for q in QUERIES] + [
    ("graphql.parse_schema", (s,)) for s in SCHEMAS
]
DIFF_CASES += [("graphql.schema_is_valid", (s,)) for s in SCHEMA_CHECKS]


@needs_opa
@pytest.mark.parametrize(("name", "args"), DIFF_CASES)
def test_matches_opa(name: str, args: tuple[Any, ...]) -> None:
    assert host_call_strict(name, *args) == opa_call_strict(name, *args)


def test_parse_query_ast() -> None:
    ast = REGISTRY["graphql.parse_query"]("query Q($v: [Int!]) { a: b(x: $v) @skip(if: true) }")
    assert ast == {
        "Operations": [
            {
                "Name": "Q",
                "Operation": "query",
                "VariableDefinitions": [
                    {
                        "Variable": "v",
                        "Type": {
                            "NamedType": "",
                            "Elem": {"NamedType": "Int", "NonNull": True},
                            "NonNull": False,
                        },
                        "Used": False,
                    }
                ],
                "SelectionSet": [
                    {
                        "Alias": "a",
                        "Name": "b",
                        "Arguments": [
                            {
                                "Name": "x",
                                "Value": {"Raw": "v", "Kind": 0, "ExpectedTypeHasDefault": False},
                            }
                        ],
                        "Directives": [
                            {
                                "Name": "skip",
                                "Location": "",
                                "Arguments": [
                                    {
                                        "Name": "if",
                                        "Value": {
                                            "Raw": "true",
                                            "Kind": 5,
                                            "ExpectedTypeHasDefault": False,
                                        },
                                    }
                                ],
                            }
                        ],
                    }
                ],
            }
        ]
    }


def test_comments_attach_to_the_next_node() -> None:
    ast = REGISTRY["graphql.parse_schema"]("type Q {\n  # about a\n  a: Int # end\n}")
    (definition,) = ast["Definitions"]
    assert definition["Fields"][0]["AfterDescriptionComment"] == {"List": [{"Value": "# about a"}]}
    assert definition["EndOfDefinitionComment"] == {"List": [{"Value": "# end"}]}


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "graphql.parse_query",
            "{",
            "Expected Name, found <EOF> in GraphQL string at location 1:2",
        ),
        (
            "graphql.parse_query",
            "{ a ' }",
            "Expected Name, found <Invalid> in GraphQL string at location 1:5",
        ),
        (
            "graphql.parse_query",
            "{ a(x: 01) }",
            "Unexpected <Invalid> in GraphQL string at location 1:9",
        ),
        (
            "graphql.parse_schema",
            "extend type T",
            "Unexpected <EOF> in GraphQL string at location 1:14",
        ),
        (
            "graphql.parse_schema",
            'type T { a: String = "x }',
            "Expected Name, found = in GraphQL string at location 1:20",
        ),
    ],
)
def test_syntax_errors_name_the_location(name: str, text: str, message: str) -> None:
    with pytest.raises(BuiltinError) as err:
        REGISTRY[name](text)
    assert str(err.value) == f"{name}: {message}"


@pytest.mark.parametrize("name", ["graphql.parse_query", "graphql.parse_schema"])
def test_non_string_operand(name: str) -> None:
    with pytest.raises(BuiltinError, match="operand 1 must be string but got number"):
        REGISTRY[name](1)


def test_schema_is_valid_reads_ast_objects() -> None:
    valid = REGISTRY["graphql.parse_schema"]("type Query { a: Int }")
    assert REGISTRY["graphql.schema_is_valid"](valid) is True
    undefined = REGISTRY["graphql.parse_schema"]("type Query { a: Nope }")
    assert REGISTRY["graphql.schema_is_valid"](undefined) is False
    assert REGISTRY["graphql.schema_is_valid"]({"Definitions": "not a list"}) is False
    assert REGISTRY["graphql.schema_is_valid"](12) is False


def test_schema_is_valid_refuses_what_gqlparser_refuses() -> None:
    assert REGISTRY["graphql.schema_is_valid"]("type Query { a: Int }") is True
    assert REGISTRY["graphql.schema_is_valid"]("type Query { a: Int a: Int }") is False
    assert REGISTRY["graphql.schema_is_valid"]("type Query {") is False
