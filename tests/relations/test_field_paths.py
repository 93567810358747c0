"""Field paths of relation_from_fields: parsing and the values they name."""

from __future__ import annotations

import pytest

from engine.relations.field_paths import EVERY, FieldPathError, parse_field_path, values_at

DOC = {
    "bucket": "b",
    "spec": {"selector": {"app": "web"}},
    "rule": [{"bucket": "x"}, {"bucket": "y"}, {"other": 1}],
    "ids": ["sg-1", "sg-2"],
    "matrix": [[1, 2], [3]],
}


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("bucket", ("bucket",)),
        ("spec.selector.app", ("spec", "selector", "app")),
        (".spec.selector", ("spec", "selector")),
        ("rule[*].bucket", ("rule", EVERY, "bucket")),
        ("ids[1]", ("ids", 1)),
        ("matrix[*][*]", ("matrix", EVERY, EVERY)),
    ],
)
def test_parse(text: str, steps: tuple) -> None:
    assert parse_field_path(text).steps == steps


@pytest.mark.parametrize("text", ["", ".", "a..b", "a.", "[0]", "a[x]", "a]b", "a[0]b"])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(FieldPathError):
        parse_field_path(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("bucket", ["b"]),
        ("spec.selector.app", ["web"]),
        ("spec.selector", [{"app": "web"}]),
        ("rule[*].bucket", ["x", "y"]),
        ("rule[1].bucket", ["y"]),
        ("rule[7].bucket", []),
        ("ids", [["sg-1", "sg-2"]]),
        ("ids[*]", ["sg-1", "sg-2"]),
        ("matrix[*][*]", [1, 2, 3]),
        ("missing.path", []),
        ("bucket.deeper", []),
        ("spec[*]", []),
        ("rule.bucket", []),
    ],
)
def test_values_at(text: str, found: list) -> None:
    assert values_at(DOC, parse_field_path(text)) == found
