"""Validating a GraphQL query against a schema with gqlparser's default rules.

The query document is walked as gqlparser's validator walks it, annotating
nodes with their definitions, and every rule observes the walk in gqlparser's
order (rules sorted by name), so the errors come out in gqlparser's order and
words (:func:`graphql_rules.validate_query` runs them).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.wasm.host_builtins.graphql_schema import (
    GraphQLError,
    Schema,
    for_name,
    items,
    type_name,
)
from engine.wasm.host_builtins.graphql_syntax import (
    BLOCK_VALUE,
    BOOLEAN_VALUE,
    FLOAT_VALUE,
    INT_VALUE,
    LIST_VALUE,
    NULL_VALUE,
    OBJECT_VALUE,
    STRING_VALUE,
    VARIABLE,
    Node,
    go_quote,
)

Observer = Callable[..., None]


def selection_kind(node: Node) -> str:
    """ "field", "inline" or "spread" (decoded AST objects are always fields)."""
    if "Alias" in node:
        return "field"
    if "TypeCondition" in node:
        return "inline"
    return "spread"


def value_string(value: Node) -> str:
    """``Value.String()``."""
    kind, raw = value.get("Kind", 0), value.get("Raw", "")
    if kind == VARIABLE:
        return "$" + raw
    if kind in (STRING_VALUE, BLOCK_VALUE):
        return go_quote(raw)
    if kind == LIST_VALUE:
        return "[" + ",".join(value_string(c["Value"]) for c in items(value, "Children")) + "]"
    if kind == OBJECT_VALUE:
        parts = [
            f"{c.get('Name', '')}:{value_string(c['Value'])}" for c in items(value, "Children")
        ]
        return "{" + ",".join(parts) + "}"
    return str(raw)


def is_decimal(raw: str) -> bool:
    """Whether Go's ``strconv.ParseInt(raw, 10, _)`` reads ``raw`` as digits."""
    text = raw[1:] if raw[:1] in "+-" else raw
    return bool(text) and text.isascii() and text.isdigit()


def go_int(raw: str, bits: int) -> bool:
    """Whether Go's ``strconv.ParseInt(raw, 10, bits)`` succeeds."""
    return is_decimal(raw) and -(2 ** (bits - 1)) <= int(raw) < 2 ** (bits - 1)


_GO_BOOLS = frozenset(("1", "t", "T", "TRUE", "true", "True"))
_GO_BOOLS |= {"0", "f", "F", "FALSE", "false", "False"}


_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")


def value_fails(value: Node | None) -> bool:
    """Whether ``Value.Value(nil)`` returns an error."""
    if value is None:
        return False
    kind, raw = value.get("Kind", 0), value.get("Raw", "")
    if kind == VARIABLE:
        definition = value.get("VariableDefinition")
        return definition is not None and value_fails(definition.get("DefaultValue"))
    if kind == INT_VALUE:
        return not go_int(raw, 64)
    if kind == FLOAT_VALUE:
        if raw.lower().lstrip("+-") in ("inf", "infinity", "nan"):
            return False
        return not _DECIMAL.match(raw) or math.isinf(float(raw))
    if kind == BOOLEAN_VALUE:
        return raw not in _GO_BOOLS
    if kind in (LIST_VALUE, OBJECT_VALUE):
        return any(value_fails(c.get("Value")) for c in items(value, "Children"))
    return False


def _levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def suggestion_list(typed: str, options: list[str]) -> list[str]:
    """gqlparser's ``SuggestionList``: options within a lexical distance, closest first."""
    threshold = max(math.floor(len(typed.encode()) * 0.4) + 1, 1)
    found: list[tuple[int, str]] = []
    for option in options:
        if option == typed:
            distance = 0
        elif option.lower() == typed.lower():
            distance = 1
        else:
            distance = _levenshtein(typed.lower(), option.lower())
        if distance <= threshold:
            found.append((distance, option))
    found.sort(key=lambda pair: pair[0])
    return [option for _, option in found]


def or_list(names: list[str]) -> str:
    """gqlparser's ``OrList`` (at most five items)."""
    names = names[:5]
    if len(names) == 2:
        return f"{names[0]} or {names[1]}"
    if len(names) > 1:
        return ", ".join(names[:-1]) + ", or " + names[-1]
    return "".join(names)


def quoted_or_list(names: list[str]) -> str:
    return or_list([f'"{n}"' for n in names])


def suggest(prefix: str, typed: str, options: list[str], quoted: bool = True) -> str:
    found = suggestion_list(typed, options)
    if not found:
        return ""
    listed = quoted_or_list(found) if quoted else or_list(found)
    return f" {prefix} {listed}?"


def definition_kind(definition: Node | None) -> str:
    return "" if definition is None else str(definition.get("Kind", ""))


def is_composite(definition: Node | None) -> bool:
    return definition_kind(definition) in ("OBJECT", "INTERFACE", "UNION")


def is_leaf(definition: Node | None) -> bool:
    return definition_kind(definition) in ("ENUM", "SCALAR")


@dataclass
class Events:
    """The walk's observers, by event, in registration order."""

    operation: list[Observer] = dataclasses.field(default_factory=list)
    field: list[Observer] = dataclasses.field(default_factory=list)
    fragment: list[Observer] = dataclasses.field(default_factory=list)
    inline: list[Observer] = dataclasses.field(default_factory=list)
    spread: list[Observer] = dataclasses.field(default_factory=list)
    directive: list[Observer] = dataclasses.field(default_factory=list)
    directive_list: list[Observer] = dataclasses.field(default_factory=list)
    value: list[Observer] = dataclasses.field(default_factory=list)
    variable: list[Observer] = dataclasses.field(default_factory=list)


class Walker:
    """gqlparser's ``core.Walker`` over a (copied) query document."""

    def __init__(self, schema: Schema, document: Node, events: Events) -> None:
        self.schema = schema
        self.document = document
        self.events = events
        self.current_operation: Node | None = None
        self._validated_spreads: set[str] = set()

    def walk(self) -> None:
        for operation in items(self.document, "Operations"):
            self._validated_spreads = set()
            self._operation(operation)
        for fragment in items(self.document, "Fragments"):
            self._validated_spreads = set()
            self._fragment(fragment)

    def _operation(self, operation: Node) -> None:
        self.current_operation = operation
        for var in items(operation, "VariableDefinitions"):
            var["Definition"] = self.schema.types.get(type_name(var.get("Type")))
            for observer in self.events.variable:
                observer(self, var)
            if var.get("DefaultValue") is not None:
                var["DefaultValue"]["ExpectedType"] = var["Type"]
                var["DefaultValue"]["Definition"] = var["Definition"]
        op = operation.get("Operation", "")
        definition = self.schema.root(op)
        location = {"query": "QUERY", "": "QUERY", "mutation": "MUTATION"}.get(op, "")
        if op == "subscription":
            location = "SUBSCRIPTION"
        for var in items(operation, "VariableDefinitions"):
            if var.get("DefaultValue") is not None:
                self._value(var["DefaultValue"])
            self._directives(var["Definition"], items(var, "Directives"), "VARIABLE_DEFINITION")
        self._directives(definition, items(operation, "Directives"), location)
        self._selection_set(definition, items(operation, "SelectionSet"))
        for observer in self.events.operation:
            observer(self, operation)
        self.current_operation = None

    def _fragment(self, fragment: Node) -> None:
        definition = self.schema.types.get(fragment.get("TypeCondition", ""))
        fragment["Definition"] = definition
        self._directives(definition, items(fragment, "Directives"), "FRAGMENT_DEFINITION")
        self._selection_set(definition, items(fragment, "SelectionSet"))
        for observer in self.events.fragment:
            observer(self, fragment)

    def _directives(self, parent: Node | None, directives: list[Node], location: str) -> None:
        for directive in directives:
            definition = self.schema.directives.get(directive.get("Name", ""))
            directive["Definition"] = definition
            directive["ParentDefinition"] = parent
            directive["Location"] = location
            for arg in items(directive, "Arguments"):
                arg_def = None
                if definition is not None:
                    arg_def = for_name(items(definition, "Arguments"), arg.get("Name", ""))
                self._argument(arg_def, arg)
            for observer in self.events.directive:
                observer(self, directive)
        for observer in self.events.directive_list:
            observer(self, directives)

    def _value(self, value: Node) -> None:
        kind = value.get("Kind", 0)
        if kind == VARIABLE and self.current_operation is not None:
            var = for_name_variable(self.current_operation, value.get("Raw", ""))
            value["VariableDefinition"] = var
            if var is not None:
                var["Used"] = True
        if kind == OBJECT_VALUE:
            for child in items(value, "Children"):
                if value.get("Definition") is not None:
                    field_def = for_name(
                        items(value["Definition"], "Fields"), child.get("Name", "")
                    )
                    if field_def is not None:
                        default = field_def.get("DefaultValue")
                        child["Value"]["ExpectedType"] = field_def["Type"]
                        child["Value"]["ExpectedTypeHasDefault"] = (
                            default is not None and default.get("Kind", 0) != NULL_VALUE
                        )
                        child["Value"]["Definition"] = self.schema.types.get(
                            type_name(field_def["Type"])
                        )
                self._value(child["Value"])
        if kind == LIST_VALUE:
            for child in items(value, "Children"):
                expected = value.get("ExpectedType")
                if expected is not None and expected.get("Elem") is not None:
                    child["Value"]["ExpectedType"] = expected["Elem"]
                    child["Value"]["Definition"] = value.get("Definition")
                self._value(child["Value"])
        for observer in self.events.value:
            observer(self, value)

    def _argument(self, arg_def: Node | None, arg: Node) -> None:
        value = arg.get("Value")
        if value is None:
            raise GraphQLError("argument without a value")
        if arg_def is not None:
            default = arg_def.get("DefaultValue")
            value["ExpectedType"] = arg_def["Type"]
            value["ExpectedTypeHasDefault"] = (
                default is not None and default.get("Kind", 0) != NULL_VALUE
            )
            value["Definition"] = self.schema.types.get(type_name(arg_def["Type"]))
        self._value(value)

    def _selection_set(self, parent: Node | None, selections: list[Node]) -> None:
        for selection in selections:
            self._selection(parent, selection)

    def _selection(self, parent: Node | None, node: Node) -> None:
        kind = selection_kind(node)
        if kind == "field":
            definition: Node | None = None
            if node.get("Name") == "__typename":
                definition = {"Name": "__typename", "Type": {"NamedType": "String"}}
            elif parent is not None:
                definition = for_name(items(parent, "Fields"), node.get("Name", ""))
            node["Definition"] = definition
            node["ObjectDefinition"] = parent
            next_parent = None
            if definition is not None:
                next_parent = self.schema.types.get(type_name(definition["Type"]))
            for arg in items(node, "Arguments"):
                arg_def = None
                if definition is not None:
                    arg_def = for_name(items(definition, "Arguments"), arg.get("Name", ""))
                self._argument(arg_def, arg)
            self._directives(next_parent, items(node, "Directives"), "FIELD")
            self._selection_set(next_parent, items(node, "SelectionSet"))
            for observer in self.events.field:
                observer(self, node)
        elif kind == "inline":
            node["ObjectDefinition"] = parent
            next_parent = parent
            if node.get("TypeCondition"):
                next_parent = self.schema.types.get(node["TypeCondition"])
            self._directives(next_parent, items(node, "Directives"), "INLINE_FRAGMENT")
            self._selection_set(next_parent, items(node, "SelectionSet"))
            for observer in self.events.inline:
                observer(self, node)
        else:
            fragment = for_name(items(self.document, "Fragments"), node.get("Name", ""))
            node["Definition"] = fragment
            node["ObjectDefinition"] = parent
            next_parent = None
            if fragment is not None:
                next_parent = self.schema.types.get(fragment.get("TypeCondition", ""))
            self._directives(next_parent, items(node, "Directives"), "FRAGMENT_SPREAD")
            if fragment is not None and fragment.get("Name", "") not in self._validated_spreads:
                self._validated_spreads.add(fragment.get("Name", ""))
                self._directives(next_parent, items(fragment, "Directives"), "FRAGMENT_DEFINITION")
                self._selection_set(next_parent, items(fragment, "SelectionSet"))
            for observer in self.events.spread:
                observer(self, node)


def for_name_variable(operation: Node, name: str) -> Node | None:
    for var in items(operation, "VariableDefinitions"):
        if var.get("Variable") == name:
            return var
    return None
