"""Building and validating a GraphQL schema as gqlparser's ``ValidateSchemaDocument`` does.

The user's schema document is merged after the built-in definitions (scalars,
the specified directives and the introspection types) and checked with
gqlparser's rules, in its order, stopping at the first error; messages are
gqlparser's. Nodes are the JSON objects of :mod:`graphql_syntax`, so a schema
given as an AST object is checked the same way once decoded.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from typing import Any

from engine.wasm.host_builtins.graphql_syntax import (
    NULL_VALUE,
    Node,
    Position,
    go_quote,
    parse_schema,
)


class GraphQLError(Exception):
    """A gqlparser validation error; ``position`` is None when it has no location."""

    def __init__(self, message: str, position: Position | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position

    def text(self) -> str:
        """The error as gqlparser's ``Error()`` writes it."""
        if self.position is None:
            return f"input: {self.message}"
        return f"input:{self.position.line}:{self.position.column}: {self.message}"


# The built-in definitions every schema is merged with (GraphQL spec, section
# "Type System" and "Introspection"), as gqlparser's prelude declares them.
_BUILTINS = """
scalar Int
scalar Float
scalar String
scalar Boolean
scalar ID
directive @defer(if: Boolean = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @include(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @skip(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @deprecated(reason: String = "No longer supported")
  on FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE
directive @specifiedBy(url: String!) on SCALAR
directive @oneOf on INPUT_OBJECT
type __Schema {
  description: String types: [__Type!]! queryType: __Type! mutationType: __Type
  subscriptionType: __Type directives: [__Directive!]!
}
type __Type {
  kind: __TypeKind! name: String description: String specifiedByURL: String
  fields(includeDeprecated: Boolean = false): [__Field!] interfaces: [__Type!]
  possibleTypes: [__Type!] enumValues(includeDeprecated: Boolean = false): [__EnumValue!]
  inputFields(includeDeprecated: Boolean = false): [__InputValue!] ofType: __Type
  isOneOf: Boolean
}
enum __TypeKind { SCALAR OBJECT INTERFACE UNION ENUM INPUT_OBJECT LIST NON_NULL }
type __Field {
  name: String! description: String args(includeDeprecated: Boolean = false): [__InputValue!]!
  type: __Type! isDeprecated: Boolean! deprecationReason: String
}
type __InputValue {
  name: String! description: String type: __Type! defaultValue: String
  isDeprecated: Boolean! deprecationReason: String
}
type __EnumValue {
  name: String! description: String isDeprecated: Boolean! deprecationReason: String
}
type __Directive {
  name: String! description: String isRepeatable: Boolean!
  locations: [__DirectiveLocation!]! args(includeDeprecated: Boolean = false): [__InputValue!]!
}
enum __DirectiveLocation {
  QUERY MUTATION SUBSCRIPTION FIELD FRAGMENT_DEFINITION FRAGMENT_SPREAD INLINE_FRAGMENT
  VARIABLE_DEFINITION SCHEMA SCALAR OBJECT FIELD_DEFINITION ARGUMENT_DEFINITION INTERFACE
  UNION ENUM ENUM_VALUE INPUT_OBJECT INPUT_FIELD_DEFINITION
}
"""

_BUILTIN_DIRECTIVES = frozenset(("include", "skip", "deprecated", "specifiedBy", "defer", "oneOf"))


@functools.cache
def _builtin_document() -> Node:
    doc = parse_schema(_BUILTINS)
    for definition in doc["Definitions"]:
        definition["BuiltIn"] = True
    return doc


@dataclass
class Schema:
    """gqlparser's ``ast.Schema``: definitions by name and the root operation types."""

    types: dict[str, Node] = field(default_factory=dict)
    directives: dict[str, Node] = field(default_factory=dict)
    possible_types: dict[str, list[Node | None]] = field(default_factory=dict)
    implements: dict[str, list[Node | None]] = field(default_factory=dict)
    query: Node | None = None
    mutation: Node | None = None
    subscription: Node | None = None

    def root(self, operation: str) -> Node | None:
        """The root type of an operation ("" means query)."""
        if operation in ("query", ""):
            return self.query
        if operation == "mutation":
            return self.mutation
        if operation == "subscription":
            return self.subscription
        return None


def items(node: Node | None, key: str) -> list[Any]:
    """A list field of a node (absent or null reads as empty)."""
    if node is None:
        return []
    return node.get(key) or []


def type_name(typ: Node | None) -> str:
    """``Type.Name()``: the named type at the bottom of list wrappers."""
    while typ is not None and not typ.get("NamedType"):
        typ = typ.get("Elem")
    if typ is None:
        # gqlparser dereferences a nil type here; OPA reports the panic as an error.
        raise GraphQLError("invalid type reference: neither a named type nor a list")
    return str(typ["NamedType"])


def type_string(typ: Node) -> str:
    """``Type.String()``: the type as written in GraphQL."""
    bang = "!" if typ.get("NonNull") else ""
    if typ.get("NamedType"):
        return f"{typ['NamedType']}{bang}"
    return f"[{type_string(typ['Elem'])}]{bang}"


def for_name(nodes: list[Node] | None, name: str) -> Node | None:
    """The first node called ``name`` (gqlparser's ``ForName``)."""
    for node in nodes or []:
        if node.get("Name") == name:
            return node
    return None


def is_input_type(definition: Node | None) -> bool:
    return definition is not None and definition.get("Kind") in ("SCALAR", "ENUM", "INPUT_OBJECT")


def build_schema(document: Node) -> Schema:
    """The validated schema of ``document`` merged after the built-in definitions;
    raises :class:`GraphQLError`."""
    builtin = copy.deepcopy(_builtin_document())
    doc = copy.deepcopy(document)
    merged = {
        key: items(builtin, key) + items(doc, key)
        for key in ("Schema", "SchemaExtension", "Directives", "Definitions", "Extensions")
    }
    schema = Schema()
    defs = _add_types(schema, merged["Definitions"], merged["Extensions"])
    _link_possible_types(schema, defs)
    for directive in merged["Directives"]:
        name = directive.get("Name", "")
        if schema.directives.get(name) is not None and name not in _BUILTIN_DIRECTIVES:
            raise GraphQLError(f"Cannot redeclare directive {name}.", directive.get("Position"))
        schema.directives[name] = directive
    _set_roots(schema, merged["Schema"], merged["SchemaExtension"])
    for name in sorted(schema.types):
        _check_definition(schema, schema.types[name])
    _check_input_cycles(schema)
    for name in sorted(schema.directives):
        directive = schema.directives[name]
        _check_name(directive.get("Position"), name)
        _check_args(schema, items(directive, "Arguments"), directive)
    if not merged["Schema"]:
        for operation, default in (
            ("query", "Query"),
            ("mutation", "Mutation"),
            ("subscription", "Subscription"),
        ):
            if getattr(schema, operation) is None and schema.types.get(default) is not None:
                setattr(schema, operation, schema.types[default])
    if schema.query is not None:
        schema.query["Fields"] = [
            *items(schema.query, "Fields"),
            {"Name": "__schema", "Type": {"NamedType": "__Schema", "NonNull": True}},
            {
                "Name": "__type",
                "Type": {"NamedType": "__Type", "NonNull": False},
                "Arguments": [{"Name": "name", "Type": {"NamedType": "String", "NonNull": True}}],
            },
        ]
    return schema


def _add_types(schema: Schema, definitions: list[Node], extensions: list[Node]) -> list[Node]:
    """Declare each type, then apply each extension to its type; every definition, in order."""
    for definition in definitions:
        name = definition.get("Name", "")
        if schema.types.get(name) is not None:
            raise GraphQLError(f"Cannot redeclare type {name}.", definition.get("Position"))
        schema.types[name] = definition
    defs = list(definitions)
    for ext in extensions:
        name = ext.get("Name", "")
        base = schema.types.get(name)
        if base is None:
            base = {"Kind": ext.get("Kind", ""), "Name": name}
            base["Position"] = ext.get("Position")
            schema.types[name] = base
            defs.append(base)
        if base.get("Kind", "") != ext.get("Kind", ""):
            raise GraphQLError(
                f"Cannot extend type {name} because the base type is a "
                f"{base.get('Kind', '')}, not {ext.get('Kind', '')}.",
                ext.get("Position"),
            )
        for key in ("Directives", "Interfaces", "Fields", "Types", "TypePositions", "EnumValues"):
            base[key] = items(base, key) + items(ext, key)
    return defs


def _link_possible_types(schema: Schema, defs: list[Node]) -> None:
    """Record the members of unions and the implementers of interfaces."""
    for definition in defs:
        kind, name = definition.get("Kind", ""), definition.get("Name", "")
        if kind == "UNION":
            for member in items(definition, "Types"):
                schema.possible_types.setdefault(name, []).append(schema.types.get(member))
                schema.implements.setdefault(member, []).append(definition)
        elif kind in ("INPUT_OBJECT", "OBJECT", "INTERFACE"):
            for interface in items(definition, "Interfaces"):
                schema.possible_types.setdefault(interface, []).append(definition)
                schema.implements.setdefault(name, []).append(schema.types.get(interface))
            if kind != "INTERFACE":
                schema.possible_types.setdefault(name, []).append(definition)


def _set_roots(schema: Schema, entries: list[Node], extensions: list[Node]) -> None:
    """The root operation types the schema definitions and their extensions name."""
    if len(entries) > 1:
        raise GraphQLError(
            "Cannot have multiple schema entry points, consider schema extensions instead.",
            entries[1].get("Position"),
        )
    for entry in entries + extensions:
        for operation in items(entry, "OperationTypes"):
            target = schema.types.get(operation.get("Type", ""))
            if target is None:
                raise GraphQLError(
                    f"Schema root {operation.get('Operation', '')} refers to a type "
                    f"{operation.get('Type', '')} that does not exist.",
                    operation.get("Position"),
                )
            if operation.get("Operation") in ("query", "mutation", "subscription"):
                setattr(schema, str(operation["Operation"]), target)
        _check_directives(schema, items(entry, "Directives"), "SCHEMA", None, True)


def _check_name(position: Position | None, name: str) -> None:
    if name.startswith("__"):
        raise GraphQLError(
            f'Name "{name}" must not begin with "__", which is reserved by GraphQL introspection.',
            position,
        )


def _check_type_ref(schema: Schema, typ: Node) -> None:
    if schema.types.get(type_name(typ)) is None:
        raise GraphQLError(f"Undefined type {type_name(typ)}.", typ.get("Position"))


def _check_args(schema: Schema, args: list[Node], directive: Node | None) -> None:
    for arg in args:
        _check_name(arg.get("Position"), arg.get("Name", ""))
        _check_type_ref(schema, arg["Type"])
        definition = schema.types[type_name(arg["Type"])]
        if not is_input_type(definition):
            raise GraphQLError(
                f"cannot use {type_string(arg['Type'])} as argument {arg.get('Name', '')} "
                f"because {definition.get('Kind', '')} is not a valid input type",
                arg.get("Position"),
            )
        _check_directives(schema, items(arg, "Directives"), "ARGUMENT_DEFINITION", directive, True)


def _check_directives(
    schema: Schema,
    directives: list[Node],
    location: str,
    current: Node | None,
    single_location: bool,
) -> None:
    seen: set[str] = set()
    for directive in directives:
        name = directive.get("Name", "")
        position = directive.get("Position")
        _check_name(position, name)
        if current is not None and name == current.get("Name"):
            raise GraphQLError(f"Directive {name} cannot refer to itself.", position)
        definition = schema.directives.get(name)
        if definition is None:
            raise GraphQLError(f"Undefined directive {name}.", position)
        if single_location:
            if name in seen and not definition.get("IsRepeatable"):
                raise GraphQLError(
                    f"The directive {name} can only be used once at this location.", position
                )
            seen.add(name)
        if location not in items(definition, "Locations"):
            raise GraphQLError(f"Directive {name} is not applicable on {location}.", position)
        for arg in items(directive, "Arguments"):
            if for_name(items(definition, "Arguments"), arg.get("Name", "")) is None:
                raise GraphQLError(
                    f"Undefined argument {arg.get('Name', '')} for directive {name}.",
                    arg.get("Position"),
                )
        for wanted in items(definition, "Arguments"):
            if wanted["Type"].get("NonNull") and wanted.get("DefaultValue") is None:
                arg = for_name(items(directive, "Arguments"), wanted.get("Name", ""))
                if arg is None or (arg.get("Value") or {}).get("Kind", 0) == NULL_VALUE:
                    raise GraphQLError(
                        f"Argument {wanted.get('Name', '')} for directive {name} cannot be null.",
                        position,
                    )


def _check_definition(schema: Schema, definition: Node) -> None:
    kind, name = definition.get("Kind", ""), definition.get("Name", "")
    position = definition.get("Position")
    fields = items(definition, "Fields")
    for fld in fields:
        _check_name(fld.get("Position"), fld.get("Name", ""))
        _check_type_ref(schema, fld["Type"])
        _check_args(schema, items(fld, "Arguments"), None)
        location = "INPUT_FIELD_DEFINITION" if kind == "INPUT_OBJECT" else "FIELD_DEFINITION"
        _check_directives(schema, items(fld, "Directives"), location, None, True)
    for member in items(definition, "Types"):
        member_def = schema.types.get(member)
        if member_def is None:
            raise GraphQLError(f"Undefined type {go_quote(member)}.", position)
        if member_def.get("Kind") != "OBJECT":
            raise GraphQLError(f"{kind} type {go_quote(member)} must be OBJECT.", position)
    for interface in items(definition, "Interfaces"):
        _check_implements(schema, definition, interface)
    if kind in ("OBJECT", "INTERFACE"):
        if not fields:
            raise GraphQLError(f"{kind} {name}: must define one or more fields.", position)
        for fld in fields:
            target = schema.types.get(type_name(fld["Type"]))
            if target is not None and target.get("Kind") not in (
                "SCALAR",
                "OBJECT",
                "INTERFACE",
                "UNION",
                "ENUM",
            ):
                raise GraphQLError(
                    f"{kind} {name}: field must be one of SCALAR, OBJECT, INTERFACE, UNION, ENUM.",
                    fld.get("Position"),
                )
    elif kind == "ENUM":
        values = items(definition, "EnumValues")
        if not values:
            raise GraphQLError(
                f"{kind} {name}: must define one or more unique enum values.", position
            )
        for value in values:
            if value.get("Name") in ("true", "false", "null"):
                raise GraphQLError(f"{kind} {name}: non-enum value {value.get('Name')}.", position)
            _check_directives(schema, items(value, "Directives"), "ENUM_VALUE", None, True)
    elif kind == "INPUT_OBJECT":
        if not fields:
            raise GraphQLError(f"{kind} {name}: must define one or more input fields.", position)
        for fld in fields:
            target = schema.types.get(type_name(fld["Type"]))
            if target is not None and target.get("Kind") not in ("SCALAR", "ENUM", "INPUT_OBJECT"):
                raise GraphQLError(
                    f"{target.get('Kind', '')} {fld.get('Name', '')}: field must be one of "
                    "SCALAR, ENUM, INPUT_OBJECT.",
                    fld.get("Position"),
                )
    _check_unique_members(definition, fields)
    if not definition.get("BuiltIn"):
        _check_name(position, name)
    _check_directives(schema, items(definition, "Directives"), kind, None, False)


def _check_unique_members(definition: Node, fields: list[Node]) -> None:
    """Each field, enum value and union member of a definition appears once."""
    name, position = definition.get("Name", ""), definition.get("Position")
    for i, first in enumerate(fields):
        for second in fields[i + 1 :]:
            if first.get("Name", "") == second.get("Name", ""):
                raise GraphQLError(
                    f"Field {name}.{second.get('Name', '')} can only be defined once.",
                    second.get("Position"),
                )
    values = items(definition, "EnumValues")
    for i, first in enumerate(values):
        for second in values[i + 1 :]:
            if first.get("Name", "") == second.get("Name", ""):
                raise GraphQLError(
                    f"Enum value {name}.{second.get('Name', '')} can only be defined once.",
                    second.get("Position"),
                )
    members = items(definition, "Types")
    member_positions = items(definition, "TypePositions")
    for i, first in enumerate(members):
        for j in range(i + 1, len(members)):
            if first != members[j]:
                continue
            where = position
            if len(member_positions) == len(members) and member_positions[j] is not None:
                where = member_positions[j]
            raise GraphQLError(f"Union type {name} can only include type {members[j]} once.", where)


def _check_implements(schema: Schema, definition: Node, interface_name: str) -> None:
    name, position = definition.get("Name", ""), definition.get("Position")
    interface = schema.types.get(interface_name)
    if interface is None:
        raise GraphQLError(f"Undefined type {go_quote(interface_name)}.", position)
    if interface.get("Kind") != "INTERFACE":
        raise GraphQLError(
            f"{go_quote(interface_name)} is a non interface type {interface.get('Kind', '')}.",
            position,
        )
    iname = interface.get("Name", "")
    for required in items(interface, "Fields"):
        rname = required.get("Name", "")
        found = for_name(items(definition, "Fields"), rname)
        if found is None:
            raise GraphQLError(
                f"For {name} to implement {iname} it must have a field called {rname}.", position
            )
        if not _is_covariant(schema, required["Type"], found["Type"]):
            raise GraphQLError(
                f"For {name} to implement {iname} the field {rname} must have type "
                f"{type_string(required['Type'])}.",
                found.get("Position"),
            )
        for required_arg in items(required, "Arguments"):
            aname = required_arg.get("Name", "")
            found_arg = for_name(items(found, "Arguments"), aname)
            if found_arg is None:
                raise GraphQLError(
                    f"For {name} to implement {iname} the field {rname} must have the same "
                    f"arguments but it is missing {aname}.",
                    found.get("Position"),
                )
            if not is_compatible(required_arg["Type"], found_arg["Type"]):
                raise GraphQLError(
                    f"For {name} to implement {iname} the field {rname} must have the same "
                    f"arguments but {aname} has the wrong type.",
                    found_arg.get("Position"),
                )
        for found_arg in items(found, "Arguments"):
            if (
                for_name(items(required, "Arguments"), found_arg.get("Name", "")) is None
                and found_arg["Type"].get("NonNull")
                and found_arg.get("DefaultValue") is None
            ):
                raise GraphQLError(
                    f"For {name} to implement {iname} any additional arguments on "
                    f"{found.get('Name', '')} must be optional or have a default value but "
                    f"{found_arg.get('Name', '')} is required.",
                    found_arg.get("Position"),
                )
    for transitive in items(interface, "Interfaces"):
        if transitive not in items(definition, "Interfaces"):
            if transitive == name:
                raise GraphQLError(
                    f"Type {name} cannot implement {interface_name} because it would create "
                    "a circular reference.",
                    position,
                )
            raise GraphQLError(
                f"Type {name} must implement {transitive} because it is implemented by "
                f"{interface_name}.",
                position,
            )


def is_compatible(typ: Node, other: Node) -> bool:
    """``Type.IsCompatible``."""
    if typ.get("NamedType", "") != other.get("NamedType", ""):
        return False
    if typ.get("Elem") is not None and other.get("Elem") is None:
        return False
    if typ.get("Elem") is not None and not is_compatible(typ["Elem"], other["Elem"]):
        return False
    if other.get("NonNull"):
        return bool(typ.get("NonNull"))
    return True


def _is_covariant(schema: Schema, required: Node, actual: Node) -> bool:
    if required.get("NonNull") and not actual.get("NonNull"):
        return False
    if required.get("NamedType"):
        if required["NamedType"] == actual.get("NamedType", ""):
            return True
        return any(
            possible is not None and possible.get("Name") == actual.get("NamedType", "")
            for possible in schema.possible_types.get(required["NamedType"], [])
        )
    if required.get("Elem") is not None and actual.get("Elem") is None:
        return False
    return _is_covariant(schema, required["Elem"], actual["Elem"])


def _check_input_cycles(schema: Schema) -> None:
    visited: set[str] = set()
    path: list[Node] = []
    index_by_type: dict[str, int] = {}

    def detect(definition: Node) -> None:
        name = definition.get("Name", "")
        if name in visited:
            return
        visited.add(name)
        index_by_type[name] = len(path)
        for fld in items(definition, "Fields"):
            typ = fld["Type"]
            if not typ.get("NonNull") or not typ.get("NamedType"):
                continue
            target = schema.types.get(typ["NamedType"])
            if target is None or target.get("Kind") != "INPUT_OBJECT":
                continue
            path.append(fld)
            target_name = target.get("Name", "")
            if target_name in index_by_type:
                cycle = path[index_by_type[target_name] :]
                names = ".".join(f.get("Name", "") for f in cycle)
                raise GraphQLError(
                    f"Cannot reference Input Object {go_quote(target_name)} within itself "
                    f"through a series of non-null fields: {go_quote(names)}.",
                    cycle[0].get("Position"),
                )
            detect(target)
            path.pop()
        del index_by_type[name]

    for name in sorted(schema.types):
        if schema.types[name].get("Kind") == "INPUT_OBJECT":
            detect(schema.types[name])
