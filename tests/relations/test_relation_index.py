"""The relation index against a naive nested-loop join, on random relations."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from relation_oracle import RESOURCES, oracle, rego_equal, relations

from engine.relations.index import (
    Edge,
    ExplicitPair,
    KeyItem,
    Relation,
    build_index,
    join,
)


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
