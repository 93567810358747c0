"""GraphQL builtins: ``graphql.parse_query``, ``graphql.parse_schema``,
``graphql.schema_is_valid``, ``graphql.is_valid``, ``graphql.parse`` and
``graphql.parse_and_verify``.

Documents are parsed by :mod:`engine.wasm.host_builtins.graphql_syntax`, which
follows gqlparser v2 (the library OPA uses), and returned as OPA returns them:
gqlparser's AST as JSON with positions, nulls and empty values pruned. Queries
and schemas may also be given as such AST objects. Schemas are checked by
:mod:`graphql_schema` and queries by gqlparser's rules (:mod:`graphql_rules`).
Errors read as OPA's: ``<message> in GraphQL string at location <line>:<column>``.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.wasm.host_builtins.graphql_decode import DecodeError, decode_query, decode_schema
from engine.wasm.host_builtins.graphql_rules import validate_query
from engine.wasm.host_builtins.graphql_schema import GraphQLError, Schema, build_schema
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


def opa_error(text: str) -> str:
    """OPA's wording of gqlparser's error text (``formatGqlParserError``): the
    location of the first error moved to the end, or the whole text prefixed."""
    parts = text.split(":", 3)
    if len(parts) >= 4 and parts[1].isdigit() and parts[2].isdigit():
        message = parts[3].lstrip(" ").removesuffix(".\n")
        return f"{message} in GraphQL string at location {int(parts[1])}:{int(parts[2])}"
    return f"GraphQL parse error: {text}"


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
            _schema_from_text(schema)
        elif isinstance(schema, dict):
            build_schema(decode_schema(schema))
        else:
            return False
    except (GraphQLSyntaxError, DecodeError, GraphQLError):
        return False
    return True


def _document(builtin: str, value: Any, *, schema: bool) -> Node:
    """The query or schema operand as a document (parsed, or decoded from an AST object)."""
    try:
        if isinstance(value, str):
            return parse_schema(value) if schema else parse_query(value)
        if isinstance(value, dict):
            return decode_schema(value) if schema else decode_query(value)
    except GraphQLSyntaxError as err:
        raise BuiltinError(f"{builtin}: {located(err)}") from None
    except DecodeError as err:
        raise BuiltinError(f"{builtin}: {err}") from None
    position = 2 if schema else 1
    raise BuiltinError(
        f"{builtin}: operand {position} must be one of {{object, string}} "
        f"but got {type_name(value)}"
    )


@functools.lru_cache(maxsize=10)
def _schema_from_text(text: str) -> Schema:
    """The built schema of a schema string; the last ten are kept (validation
    only reads a schema, and building merges the built-in definitions anew)."""
    return build_schema(parse_schema(text))


def _schema(builtin: str, operand: Any, document: Node) -> Schema:
    try:
        if isinstance(operand, str):
            return _schema_from_text(operand)
        return build_schema(document)
    except GraphQLError as err:
        raise BuiltinError(
            f"{builtin}: Error in gqlparser SchemaDocument to Schema conversion: {err.text()}"
        ) from None


def _verified(builtin: str, query: Any, schema: Any) -> tuple[Node, Node]:
    """The pruned query and schema ASTs once the query passes validation."""
    query_doc = _document(builtin, query, schema=False)
    schema_doc = _document(builtin, schema, schema=True)
    schema_ast = prune(schema_doc)
    built = _schema(builtin, schema, schema_doc)
    try:
        errors = validate_query(built, query_doc)
    except GraphQLError as err:
        raise BuiltinError(f"{builtin}: {opa_error(err.text())}") from None
    if errors:
        text = "".join(f"{e.text()}\n" for e in errors)
        raise BuiltinError(f"{builtin}: {opa_error(text)}")
    return prune(query_doc), schema_ast


@register("graphql.parse")
def graphql_parse(query: Any, schema: Any) -> list[Node]:
    """[query AST, schema AST] of a query that validates against the schema."""
    query_ast, schema_ast = _verified("graphql.parse", query, schema)
    return [query_ast, schema_ast]


@register("graphql.parse_and_verify")
def graphql_parse_and_verify(query: Any, schema: Any) -> list[Any]:
    """[true, query AST, schema AST], or [false, {}, {}] when anything fails."""
    try:
        query_ast, schema_ast = _verified("graphql.parse_and_verify", query, schema)
    except BuiltinError:
        return [False, {}, {}]
    return [True, query_ast, schema_ast]


@register("graphql.is_valid")
def graphql_is_valid(query: Any, schema: Any) -> bool:
    """Whether the query parses and validates against the schema."""
    try:
        _verified("graphql.is_valid", query, schema)
    except BuiltinError:
        return False
    return True
