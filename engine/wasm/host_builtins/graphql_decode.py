"""GraphQL AST objects decoded as gqlparser's ``json.Unmarshal`` reads them.

OPA's ``graphql.*`` builtins accept a query or schema as the AST object that
``graphql.parse_query``/``graphql.parse_schema`` return. Go decodes it into
gqlparser's structs: missing keys and nulls take zero values, unknown keys are
ignored, a value of the wrong JSON type is an error, and every selection is
read as a field (gqlparser tries ``Field`` first, which accepts any object).
Operations, fragments and fields have hand-written decoders in gqlparser that
skip their comments; every other node keeps them.
The result has the node shape of :mod:`graphql_syntax`, without positions.
"""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.graphql_syntax import Node

_STR, _INT, _BOOL = "str", "int", "bool"
_C = "CommentGroup"
_DESCRIBED = {"BeforeDescriptionComment": _C, "AfterDescriptionComment": _C}
_TYPE = {"NamedType": _STR, "Elem": "Type", "NonNull": _BOOL}
_VALUE = {
    "Raw": _STR,
    "Children": ["ChildValue"],
    "Kind": _INT,
    "Comment": _C,
    "ExpectedTypeHasDefault": _BOOL,
}
_CHILD = {"Name": _STR, "Value": "Value", "Comment": _C}
_ARGUMENT = {"Name": _STR, "Value": "Value", "Comment": _C}
_DIRECTIVE = {"Name": _STR, "Arguments": ["Argument"], "Location": _STR}
_VARIABLE = {
    "Variable": _STR,
    "Type": "Type",
    "DefaultValue": "Value",
    "Directives": ["Directive"],
    "Comment": _C,
    "Used": _BOOL,
}
_FIELD = {
    "Alias": _STR,
    "Name": _STR,
    "Arguments": ["Argument"],
    "Directives": ["Directive"],
    "SelectionSet": ["Field"],
}
_OPERATION = {
    "Operation": _STR,
    "Name": _STR,
    "VariableDefinitions": ["VariableDefinition"],
    "Directives": ["Directive"],
    "SelectionSet": ["Field"],
}
_FRAGMENT = {
    "Name": _STR,
    "VariableDefinition": ["VariableDefinition"],
    "TypeCondition": _STR,
    "Directives": ["Directive"],
    "SelectionSet": ["Field"],
}
_QUERY_DOCUMENT = {
    "Operations": ["OperationDefinition"],
    "Fragments": ["FragmentDefinition"],
    "Comment": _C,
}
_ARGUMENT_DEF = {
    "Description": _STR,
    "Name": _STR,
    "DefaultValue": "Value",
    "Type": "Type",
    "Directives": ["Directive"],
    **_DESCRIBED,
}
_FIELD_DEF = dict(_ARGUMENT_DEF, Arguments=["ArgumentDefinition"])
_ENUM_VALUE = {"Description": _STR, "Name": _STR, "Directives": ["Directive"], **_DESCRIBED}
_DEFINITION = {
    "Kind": _STR,
    "Description": _STR,
    "Name": _STR,
    "Directives": ["Directive"],
    "Interfaces": [_STR],
    "Fields": ["FieldDefinition"],
    "Types": [_STR],
    "EnumValues": ["EnumValueDefinition"],
    "BuiltIn": _BOOL,
    **_DESCRIBED,
    "EndOfDefinitionComment": _C,
}
_DIRECTIVE_DEF = {
    "Description": _STR,
    "Name": _STR,
    "Arguments": ["ArgumentDefinition"],
    "Locations": [_STR],
    "IsRepeatable": _BOOL,
    **_DESCRIBED,
}
_OPERATION_TYPE = {"Operation": _STR, "Type": _STR, "Comment": _C}
_SCHEMA_DEF = {
    "Description": _STR,
    "Directives": ["Directive"],
    "OperationTypes": ["OperationTypeDefinition"],
    **_DESCRIBED,
    "EndOfDefinitionComment": _C,
}
_SCHEMA_DOCUMENT = {
    "Schema": ["SchemaDefinition"],
    "SchemaExtension": ["SchemaDefinition"],
    "Directives": ["DirectiveDefinition"],
    "Definitions": ["Definition"],
    "Extensions": ["Definition"],
    "Comment": _C,
}

_STRUCTS: dict[str, dict[str, Any]] = {
    "CommentGroup": {"List": ["Comment"]},
    "Comment": {"Value": _STR},
    "Type": _TYPE,
    "Value": _VALUE,
    "ChildValue": _CHILD,
    "Argument": _ARGUMENT,
    "Directive": _DIRECTIVE,
    "VariableDefinition": _VARIABLE,
    "Field": _FIELD,
    "OperationDefinition": _OPERATION,
    "FragmentDefinition": _FRAGMENT,
    "QueryDocument": _QUERY_DOCUMENT,
    "ArgumentDefinition": _ARGUMENT_DEF,
    "FieldDefinition": _FIELD_DEF,
    "EnumValueDefinition": _ENUM_VALUE,
    "Definition": _DEFINITION,
    "DirectiveDefinition": _DIRECTIVE_DEF,
    "OperationTypeDefinition": _OPERATION_TYPE,
    "SchemaDefinition": _SCHEMA_DEF,
    "SchemaDocument": _SCHEMA_DOCUMENT,
}


class DecodeError(Exception):
    """An AST object whose values do not fit gqlparser's structs."""


def _zero(spec: Any) -> Any:
    if spec == _STR:
        return ""
    if spec == _INT:
        return 0
    if spec == _BOOL:
        return False
    return None


def _decode(value: Any, spec: Any, where: str) -> Any:
    if value is None:
        return _zero(spec)
    if isinstance(spec, list):
        if not isinstance(value, list):
            raise DecodeError(f"{where}: want an array")
        return [_decode(item, spec[0], where) for item in value]
    if spec == _STR:
        if not isinstance(value, str):
            raise DecodeError(f"{where}: want a string")
        return value
    if spec == _BOOL:
        if not isinstance(value, bool):
            raise DecodeError(f"{where}: want a boolean")
        return value
    if spec == _INT:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DecodeError(f"{where}: want an integer")
        if not -(2**63) <= value < 2**63:
            raise DecodeError(f"{where}: integer out of range")
        return value
    if not isinstance(value, dict):
        raise DecodeError(f"{where}: want an object for {spec}")
    node: Node = {}
    for key, field_spec in _STRUCTS[spec].items():
        node[key] = _decode(value.get(key), field_spec, f"{spec}.{key}")
    return node


def decode_query(value: dict[str, Any]) -> Node:
    """A query document from its AST object; raises :class:`DecodeError`."""
    return _decode(value, "QueryDocument", "QueryDocument")


def decode_schema(value: dict[str, Any]) -> Node:
    """A schema document from its AST object; raises :class:`DecodeError`."""
    return _decode(value, "SchemaDocument", "SchemaDocument")
