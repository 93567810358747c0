"""The relation index against a naive nested-loop join, on random relations."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.relation_index import (
    Edge,
    ExplicitPair,
    KeyItem,
    Relation,
    build_index,
    join,
)

RESOURCES = 8

# Keys collide often: small strings, 1 and 1.0, true (which must not equal 1),
# null and "" (which never join), composite arrays and objects.
scalar_keys = st.sampled_from(["a", "b", "", None, 1, 1.0, 2, True, False])
keys = st.one_of(
    scalar_keys,
    st.lists(scalar_keys, max_size=2),
    st.dictionaries(st.sampled_from(["k", "v"]), scalar_keys, max_size=2),
)
annotations = st.one_of(st.none(), st.integers(0, 2), st.sampled_from(["x", "y"]))
resource = st.integers(0, RESOURCES - 1)


@st.composite
def key_items(draw: Any) -> KeyItem:
    if draw(st.booleans()):
        return KeyItem(draw(resource), draw(keys), draw(annotations), True)
    return KeyItem(draw(resource), draw(keys))


@st.composite
def relations(draw: Any) -> Relation:
    return Relation(
        "r",
        left=draw(st.lists(key_items(), max_size=10)),
        right=draw(st.lists(key_items(), max_size=10)),
        explicit=[
            ExplicitPair(*p)
            for p in draw(st.lists(st.tuples(resource, resource, annotations), max_size=4))
        ],
    )


def rego_equal(a: Any, b: Any) -> bool:
    """Rego equality, written independently of values.freeze: numbers by value,
    booleans never equal to numbers, arrays and objects element by element."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(rego_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(rego_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def oracle(relation: Relation) -> list[tuple[int, int, Any]]:
    """Every (left, right, annotation) by nested loops, deduplicated and sorted."""
    found: list[tuple[int, int, Any]] = []
    for left in relation.left:
        for right in relation.right:
            if left.key is None or left.key == "" or right.key is None or right.key == "":
                continue
            if not rego_equal(left.key, right.key):
                continue
            if right.annotated:
                annotation = right.annotation
            elif left.annotated:
                annotation = left.annotation
            else:
                annotation = None
            found.append((left.resource, right.resource, annotation))
    found += [(p.left, p.right, p.annotation) for p in relation.explicit]
    unique: list[tuple[int, int, Any]] = []
    for edge in found:
        if not any(e[:2] == edge[:2] and rego_equal(e[2], edge[2]) for e in unique):
            unique.append(edge)
    return sorted(unique, key=lambda e: (e[0], e[1], rego_rank(e[2])))


def rego_rank(annotation: Any) -> tuple[int, Any]:
    """Rego's order over the annotations drawn here: null < numbers < strings."""
    if annotation is None:
        return (0, 0)
    if isinstance(annotation, int):
        return (2, annotation)
    return (3, annotation)


def as_tuples(edges: list[Edge]) -> list[tuple[int, int, Any]]:
    return [(e.left, e.right, e.annotation) for e in edges]


@settings(max_examples=400, deadline=None)
@given(relations())
def test_join_equals_nested_loops(relation: Relation) -> None:
    edges = as_tuples(join(relation))
    want = oracle(relation)
    assert [e[:2] for e in edges] == [e[:2] for e in want]
    assert all(rego_equal(a[2], b[2]) for a, b in zip(edges, want, strict=True))


@settings(max_examples=300, deadline=None)
@given(relations())
def test_both_directions_equal_nested_loops(relation: Relation) -> None:
    index = build_index([relation])
    want = oracle(relation)
    for n in range(RESOURCES):
        forward = list(index.relates(n, "r"))
        assert [r for r, _ in forward] == [e[1] for e in want if e[0] == n]
        backward = list(index.back_relates("r", n))
        assert [left for left, _ in backward] == [e[0] for e in want if e[1] == n]
        assert all(
            rego_equal(a, b)
            for (_, a), b in zip(backward, [e[2] for e in want if e[1] == n], strict=True)
        )


@settings(max_examples=200, deadline=None)
@given(relations())
def test_without_annotations_every_edge_is_null(relation: Relation) -> None:
    plain = Relation(
        "r",
        [KeyItem(i.resource, i.key) for i in relation.left],
        [KeyItem(i.resource, i.key) for i in relation.right],
        [ExplicitPair(p.left, p.right) for p in relation.explicit],
    )
    edges = join(plain)
    assert all(e.annotation is None for e in edges)
    assert len({(e.left, e.right) for e in edges}) == len(edges)


def test_right_annotation_wins_and_edges_are_reported_once() -> None:
    relation = Relation(
        "r",
        left=[KeyItem(0, "k", "left", True), KeyItem(0, "k2", "left", True)],
        right=[KeyItem(1, "k", "right", True), KeyItem(1, "k2", "right", True)],
    )
    assert as_tuples(join(relation)) == [(0, 1, "right")]


def test_left_annotation_when_the_right_has_none() -> None:
    relation = Relation("r", left=[KeyItem(0, "k", {"port": 80}, True)], right=[KeyItem(1, "k")])
    assert as_tuples(join(relation)) == [(0, 1, {"port": 80})]


def test_null_and_empty_keys_never_join() -> None:
    relation = Relation(
        "r",
        left=[KeyItem(0, None), KeyItem(1, "")],
        right=[KeyItem(2, None), KeyItem(3, "")],
    )
    assert join(relation) == []


def test_distinct_annotations_are_distinct_edges_in_rego_order() -> None:
    relation = Relation(
        "r",
        left=[KeyItem(0, "k")],
        right=[KeyItem(1, "k", "b", True), KeyItem(1, "k", 2, True), KeyItem(1, "k", None, True)],
    )
    assert as_tuples(join(relation)) == [(0, 1, None), (0, 1, 2), (0, 1, "b")]


def test_unknown_relation_or_resource_gives_nothing() -> None:
    index = build_index([Relation("r", [KeyItem(0, "k")], [KeyItem(1, "k")])])
    assert index.relates(0, "other") == []
    assert index.relates(5, "r") == []
    assert index.back_relates("r", 0) == []
