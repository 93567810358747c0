"""Where a result is shown when some of its attribute paths were read, not named."""

from __future__ import annotations

from typing import Any

from engine.results.building import AttributeRef, Result, ResultResource
from engine.results.formats.view import result_places


def _at(line: int) -> dict[str, Any]:
    return {"filepath": "main.tf", "line": line, "column": 3}


def _result(*resources: ResultResource) -> Result:
    first = resources[0]
    return Result(
        False, "m", first.id, first.namespace, first.type, "", "low", "", None, [],
        list(resources),
    )  # fmt: skip


def test_a_named_path_is_shown_before_paths_the_rule_only_read() -> None:
    primary = ResultResource(
        "a", "t", "ns", _at(1), [AttributeRef(("read",), _at(2), inferred=True)]
    )
    related = ResultResource("b", "t", "ns", _at(10), [AttributeRef(("named",), _at(11))])
    places = result_places(_result(primary, related))
    assert places.primary is not None and places.primary.attribute == ("named",)
    assert [p.attribute for p in places.related] == [None]  # resource a, by its own place


def test_read_paths_are_shown_when_the_rule_named_none() -> None:
    primary = ResultResource(
        "a", "t", "ns", _at(1), [AttributeRef(("read",), _at(2), inferred=True)]
    )
    places = result_places(_result(primary))
    assert places.primary is not None and places.primary.attribute == ("read",)


def test_a_path_located_at_its_resource_is_not_a_place() -> None:
    primary = ResultResource(
        "a", "t", "ns", _at(1), [AttributeRef(("missing",), _at(1), inferred=True)]
    )
    places = result_places(_result(primary))
    assert places.primary is not None and places.primary.attribute is None
