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

from engine.wasm import values


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


def _frozen(annotation: Any) -> Any:
    return _NULL if annotation is None else values.freeze(annotation)


class RelationTooLarge(Exception):
    """A relation has more edges than the bound allows (e.g. one key shared by
    every resource joins everything with everything)."""


def join(relation: Relation, max_edges: int | None = None) -> list[Edge]:
    """The edges of ``relation``: a hash join of its keys plus its explicit pairs.

    Raises :class:`RelationTooLarge` as soon as more than ``max_edges`` pairs
    are found, so the join's time and memory stay bounded.
    """
    limit = max_edges if max_edges is not None else -1
    freeze = values.freeze
    # (left, right) → its first annotation; pairs found again also get
    # {frozen annotation: annotation} in ``repeated`` (annotations are only
    # frozen, which is costly, when a pair repeats).
    found: dict[tuple[int, int], Any] = {}
    repeated: dict[tuple[int, int], dict[Any, Any]] = {}

    def add(pair: tuple[int, int], annotation: Any) -> None:
        if pair not in found:
            found[pair] = annotation
            return
        distinct = repeated.get(pair)
        if distinct is None:
            first = found[pair]
            distinct = repeated[pair] = {_frozen(first): first}
        distinct.setdefault(_frozen(annotation), annotation)

    if not any(i.annotated for i in relation.left) and not any(i.annotated for i in relation.right):
        # No annotations (the usual case): every edge's is null, so the
        # pairs alone decide the edges.
        lefts_by_key: dict[Any, list[int]] = defaultdict(list)
        for item in relation.left:
            key = item.key
            if key is not None and key != "":
                lefts_by_key[key if type(key) is str else freeze(key)].append(item.resource)
        for item in relation.right:
            key = item.key
            if key is None or key == "":
                continue
            lefts = lefts_by_key.get(key if type(key) is str else freeze(key))
            if lefts:
                right = item.resource
                for left in lefts:
                    found[left, right] = None
                if len(found) > limit >= 0:
                    raise RelationTooLarge(f"more than {limit:,} edges")
    else:
        by_key: dict[Any, list[KeyItem]] = defaultdict(list)
        for item in relation.left:
            key = item.key
            if key is not None and key != "":
                by_key[key if type(key) is str else freeze(key)].append(item)
        for right, key, right_annotation, right_annotated in relation.right:
            if key is None or key == "":
                continue
            for left, _, left_annotation, left_annotated in by_key.get(
                key if type(key) is str else freeze(key), ()
            ):
                annotation = (
                    right_annotation
                    if right_annotated
                    else left_annotation
                    if left_annotated
                    else None
                )
                pair = (left, right)
                if pair not in found:
                    found[pair] = annotation
                else:
                    add(pair, annotation)
            if len(found) > limit >= 0:
                raise RelationTooLarge(f"more than {limit:,} edges")
    for explicit in relation.explicit:
        add((explicit.left, explicit.right), explicit.annotation)
    if len(found) > limit >= 0:
        raise RelationTooLarge(f"more than {limit:,} edges")
    return _edges(found, repeated)


def _edges(
    found: dict[tuple[int, int], Any], repeated: dict[tuple[int, int], dict[Any, Any]]
) -> list[Edge]:
    """The edges of the pairs found, in order: one per pair, or one per distinct
    annotation of a pair found again with others."""
    edges: list[Edge] = []
    for pair in sorted(found):
        distinct = repeated.get(pair)
        if distinct is None or len(distinct) == 1:
            edges.append(Edge(*pair, found[pair]))
        else:
            edges.extend(Edge(*pair, a) for a in values.sort_values(distinct.values()))
    return edges


@dataclass
class RelationIndex:
    """Every relation's edges, and both directions of lookup."""

    edges: dict[str, list[Edge]]
    refused: dict[str, str] = field(default_factory=dict)
    """Relations left empty because they exceeded the edge bound: name → why."""
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


def build_index(relations: list[Relation], max_edges: int | None = None) -> RelationIndex:
    """Join every relation (names are unique in ``relations``); one with more than
    ``max_edges`` edges is left empty and named in ``refused``."""
    edges: dict[str, list[Edge]] = {}
    refused: dict[str, str] = {}
    for relation in relations:
        try:
            edges[relation.name] = join(relation, max_edges)
        except RelationTooLarge as exc:
            edges[relation.name] = []
            refused[relation.name] = str(exc)
    return RelationIndex(edges, refused)
