"""gqlparser's default query validation rules, and :func:`validate_query` running them.

Each rule registers observers on the walk of
:mod:`engine.wasm.host_builtins.graphql_validation`; rules are registered in
name order, as gqlparser's ``ValidateWithRules`` does, so errors keep its order.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from engine.wasm.host_builtins.graphql_schema import (
    GraphQLError,
    Schema,
    for_name,
    is_compatible,
    is_input_type,
    items,
    type_name,
    type_string,
)
from engine.wasm.host_builtins.graphql_syntax import (
    BLOCK_VALUE,
    BOOLEAN_VALUE,
    ENUM_VALUE,
    FLOAT_VALUE,
    INT_VALUE,
    LIST_VALUE,
    NULL_VALUE,
    OBJECT_VALUE,
    STRING_VALUE,
    VARIABLE,
    Node,
    Position,
    go_quote,
)
from engine.wasm.host_builtins.graphql_validation import (
    Events,
    Walker,
    definition_kind,
    go_int,
    is_composite,
    is_decimal,
    is_leaf,
    quoted_or_list,
    selection_kind,
    suggest,
    suggestion_list,
    value_fails,
    value_string,
)

Report = Callable[[str, "Position | None"], None]


def _pos(node: Node | None) -> Position | None:
    return None if node is None else node.get("Position")


def fields_on_correct_type(ev: Events, report: Report) -> None:
    def on_field(w: Walker, fld: Node) -> None:
        parent = fld.get("ObjectDefinition")
        if parent is None or fld.get("Definition") is not None:
            return
        name = fld.get("Name", "")
        message = f'Cannot query field "{name}" on type "{parent.get("Name", "")}".'
        suggested = _suggested_type_names(w, parent, name)
        if suggested is not None:
            message += f" Did you mean to use an inline fragment on {quoted_or_list(suggested)}?"
        elif definition_kind(parent) in ("OBJECT", "INTERFACE"):
            names = suggestion_list(name, [f.get("Name", "") for f in items(parent, "Fields")])
            if names:
                message += f" Did you mean {quoted_or_list(names)}?"
        report(message, _pos(fld))

    ev.field.append(on_field)


def _suggested_type_names(w: Walker, parent: Node, name: str) -> list[str] | None:
    if definition_kind(parent) not in ("INTERFACE", "UNION"):
        return None
    objects: list[str] = []
    interfaces: list[str] = []
    usage: dict[str, int] = {}
    for possible in w.schema.possible_types.get(parent.get("Name", ""), []):
        if possible is None or for_name(items(possible, "Fields"), name) is None:
            continue
        objects.append(possible.get("Name", ""))
        for interface in items(possible, "Interfaces"):
            idef = w.schema.types.get(interface)
            if idef is not None and for_name(items(idef, "Fields"), name) is not None:
                if usage.get(interface, 0) == 0:
                    interfaces.append(interface)
                usage[interface] = usage.get(interface, 0) + 1
    suggested = interfaces + objects
    suggested.sort(key=lambda t: (-usage.get(t, 0), t))
    return suggested


def fragments_on_composite_types(ev: Events, report: Report) -> None:
    def on_inline(w: Walker, node: Node) -> None:
        condition = node.get("TypeCondition", "")
        target = w.schema.types.get(condition)
        if target is None or is_composite(target):
            return
        report(f'Fragment cannot condition on non composite type "{condition}".', _pos(node))

    def on_fragment(w: Walker, node: Node) -> None:
        if (
            node.get("Definition") is None
            or not node.get("TypeCondition")
            or is_composite(node["Definition"])
        ):
            return
        report(
            f'Fragment "{node.get("Name", "")}" cannot condition on non composite type '
            f'"{node["TypeCondition"]}".',
            _pos(node),
        )

    ev.inline.append(on_inline)
    ev.fragment.append(on_fragment)


def known_argument_names(ev: Events, report: Report) -> None:
    def on_field(w: Walker, fld: Node) -> None:
        definition, parent = fld.get("Definition"), fld.get("ObjectDefinition")
        if definition is None or parent is None:
            return
        known = [a.get("Name", "") for a in items(definition, "Arguments")]
        for arg in items(fld, "Arguments"):
            name = arg.get("Name", "")
            if for_name(items(definition, "Arguments"), name) is not None:
                continue
            report(
                f'Unknown argument "{name}" on field "{parent.get("Name", "")}.'
                f'{fld.get("Name", "")}".' + suggest("Did you mean", name, known),
                _pos(fld),
            )

    def on_directive(w: Walker, directive: Node) -> None:
        definition = directive.get("Definition")
        if definition is None:
            return
        known = [a.get("Name", "") for a in items(definition, "Arguments")]
        for arg in items(directive, "Arguments"):
            name = arg.get("Name", "")
            if for_name(items(definition, "Arguments"), name) is not None:
                continue
            report(
                f'Unknown argument "{name}" on directive "@{directive.get("Name", "")}".'
                + suggest("Did you mean", name, known),
                _pos(directive),
            )

    ev.field.append(on_field)
    ev.directive.append(on_directive)


def known_directives(ev: Events, report: Report) -> None:
    seen: set[tuple[str, int, int]] = set()

    def on_directive(w: Walker, directive: Node) -> None:
        name = directive.get("Name", "")
        definition = directive.get("Definition")
        if definition is None:
            report(f'Unknown directive "@{name}".', _pos(directive))
            return
        if directive.get("Location") in items(definition, "Locations"):
            return
        position = _pos(directive)
        key = (name, position.line if position else 0, position.column if position else 0)
        if key not in seen:
            report(f'Directive "@{name}" may not be used on {directive.get("Location")}.', position)
            seen.add(key)

    ev.directive.append(on_directive)


def known_fragment_names(ev: Events, report: Report) -> None:
    def on_spread(w: Walker, node: Node) -> None:
        if node.get("Definition") is None:
            report(f'Unknown fragment "{node.get("Name", "")}".', _pos(node))

    ev.spread.append(on_spread)


def known_root_type(ev: Events, report: Report) -> None:
    def on_operation(w: Walker, operation: Node) -> None:
        op = operation.get("Operation", "")
        if op not in ("query", "mutation", "subscription", ""):
            raise ValueError(f'got unknown operation type "{op}"')
        if w.schema.root(op) is None:
            report(f'Schema does not support operation type "{op}"', _pos(operation))

    ev.operation.append(on_operation)


def known_type_names(ev: Events, report: Report) -> None:
    def on_variable(w: Walker, var: Node) -> None:
        name = type_name(var.get("Type"))
        if w.schema.types.get(name) is None:
            report(f'Unknown type "{name}".', _pos(var))

    def on_inline(w: Walker, node: Node) -> None:
        name = node.get("TypeCondition", "")
        if name and w.schema.types.get(name) is None:
            report(f'Unknown type "{name}".', _pos(node))

    def on_fragment(w: Walker, node: Node) -> None:
        name = node.get("TypeCondition", "")
        if w.schema.types.get(name) is not None:
            return
        known = sorted(str(t.get("Name", "")) for t in w.schema.types.values())
        report(f'Unknown type "{name}".' + suggest("Did you mean", name, known), _pos(node))

    ev.variable.append(on_variable)
    ev.inline.append(on_inline)
    ev.fragment.append(on_fragment)


def lone_anonymous_operation(ev: Events, report: Report) -> None:
    def on_operation(w: Walker, operation: Node) -> None:
        if not operation.get("Name") and len(items(w.document, "Operations")) > 1:
            report("This anonymous operation must be the only defined operation.", _pos(operation))

    ev.operation.append(on_operation)


_LIST_FIELDS = frozenset(("fields", "interfaces", "possibleTypes", "inputFields"))


def _depth_set(selections: list[Node], visited: set[str], depth: int) -> bool:
    for child in selections:
        kind = selection_kind(child)
        if kind == "field" and _depth_field(child, visited, depth):
            return True
        if kind == "spread":
            name = child.get("Name", "")
            fragment = child.get("Definition")
            if name in visited or fragment is None:
                continue
            visited.add(name)
            try:
                if _depth_set(items(fragment, "SelectionSet"), visited, depth):
                    return True
            finally:
                visited.discard(name)
        if kind == "inline" and _depth_set(items(child, "SelectionSet"), visited, depth):
            return True
    return False


def _depth_field(fld: Node, visited: set[str], depth: int) -> bool:
    if fld.get("Name") in _LIST_FIELDS:
        depth += 1
        if depth >= 3:
            return True
    return _depth_set(items(fld, "SelectionSet"), visited, depth)


def max_introspection_depth(ev: Events, report: Report) -> None:
    def on_field(w: Walker, fld: Node) -> None:
        if fld.get("Name") in ("__schema", "__type") and _depth_field(fld, set(), 0):
            report("Maximum introspection depth exceeded", _pos(fld))

    ev.field.append(on_field)


def _fragment_spreads(selections: list[Node]) -> list[Node]:
    spreads: list[Node] = []
    to_visit = [selections]
    while to_visit:
        for selection in to_visit.pop():
            if selection_kind(selection) == "spread":
                spreads.append(selection)
            else:
                to_visit.append(items(selection, "SelectionSet"))
    return spreads


def no_fragment_cycles(ev: Events, report: Report) -> None:
    visited: set[str] = set()

    def on_fragment(w: Walker, fragment: Node) -> None:
        path: list[Node] = []
        index_by_name: dict[str, int] = {}

        def recurse(frag: Node) -> None:
            name = frag.get("Name", "")
            if name in visited:
                return
            visited.add(name)
            spreads = _fragment_spreads(items(frag, "SelectionSet"))
            if not spreads:
                return
            index_by_name[name] = len(path)
            for spread in spreads:
                spread_name = spread.get("Name", "")
                cycle_index = index_by_name.get(spread_name)
                path.append(spread)
                if cycle_index is None:
                    target = for_name(items(w.document, "Fragments"), spread_name)
                    if target is not None:
                        recurse(target)
                else:
                    names = [f'"{s.get("Name", "")}"' for s in path[cycle_index:-1]]
                    via = f" via {', '.join(names)}" if names else ""
                    report(
                        f'Cannot spread fragment "{spread_name}" within itself{via}.',
                        _pos(spread),
                    )
                path.pop()
            del index_by_name[name]

        recurse(fragment)

    ev.fragment.append(on_fragment)


def no_undefined_variables(ev: Events, report: Report) -> None:
    def on_value(w: Walker, value: Node) -> None:
        operation = w.current_operation
        if (
            operation is None
            or value.get("Kind", 0) != VARIABLE
            or value.get("VariableDefinition") is not None
        ):
            return
        if operation.get("Name"):
            report(
                f'Variable "{value_string(value)}" is not defined by operation '
                f'"{operation["Name"]}".',
                _pos(value),
            )
        else:
            report(f'Variable "{value_string(value)}" is not defined.', _pos(value))

    ev.value.append(on_value)


def no_unused_fragments(ev: Events, report: Report) -> None:
    state = {"in_fragment": False}
    used: set[str] = set()

    def on_spread(w: Walker, node: Node) -> None:
        if not state["in_fragment"]:
            used.add(node.get("Name", ""))

    def on_fragment(w: Walker, fragment: Node) -> None:
        state["in_fragment"] = True
        if fragment.get("Name", "") not in used:
            report(f'Fragment "{fragment.get("Name", "")}" is never used.', _pos(fragment))

    ev.spread.append(on_spread)
    ev.fragment.append(on_fragment)


def no_unused_variables(ev: Events, report: Report) -> None:
    def on_operation(w: Walker, operation: Node) -> None:
        for var in items(operation, "VariableDefinitions"):
            if var.get("Used"):
                continue
            name = var.get("Variable", "")
            if operation.get("Name"):
                report(
                    f'Variable "${name}" is never used in operation "{operation["Name"]}".',
                    _pos(var),
                )
            else:
                report(f'Variable "${name}" is never used.', _pos(var))

    ev.operation.append(on_operation)


class _Conflict:
    """A conflict between two fields of one response name, maybe with sub-conflicts."""

    def __init__(
        self,
        response_name: str,
        position: Position | None,
        message: str = "",
        sub: list[_Conflict] | None = None,
    ) -> None:
        self.response_name = response_name
        self.position = position
        self.message = message
        self.sub = sub or []

    def reason(self) -> str:
        if not self.sub:
            return self.message
        return " and ".join(
            f'subfields "{s.response_name}" conflict because {s.reason()}' for s in self.sub
        )


_FieldsMap = dict[str, list[Node]]


def _fields_and_spreads(selections: list[Node]) -> tuple[_FieldsMap, list[Node]]:
    fields: _FieldsMap = {}
    spreads: list[Node] = []

    def walk(nodes: list[Node]) -> None:
        for node in nodes:
            kind = selection_kind(node)
            if kind == "field":
                fields.setdefault(node.get("Alias") or node.get("Name", ""), []).append(node)
            elif kind == "inline":
                walk(items(node, "SelectionSet"))
            else:
                spreads.append(node)

    walk(selections)
    return fields, spreads


def _same_value(a: Node | None, b: Node | None) -> bool:
    if a is None or b is None:
        return a is b
    if a.get("Kind", 0) != b.get("Kind", 0) or a.get("Raw", "") != b.get("Raw", ""):
        return False
    ca, cb = items(a, "Children"), items(b, "Children")
    if len(ca) != len(cb):
        return False
    if a.get("Kind", 0) == OBJECT_VALUE:
        ca = sorted(ca, key=lambda c: c.get("Name", "").encode())
        cb = sorted(cb, key=lambda c: c.get("Name", "").encode())
    return all(
        x.get("Name", "") == y.get("Name", "") and _same_value(x.get("Value"), y.get("Value"))
        for x, y in zip(ca, cb, strict=True)
    )


def _same_arguments(a: list[Node], b: list[Node]) -> bool:
    if len(a) != len(b):
        return False
    return all(
        any(
            x.get("Name", "") == y.get("Name", "") and _same_value(x.get("Value"), y.get("Value"))
            for y in b
        )
        for x in a
    )


def _types_conflict(schema: Schema, a: Node, b: Node) -> bool:
    if a.get("Elem") is not None:
        if b.get("Elem") is not None:
            return _types_conflict(schema, a["Elem"], b["Elem"])
        return True
    if b.get("Elem") is not None:
        return True
    if bool(a.get("NonNull")) != bool(b.get("NonNull")):
        return True
    ta = schema.types.get(a.get("NamedType", ""))
    tb = schema.types.get(b.get("NamedType", ""))
    if ta is None or tb is None:
        raise ValueError("field type missing from the schema")
    if is_leaf(ta) and is_leaf(tb):
        return ta.get("Name") != tb.get("Name")
    return False


class _Overlap:
    """gqlparser's ``overlappingFieldsCanBeMergedManager``."""

    def __init__(self) -> None:
        self.schema = Schema()
        self.compared_pairs: dict[str, dict[str, bool]] = {}
        self.compared_fragments: set[str] = set()

    def _pair_has(self, a: str, b: str, exclusive: bool) -> bool:
        if a not in self.compared_pairs or b not in self.compared_pairs[a]:
            return False
        return True if exclusive else not self.compared_pairs[a][b]

    def _pair_add(self, a: str, b: str, exclusive: bool) -> None:
        self.compared_pairs.setdefault(a, {})[b] = exclusive
        self.compared_pairs.setdefault(b, {})[a] = exclusive

    def within(self, selections: list[Node]) -> list[_Conflict]:
        if not selections:
            return []
        fields, spreads = _fields_and_spreads(selections)
        conflicts: list[_Conflict] = []
        for group in fields.values():
            for i, a in enumerate(group):
                for b in group[i + 1 :]:
                    self._add(conflicts, self._find(False, a, b))
        self.compared_fragments = set()
        for i, spread_a in enumerate(spreads):
            self._fields_and_fragment(conflicts, False, fields, spread_a)
            for spread_b in spreads[i + 1 :]:
                self._between_fragments(conflicts, False, spread_a, spread_b)
        return conflicts

    @staticmethod
    def _add(conflicts: list[_Conflict], conflict: _Conflict | None) -> None:
        if conflict is not None:
            conflicts.append(conflict)

    def _fields_and_fragment(
        self, conflicts: list[_Conflict], exclusive: bool, fields: _FieldsMap, spread: Node
    ) -> None:
        name = spread.get("Name", "")
        if name in self.compared_fragments:
            return
        self.compared_fragments.add(name)
        fragment = spread.get("Definition")
        if fragment is None:
            return
        fields_b, spreads = _fields_and_spreads(items(fragment, "SelectionSet"))
        if _same_fields(fields, fields_b):
            return
        self._between(conflicts, exclusive, fields, fields_b)
        for other in spreads:
            if other.get("Name", "") == name:
                continue
            self._fields_and_fragment(conflicts, exclusive, fields, other)

    def _between_fragments(
        self, conflicts: list[_Conflict], exclusive: bool, spread_a: Node, spread_b: Node
    ) -> None:
        name_a, name_b = spread_a.get("Name", ""), spread_b.get("Name", "")
        if name_a == name_b or self._pair_has(name_a, name_b, exclusive):
            return
        self._pair_add(name_a, name_b, exclusive)
        frag_a, frag_b = spread_a.get("Definition"), spread_b.get("Definition")
        if frag_a is None or frag_b is None:
            return
        fields_a, spreads_a = _fields_and_spreads(items(frag_a, "SelectionSet"))
        fields_b, spreads_b = _fields_and_spreads(items(frag_b, "SelectionSet"))
        self._between(conflicts, exclusive, fields_a, fields_b)
        for spread in spreads_b:
            self._between_fragments(conflicts, exclusive, spread_a, spread)
        for spread in spreads_a:
            self._between_fragments(conflicts, exclusive, spread, spread_b)

    def _between_sub_selections(
        self, exclusive: bool, set_a: list[Node], set_b: list[Node]
    ) -> list[_Conflict]:
        conflicts: list[_Conflict] = []
        fields_a, spreads_a = _fields_and_spreads(set_a)
        fields_b, spreads_b = _fields_and_spreads(set_b)
        self._between(conflicts, exclusive, fields_a, fields_b)
        for spread in spreads_b:
            self.compared_fragments = set()
            self._fields_and_fragment(conflicts, exclusive, fields_a, spread)
        for spread in spreads_a:
            self.compared_fragments = set()
            self._fields_and_fragment(conflicts, exclusive, fields_b, spread)
        for spread_a in spreads_a:
            for spread_b in spreads_b:
                self._between_fragments(conflicts, exclusive, spread_a, spread_b)
        return conflicts

    def _between(
        self,
        conflicts: list[_Conflict],
        exclusive: bool,
        fields_a: _FieldsMap,
        fields_b: _FieldsMap,
    ) -> None:
        for response_name, group_a in fields_a.items():
            group_b = fields_b.get(response_name)
            if group_b is None:
                continue
            for a in group_a:
                for b in group_b:
                    self._add(conflicts, self._find(exclusive, a, b))

    def _find(self, parent_exclusive: bool, a: Node, b: Node) -> _Conflict | None:
        parent_a, parent_b = a.get("ObjectDefinition"), b.get("ObjectDefinition")
        if parent_a is None or parent_b is None:
            return None
        def_a, def_b = a.get("Definition"), b.get("Definition")
        exclusive = parent_exclusive or (
            parent_a.get("Name") != parent_b.get("Name")
            and definition_kind(parent_a) == "OBJECT"
            and definition_kind(parent_b) == "OBJECT"
            and def_a is not None
            and def_b is not None
        )
        response_name = a.get("Alias") or a.get("Name", "")
        position = _pos(b)
        if not exclusive:
            if a.get("Name", "") != b.get("Name", ""):
                return _Conflict(
                    response_name,
                    position,
                    f'"{a.get("Name", "")}" and "{b.get("Name", "")}" are different fields',
                )
            if not _same_arguments(items(a, "Arguments"), items(b, "Arguments")):
                return _Conflict(response_name, position, "they have differing arguments")
        if (
            def_a is not None
            and def_b is not None
            and _types_conflict(self.schema, def_a["Type"], def_b["Type"])
        ):
            return _Conflict(
                response_name,
                position,
                f'they return conflicting types "{type_string(def_a["Type"])}" and '
                f'"{type_string(def_b["Type"])}"',
            )
        sub = self._between_sub_selections(
            exclusive, items(a, "SelectionSet"), items(b, "SelectionSet")
        )
        if not sub:
            return None
        return _Conflict(response_name, position, sub=sub)


def _same_fields(a: _FieldsMap, b: _FieldsMap) -> bool:
    """``reflect.DeepEqual`` of two collected field maps (same fields, in order)."""
    if list(a) != list(b):
        return False
    return all(
        len(a[k]) == len(b[k]) and all(x is y or x == y for x, y in zip(a[k], b[k], strict=True))
        for k in a
    )


def overlapping_fields_can_be_merged(ev: Events, report: Report) -> None:
    manager = _Overlap()

    def emit(w: Walker, selections: list[Node]) -> None:
        manager.schema = w.schema
        for conflict in manager.within(selections):
            report(
                f'Fields "{conflict.response_name}" conflict because {conflict.reason()}. '
                "Use different aliases on the fields to fetch both if this was intentional.",
                conflict.position,
            )

    def on_field(w: Walker, fld: Node) -> None:
        if w.current_operation is not None:
            emit(w, items(fld, "SelectionSet"))

    ev.operation.append(lambda w, node: emit(w, items(node, "SelectionSet")))
    ev.field.append(on_field)
    ev.inline.append(lambda w, node: emit(w, items(node, "SelectionSet")))
    ev.fragment.append(lambda w, node: emit(w, items(node, "SelectionSet")))


def possible_fragment_spreads(ev: Events, report: Report) -> None:
    def possible(w: Walker, parent: Node | None, condition: str) -> bool:
        if parent is None:
            return True
        if definition_kind(parent) == "OBJECT":
            parents: list[Node | None] = [parent]
        elif definition_kind(parent) in ("INTERFACE", "UNION"):
            parents = w.schema.possible_types.get(parent.get("Name", ""), [])
        else:
            return True
        target = w.schema.types.get(condition)
        if target is None or not is_composite(target):
            return True
        names = {p.get("Name") for p in parents if p is not None}
        return any(
            f is not None and f.get("Name") in names
            for f in w.schema.possible_types.get(target.get("Name", ""), [])
        )

    def on_inline(w: Walker, node: Node) -> None:
        parent = node.get("ObjectDefinition")
        condition = node.get("TypeCondition", "")
        if not possible(w, parent, condition):
            assert parent is not None
            report(
                f'Fragment cannot be spread here as objects of type "{parent.get("Name", "")}" '
                f'can never be of type "{condition}".',
                _pos(node),
            )

    def on_spread(w: Walker, node: Node) -> None:
        fragment = node.get("Definition")
        if fragment is None:
            return
        parent = node.get("ObjectDefinition")
        condition = fragment.get("TypeCondition", "")
        if not possible(w, parent, condition):
            assert parent is not None
            report(
                f'Fragment "{node.get("Name", "")}" cannot be spread here as objects of type '
                f'"{parent.get("Name", "")}" can never be of type "{condition}".',
                _pos(node),
            )

    ev.inline.append(on_inline)
    ev.spread.append(on_spread)


def provided_required_arguments(ev: Events, report: Report) -> None:
    def missing(definition: Node, given: list[Node]) -> list[Node]:
        names = {a.get("Name", "") for a in given}
        return [
            arg
            for arg in items(definition, "Arguments")
            if arg["Type"].get("NonNull")
            and arg.get("DefaultValue") is None
            and arg.get("Name", "") not in names
        ]

    def on_field(w: Walker, fld: Node) -> None:
        definition = fld.get("Definition")
        if definition is None:
            return
        for arg in missing(definition, items(fld, "Arguments")):
            report(
                f'Field "{fld.get("Name", "")}" argument "{arg.get("Name", "")}" of type '
                f'"{type_string(arg["Type"])}" is required, but it was not provided.',
                _pos(fld),
            )

    def on_directive(w: Walker, directive: Node) -> None:
        definition = directive.get("Definition")
        if definition is None:
            return
        for arg in missing(definition, items(directive, "Arguments")):
            report(
                f'Directive "@{definition.get("Name", "")}" argument "{arg.get("Name", "")}" '
                f'of type "{type_string(arg["Type"])}" is required, but it was not provided.',
                _pos(directive),
            )

    ev.field.append(on_field)
    ev.directive.append(on_directive)


def scalar_leafs(ev: Events, report: Report) -> None:
    def on_field(w: Walker, fld: Node) -> None:
        definition = fld.get("Definition")
        if definition is None:
            return
        target = w.schema.types.get(type_name(definition["Type"]))
        if target is None:
            return
        name = fld.get("Name", "")
        selections = items(fld, "SelectionSet")
        if is_leaf(target) and selections:
            report(
                f'Field "{name}" must not have a selection since type '
                f'"{target.get("Name", "")}" has no subfields.',
                _pos(fld),
            )
        if not is_leaf(target) and not selections:
            report(
                f'Field "{name}" of type "{type_string(definition["Type"])}" must have a '
                f'selection of subfields. Did you mean "{name} {{ ... }}"?',
                _pos(fld),
            )

    ev.field.append(on_field)


def single_field_subscriptions(ev: Events, report: Report) -> None:
    def on_operation(w: Walker, operation: Node) -> None:
        if w.schema.subscription is None or operation.get("Operation") != "subscription":
            return
        fields: list[tuple[str, Position | None]] = []
        in_fragment: set[str] = set()

        def walk(selections: list[Node]) -> None:
            for node in selections:
                kind = selection_kind(node)
                if kind == "field":
                    fields.append((node.get("Name", ""), _pos(node)))
                elif kind == "inline":
                    walk(items(node, "SelectionSet"))
                else:
                    fragment = node.get("Definition")
                    if fragment is None:
                        return
                    name = fragment.get("Name", "")
                    if name not in in_fragment:
                        in_fragment.add(name)
                        walk(items(fragment, "SelectionSet"))

        walk(items(operation, "SelectionSet"))
        seen: set[str] = set()
        unique = []
        for name, position in fields:
            if name not in seen:
                unique.append((name, position))
            seen.add(name)
        label = "Anonymous Subscription"
        if operation.get("Name"):
            label = f"Subscription {go_quote(operation['Name'])}"
        if len(unique) > 1:
            report(f"{label} must select only one top level field.", unique[1][1])
        for name, position in unique:
            if name.startswith("__"):
                report(f"{label} must not select an introspection top level field.", position)

    ev.operation.append(on_operation)


def unique_argument_names(ev: Events, report: Report) -> None:
    def check(args: list[Node]) -> None:
        counts: dict[str, int] = {}
        for arg in args:
            name = arg.get("Name", "")
            if counts.get(name, 0) == 1:
                report(f'There can be only one argument named "{name}".', _pos(arg))
            counts[name] = counts.get(name, 0) + 1

    ev.field.append(lambda w, node: check(items(node, "Arguments")))
    ev.directive.append(lambda w, node: check(items(node, "Arguments")))


def unique_directives_per_location(ev: Events, report: Report) -> None:
    def on_list(w: Walker, directives: list[Node]) -> None:
        seen: set[str] = set()
        for directive in directives:
            name = directive.get("Name", "")
            definition = directive.get("Definition")
            repeatable = definition is not None and definition.get("IsRepeatable")
            if not repeatable and name in seen:
                report(
                    f'The directive "@{name}" can only be used once at this location.',
                    _pos(directive),
                )
            seen.add(name)

    ev.directive_list.append(on_list)


def unique_fragment_names(ev: Events, report: Report) -> None:
    seen: set[str] = set()

    def on_fragment(w: Walker, fragment: Node) -> None:
        name = fragment.get("Name", "")
        if name in seen:
            report(f'There can be only one fragment named "{name}".', _pos(fragment))
        seen.add(name)

    ev.fragment.append(on_fragment)


def unique_input_field_names(ev: Events, report: Report) -> None:
    def on_value(w: Walker, value: Node) -> None:
        if value.get("Kind", 0) != OBJECT_VALUE:
            return
        seen: set[str] = set()
        for child in items(value, "Children"):
            name = child.get("Name", "")
            if name in seen:
                report(f'There can be only one input field named "{name}".', _pos(child))
            seen.add(name)

    ev.value.append(on_value)


def unique_operation_names(ev: Events, report: Report) -> None:
    seen: set[str] = set()

    def on_operation(w: Walker, operation: Node) -> None:
        name = operation.get("Name", "")
        if name in seen:
            report(f'There can be only one operation named "{name}".', _pos(operation))
        seen.add(name)

    ev.operation.append(on_operation)


def unique_variable_names(ev: Events, report: Report) -> None:
    def on_operation(w: Walker, operation: Node) -> None:
        counts: dict[str, int] = {}
        for var in items(operation, "VariableDefinitions"):
            name = var.get("Variable", "")
            if counts.get(name, 0) == 1:
                report(f'There can be only one variable named "${name}".', _pos(var))
            counts[name] = counts.get(name, 0) + 1

    ev.operation.append(on_operation)


def _unexpected_type(value: Node) -> str:
    expected = type_string(value["ExpectedType"])
    shown = value_string(value)
    if expected in ("Int", "Int!"):
        raw = value.get("Raw", "")
        if is_decimal(raw) and not go_int(raw, 32):
            return f"Int cannot represent non 32-bit signed integer value: {shown}"
        return f"Int cannot represent non-integer value: {shown}"
    if expected in ("String", "String!", "[String]"):
        return f"String cannot represent a non string value: {shown}"
    if expected in ("Boolean", "Boolean!"):
        return f"Boolean cannot represent a non boolean value: {shown}"
    if expected in ("Float", "Float!"):
        return f"Float cannot represent non numeric value: {shown}"
    if expected in ("ID", "ID!"):
        return f"ID cannot represent a non-string and non-integer value: {shown}"
    if definition_kind(value.get("Definition")) == "ENUM":
        return f'Enum "{expected}" cannot represent non-enum value: {shown}.'
    return f'Expected value of type "{expected}", found {shown}.'


_BUILTIN_SCALARS = ("Int", "Float", "String", "Boolean", "ID")


def values_of_correct_type(ev: Events, report: Report) -> None:
    def on_value(w: Walker, value: Node) -> None:
        definition, expected = value.get("Definition"), value.get("ExpectedType")
        if definition is None or expected is None:
            return
        kind, position = value.get("Kind", 0), _pos(value)
        def_name = definition.get("Name")
        if kind == NULL_VALUE and expected.get("NonNull"):
            report(
                f'Expected value of type "{type_string(expected)}", found {value_string(value)}.',
                position,
            )
        if definition_kind(definition) == "SCALAR" and def_name not in _BUILTIN_SCALARS:
            return
        enums = [e.get("Name", "") for e in items(definition, "EnumValues")]
        if definition_kind(definition) != "ENUM":
            enums = []
        if value_fails(value):
            report(_unexpected_type(value), position)
        raw = value.get("Raw", "")
        if kind in (NULL_VALUE, VARIABLE):
            return
        if kind == LIST_VALUE:
            if expected.get("Elem") is None:
                report(_unexpected_type(value), position)
        elif kind == INT_VALUE:
            if def_name not in ("Int", "Float", "ID"):
                report(_unexpected_type(value), position)
        elif kind == FLOAT_VALUE:
            if def_name != "Float":
                report(_unexpected_type(value), position)
        elif kind in (STRING_VALUE, BLOCK_VALUE):
            if definition_kind(definition) == "ENUM":
                report(
                    f'Enum "{type_string(expected)}" cannot represent non-enum value: '
                    f"{value_string(value)}." + suggest("Did you mean the enum value", raw, enums),
                    position,
                )
            elif def_name not in ("String", "ID"):
                report(_unexpected_type(value), position)
        elif kind == ENUM_VALUE:
            if definition_kind(definition) != "ENUM":
                report(
                    _unexpected_type(value)
                    + suggest("Did you mean the enum value", raw, enums, quoted=False),
                    position,
                )
            elif for_name(items(definition, "EnumValues"), raw) is None:
                report(
                    f'Value "{value_string(value)}" does not exist in "{type_string(expected)}" '
                    "enum." + suggest("Did you mean the enum value", raw, enums),
                    position,
                )
        elif kind == BOOLEAN_VALUE:
            if def_name != "Boolean":
                report(_unexpected_type(value), position)
        elif kind == OBJECT_VALUE:
            _check_object_value(value, definition, report)

    ev.value.append(on_value)


def _check_object_value(value: Node, definition: Node, report: Report) -> None:
    children = items(value, "Children")
    name = definition.get("Name", "")
    for fld in items(definition, "Fields"):
        if (
            fld["Type"].get("NonNull")
            and for_name(children, fld.get("Name", "")) is None
            and fld.get("DefaultValue") is None
        ):
            report(
                f'Field "{name}.{fld.get("Name", "")}" of required type '
                f'"{type_string(fld["Type"])}" was not provided.',
                _pos(value),
            )
    for directive in items(definition, "Directives"):
        if directive.get("Name") != "oneOf":
            continue
        if len(children) != 1:
            report(f'OneOf Input Object "{name}" must specify exactly one key.', _pos(value))
            continue
        child_value = children[0].get("Value")
        if child_value is None or child_value.get("Kind", 0) == NULL_VALUE:
            first = items(definition, "Fields")[0].get("Name", "")
            report(f'Field "{name}.{first}" must be non-null.', _pos(child_value))
    known = [f.get("Name", "") for f in items(definition, "Fields")]
    for child in children:
        child_name = child.get("Name", "")
        if for_name(items(definition, "Fields"), child_name) is None:
            report(
                f'Field "{child_name}" is not defined by type "{name}".'
                + suggest("Did you mean", child_name, known),
                _pos(child),
            )


def variables_are_input_types(ev: Events, report: Report) -> None:
    def on_operation(w: Walker, operation: Node) -> None:
        for var in items(operation, "VariableDefinitions"):
            definition = var.get("Definition")
            if definition is not None and not is_input_type(definition):
                report(
                    f'Variable "${var.get("Variable", "")}" cannot be non-input type '
                    f'"{type_string(var["Type"])}".',
                    _pos(var),
                )

    ev.operation.append(on_operation)


def variables_in_allowed_position(ev: Events, report: Report) -> None:
    def on_value(w: Walker, value: Node) -> None:
        expected, var = value.get("ExpectedType"), value.get("VariableDefinition")
        if (
            value.get("Kind", 0) != VARIABLE
            or expected is None
            or var is None
            or w.current_operation is None
        ):
            return
        wanted = dict(expected)
        default = var.get("DefaultValue")
        if default is not None and default.get("Kind", 0) != NULL_VALUE:
            wanted["NonNull"] = False
        if value.get("ExpectedTypeHasDefault"):
            wanted["NonNull"] = False
        if not is_compatible(var["Type"], wanted):
            report(
                f'Variable "{value_string(value)}" of type "{type_string(var["Type"])}" used in '
                f'position expecting type "{type_string(expected)}".',
                _pos(value),
            )

    def on_one_of(w: Walker, value: Node) -> None:
        definition = value.get("Definition")
        if value.get("Kind", 0) != OBJECT_VALUE or definition is None:
            return
        if for_name(items(definition, "Directives"), "oneOf") is None:
            return
        for child in items(value, "Children"):
            child_value = child.get("Value")
            if (
                child_value is None
                or child_value.get("Kind", 0) != VARIABLE
                or child_value.get("VariableDefinition") is None
            ):
                continue
            var = child_value["VariableDefinition"]
            if not var["Type"].get("NonNull"):
                report(
                    f'Variable "{value_string(child_value)}" is of type '
                    f'"{type_string(var["Type"])}" but must be non-nullable to be used for '
                    f'OneOf Input Object "{definition.get("Name", "")}".',
                    _pos(var),
                )

    ev.value.append(on_value)
    ev.value.append(on_one_of)


RULES: dict[str, Callable[[Events, Report], None]] = {
    "FieldsOnCorrectType": fields_on_correct_type,
    "FragmentsOnCompositeTypes": fragments_on_composite_types,
    "KnownArgumentNames": known_argument_names,
    "KnownDirectives": known_directives,
    "KnownFragmentNames": known_fragment_names,
    "KnownRootType": known_root_type,
    "KnownTypeNames": known_type_names,
    "LoneAnonymousOperation": lone_anonymous_operation,
    "MaxIntrospectionDepth": max_introspection_depth,
    "NoFragmentCycles": no_fragment_cycles,
    "NoUndefinedVariables": no_undefined_variables,
    "NoUnusedFragments": no_unused_fragments,
    "NoUnusedVariables": no_unused_variables,
    "OverlappingFieldsCanBeMerged": overlapping_fields_can_be_merged,
    "PossibleFragmentSpreads": possible_fragment_spreads,
    "ProvidedRequiredArguments": provided_required_arguments,
    "ScalarLeafs": scalar_leafs,
    "SingleFieldSubscriptions": single_field_subscriptions,
    "UniqueArgumentNames": unique_argument_names,
    "UniqueDirectivesPerLocation": unique_directives_per_location,
    "UniqueFragmentNames": unique_fragment_names,
    "UniqueInputFieldNames": unique_input_field_names,
    "UniqueOperationNames": unique_operation_names,
    "UniqueVariableNames": unique_variable_names,
    "ValuesOfCorrectType": values_of_correct_type,
    "VariablesAreInputTypes": variables_are_input_types,
    "VariablesInAllowedPosition": variables_in_allowed_position,
}
"""gqlparser's default rules by name."""


def validate_query(schema: Schema, document: Node) -> list[GraphQLError]:
    """Every violation of the default rules by ``document``, in gqlparser's order
    (the document is not changed)."""
    errors: list[GraphQLError] = []
    events = Events()
    for name in sorted(RULES):
        RULES[name](
            events, lambda message, position: errors.append(GraphQLError(message, position))
        )
    Walker(schema, copy.deepcopy(document), events).walk()
    return errors
