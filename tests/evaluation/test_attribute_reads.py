"""Reducing the paths a rule read of a resource: the longest only, reference
fields masked, in trie order."""

from __future__ import annotations

from engine.evaluation.attribute_reads import reduce_paths


def test_a_path_read_further_is_reported_only_at_its_end() -> None:
    paths = [("tags",), ("tags", "Name"), ("rule",), ("rule", 0), ("rule", 0, "x")]
    assert reduce_paths(paths) == [("rule", 0, "x"), ("tags", "Name")]


def test_reference_fields_are_never_reported() -> None:
    paths = [("id",), ("_id",), ("_type",), ("_namespace",), ("_meta", "location"), ("_tags", "a")]
    paths += [("_provider",), ("_filepath",), ("bucket",)]
    assert reduce_paths(paths) == [("_tags", "a"), ("bucket",)]


def test_indices_come_first_in_numeric_order_then_keys_in_byte_order() -> None:
    paths = [("a", "b"), ("a", 10), ("a", 2), ("a", "B"), ("a", "é"), ("a", "z")]
    assert reduce_paths(paths) == [
        ("a", 2),
        ("a", 10),
        ("a", "B"),
        ("a", "b"),
        ("a", "z"),
        ("a", "é"),
    ]


def test_duplicates_and_nothing() -> None:
    assert reduce_paths([("x",), ("x",)]) == [("x",)]
    assert reduce_paths([]) == []
