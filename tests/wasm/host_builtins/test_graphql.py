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

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [("graphql.parse_query", (q,)) for q in QUERIES] + [
    ("graphql.parse_schema", (s,)) for s in SCHEMAS
]


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
