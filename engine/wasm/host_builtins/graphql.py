"""GraphQL builtins: ``graphql.parse_query``, ``graphql.parse_schema``.

Documents are parsed by :mod:`engine.wasm.host_builtins.graphql_syntax`, which
follows gqlparser v2 (the library OPA uses), and returned as OPA returns them:
gqlparser's AST as JSON with positions, nulls and empty values pruned. Errors
read as OPA's: ``<message> in GraphQL string at location <line>:<column>``.
"""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.graphql_decode import DecodeError, decode_schema
from engine.wasm.host_builtins.graphql_schema import GraphQLError, build_schema
from engine.wasm.host_builtins.graphql_syntax import (
    GraphQLSyntaxError,
    Node,
    parse_query,
    parse_schema,
    prune,
)
from engine.wasm.host_builtins.registry import BuiltinError, register
from engine.wasm.values import type_name


def located(err: GraphQLSyntaxError) -> str:
    """A gqlparser error worded as OPA reports it."""
    return f"{err.message} in GraphQL string at location {err.line}:{err.column}"


def _string_operand(builtin: str, value: Any) -> str:
    if not isinstance(value, str):
        raise BuiltinError(f"{builtin}: operand 1 must be string but got {type_name(value)}")
    return value


@register("graphql.parse_query")
def graphql_parse_query(query: Any) -> Node:
    """The AST of a GraphQL query document."""
    text = _string_operand("graphql.parse_query", query)
    try:
        return prune(parse_query(text))
    except GraphQLSyntaxError as err:
        raise BuiltinError(f"graphql.parse_query: {located(err)}") from None


@register("graphql.parse_schema")
def graphql_parse_schema(schema: Any) -> Node:
    """The AST of a GraphQL schema document (not validated)."""
    text = _string_operand("graphql.parse_schema", schema)
    try:
        return prune(parse_schema(text))
    except GraphQLSyntaxError as err:
        raise BuiltinError(f"graphql.parse_schema: {located(err)}") from None


@register("graphql.schema_is_valid")
def graphql_schema_is_valid(schema: Any) -> bool:
    """Whether a schema (string or AST object) parses and passes gqlparser's checks."""
    try:
        if isinstance(schema, str):
            document = parse_schema(schema)
        elif isinstance(schema, dict):
            document = decode_schema(schema)
        else:
            return False
        build_schema(document)
    except (GraphQLSyntaxError, DecodeError, GraphQLError):
        return False
    return True
