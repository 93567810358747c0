"""The resource-relation index: relations joined into edges, with hash joins.

Resources are numbered in State order (type, then key). A relation's ``keys``
items relate a left and a right resource when some left key equals some
right key with Rego equality (``1 == 1.0``, ``true != 1``, arrays and objects
by value); ``null`` and ``""`` keys never join, since in IaC they mean a value
that could not be resolved. ``explicit`` pairs are edges as given. An edge
carries the right item's annotation when it has one, else the left's, else
``null``. Each (left, right, annotation) edge appears once, in the order
(left, right, annotation in Rego order). Everything here is pure.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine import values


class KeyItem(NamedTuple):
    """One ``[resource, key]`` or ``[resource, key, annotation]`` item of a side."""

    resource: int
    key: Any
    annotation: Any = None
    annotated: bool = False


class ExplicitPair(NamedTuple):
    """One ``[left, right]`` or ``[left, right, annotation]`` pair."""

    left: int
    right: int
    annotation: Any = None


@dataclass
class Relation:
    """Everything declared under one relation name."""

    name: str
    left: list[KeyItem] = field(default_factory=list)
    right: list[KeyItem] = field(default_factory=list)
    explicit: list[ExplicitPair] = field(default_factory=list)
    left_types: set[str] = field(default_factory=set)
    """Resource types declared on the left (naming: ``<left type>.<attribute>``)."""


class Edge(NamedTuple):
    """A (left, relation, right) triple's two ends, with its annotation."""

    left: int
    right: int
    annotation: Any = None


_NULL = values.freeze(None)


def join(relation: Relation) -> list[Edge]:
    """The edges of ``relation``: a hash join of its keys plus its explicit pairs."""
    by_key: dict[Any, list[KeyItem]] = defaultdict(list)
    for item in relation.left:
        key = item.key
        if key is not None and key != "":
            by_key[key if type(key) is str else values.freeze(key)].append(item)
    # (left, right) → {frozen annotation: annotation}
    found: dict[tuple[int, int], dict[Any, Any]] = {}
    for right, key, right_annotation, right_annotated in relation.right:
        if key is None or key == "":
            continue
        for left, _, left_annotation, left_annotated in by_key.get(
            key if type(key) is str else values.freeze(key), ()
        ):
            annotation = (
                right_annotation
                if right_annotated
                else left_annotation if left_annotated else None
            )
            frozen = _NULL if annotation is None else values.freeze(annotation)
            distinct = found.get((left, right))
            if distinct is None:
                found[left, right] = {frozen: annotation}
            else:
                distinct.setdefault(frozen, annotation)
    for pair in relation.explicit:
        found.setdefault((pair.left, pair.right), {}).setdefault(
            values.freeze(pair.annotation), pair.annotation
        )
    edges: list[Edge] = []
    for (left, right), distinct in sorted(found.items()):
        if len(distinct) == 1:
            edges.append(Edge(left, right, next(iter(distinct.values()))))
        else:
            edges.extend(Edge(left, right, a) for a in values.sort_values(distinct.values()))
    return edges


@dataclass
class RelationIndex:
    """Every relation's edges, and both directions of lookup."""

    edges: dict[str, list[Edge]]
    forward: dict[str, dict[int, list[tuple[int, Any]]]] = field(init=False)
    """name → left resource → [(right resource, annotation)] in edge order."""
    backward: dict[str, dict[int, list[tuple[int, Any]]]] = field(init=False)
    """name → right resource → [(left resource, annotation)] by (left, annotation)."""

    def __post_init__(self) -> None:
        self.forward, self.backward = {}, {}
        for name, edges in self.edges.items():
            forward: dict[int, list[tuple[int, Any]]] = defaultdict(list)
            backward: dict[int, list[tuple[int, Any]]] = defaultdict(list)
            for edge in edges:  # sorted by left, so each backward list is too
                forward[edge.left].append((edge.right, edge.annotation))
                backward[edge.right].append((edge.left, edge.annotation))
            self.forward[name], self.backward[name] = dict(forward), dict(backward)

    def relates(self, resource: int, name: str) -> list[tuple[int, Any]]:
        """Right resources (with annotations) of ``resource`` in relation ``name``."""
        return self.forward.get(name, {}).get(resource, [])

    def back_relates(self, name: str, resource: int) -> list[tuple[int, Any]]:
        """Left resources (with annotations) of ``resource`` in relation ``name``."""
        return self.backward.get(name, {}).get(resource, [])


def build_index(relations: list[Relation]) -> RelationIndex:
    """Join every relation (names are unique in ``relations``)."""
    return RelationIndex({r.name: join(r) for r in relations})
