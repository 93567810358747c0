"""Terraform type constraints (a ``variable``'s ``type``) applied to a value:
``optional()`` attribute defaults filled in, and set types marked as sets.

As Terraform converts a variable's value to its type: an object attribute
declared ``optional(T, default)`` and missing (or null) takes the default
(converted in turn), one declared ``optional(T)`` takes null; the defaults are
applied inside lists, sets, maps and tuples at any depth. A value of a
``set(...)`` type is a :class:`SetValue`, so that a ``dynamic`` block over it
gives each element as ``.key``. Anything else about the type is not checked:
a value that does not fit is kept as written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lark import Tree


class SetValue(list[Any]):
    """A list that is a Terraform set (``toset()``, a ``set(...)`` variable)."""


@dataclass(frozen=True)
class TypeConstraint:
    """A type constraint as written: ``kind`` is a primitive (``string``, ``any``...),
    ``list``/``set``/``map`` (one ``element``), ``object`` or ``tuple``."""

    kind: str
    element: TypeConstraint | None = None
    attributes: dict[str, tuple[TypeConstraint, bool, Tree | None]] = field(default_factory=dict)
    """An object's attributes: (type, optional, default expression)."""
    elements: tuple[TypeConstraint, ...] = ()


ANY = TypeConstraint("any")


def _children(node: Tree) -> list[Tree]:
    return [c for c in node.children if isinstance(c, Tree) and c.data != "new_line_or_comment"]


def _name(node: Tree) -> str | None:
    """The name an expression that is one bare name writes (``string``)."""
    while node.data in ("expr_term", "object_elem_key") and len(node.children) == 1:
        child = node.children[0]
        if not isinstance(child, Tree):
            return None
        node = child
    return str(node.children[0]) if node.data == "identifier" else None


def _call(node: Tree) -> tuple[str, list[Tree]] | None:
    """``(name, argument nodes)`` when ``node`` is a call such as ``list(string)``."""
    while node.data == "expr_term" and len(_children(node)) == 1:
        node = _children(node)[0]
    if node.data != "function_call":
        return None
    parts = _children(node)
    arguments = [p for p in parts if p.data == "arguments"]
    return str(parts[0].children[0]), _children(arguments[0]) if arguments else []


def _object_elements(node: Tree) -> list[Tree] | None:
    while node.data == "expr_term" and len(_children(node)) == 1:
        node = _children(node)[0]
    return _children(node) if node.data == "object" else None


def _tuple_elements(node: Tree) -> list[Tree] | None:
    while node.data == "expr_term" and len(_children(node)) == 1:
        node = _children(node)[0]
    return _children(node) if node.data == "tuple" else None


def type_constraint(node: Tree) -> TypeConstraint:
    """The constraint a ``type`` expression writes (``any`` where it is not one)."""
    name = _name(node)
    if name is not None:
        return TypeConstraint(name)
    call = _call(node)
    if call is None or not call[1]:
        return ANY
    kind, arguments = call
    if kind in ("list", "set", "map"):
        return TypeConstraint(kind, element=type_constraint(arguments[0]))
    if kind == "tuple":
        elements = _tuple_elements(arguments[0]) or []
        return TypeConstraint("tuple", elements=tuple(type_constraint(e) for e in elements))
    if kind == "object":
        return TypeConstraint("object", attributes=_object_attributes(arguments[0]))
    return ANY


def _object_attributes(node: Tree) -> dict[str, tuple[TypeConstraint, bool, Tree | None]]:
    attributes: dict[str, tuple[TypeConstraint, bool, Tree | None]] = {}
    for elem in _object_elements(node) or []:
        key_node, value_node = _children(elem)
        name = _name(key_node)
        if name is None:
            continue
        call = _call(value_node)
        if call is not None and call[0] == "optional" and call[1]:
            default = call[1][1] if len(call[1]) > 1 else None
            attributes[name] = (type_constraint(call[1][0]), True, default)
        else:
            attributes[name] = (type_constraint(value_node), False, None)
    return attributes


def conform(value: Any, constraint: TypeConstraint, evaluate: Callable[[Tree], Any]) -> Any:
    """``value`` with the constraint's optional defaults filled in and its sets marked;
    ``evaluate`` gives a default expression's value."""
    if value is None:
        return None
    kind = constraint.kind
    if kind in ("list", "set") and isinstance(value, list):
        element = constraint.element or ANY
        items = [conform(v, element, evaluate) for v in value]
        if kind == "set" and all(isinstance(v, str) for v in items):
            items = sorted(set(items))  # as toset(): distinct, in order
        return SetValue(items) if kind == "set" else items
    if kind == "map" and isinstance(value, dict):
        element = constraint.element or ANY
        return {k: conform(v, element, evaluate) for k, v in value.items()}
    if kind == "tuple" and isinstance(value, list):
        types = constraint.elements
        return [
            conform(v, types[i] if i < len(types) else ANY, evaluate) for i, v in enumerate(value)
        ]
    if kind == "object" and isinstance(value, dict):
        result = dict(value)
        for name, (attribute_type, optional, default) in constraint.attributes.items():
            if result.get(name) is None and optional:
                result[name] = None if default is None else evaluate(default)
            if name in result:
                result[name] = conform(result[name], attribute_type, evaluate)
        return result
    return value
