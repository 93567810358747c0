"""Source maps over JSON and YAML files: the lazy JSON walk agrees with YAML's marks."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.inputs.source_map import DocumentSourceMap, SourceLocation

_keys = st.text(alphabet='abcé"\\ /', min_size=1, max_size=4)
# Printable text: YAML (the reference here) refuses control characters.
_text = st.text(alphabet=st.sampled_from([*map(chr, range(32, 127)), "é", "€"]), max_size=5)
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=25,
)


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _location(text: str, path: tuple[str | int, ...], as_yaml: bool) -> SourceLocation | None:
    source_map = DocumentSourceMap("f.json", text, {("t", "k"): (0, ())})
    if as_yaml:
        source_map._json = None  # force the composed-YAML reading
    return source_map.attribute_location("t", "k", path)


@settings(max_examples=150, deadline=None)
@given(
    value=st.dictionaries(_keys, _json_values, min_size=1, max_size=5),
    indent=st.sampled_from([None, 1, 2]),
)
def test_json_walk_agrees_with_yaml_marks(value: dict[str, Any], indent: int | None) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    for path in _paths(value):
        for extra in ((), ("missing",), (7,)):
            full = (*path, *extra)
            assert _location(text, full, False) == _location(text, full, True), full


@settings(max_examples=100, deadline=None)
@given(
    value=st.dictionaries(_keys, _json_values, min_size=1, max_size=5),
    order=st.randoms(use_true_random=False),
)
def test_lookups_in_any_order_on_one_map_agree_with_lookups_on_fresh_ones(
    value: dict[str, Any], order: Any
) -> None:
    """A lookup resumes from the values earlier lookups reached."""
    text = json.dumps(value, indent=1, ensure_ascii=False)
    paths = [(*path, *extra) for path in _paths(value) for extra in ((), ("missing",), (7,))]
    order.shuffle(paths)
    shared = DocumentSourceMap("f.json", text, {("t", "k"): (0, ())})
    for path in paths:
        assert shared.attribute_location("t", "k", path) == _location(text, path, False), path


def test_locations_in_a_json_file() -> None:
    text = (
        '{\n  "resources": [\n    {"a": 1},\n    {\n      "b": {"c": [true, null]}\n    }\n  ]\n}\n'
    )
    source_map = DocumentSourceMap("plan.json", text, {("t", "x"): (0, ("resources", 1))})
    assert source_map.resource_location("t", "x") == SourceLocation("plan.json", 4, 5)
    assert source_map.attribute_location("t", "x", ("b", "c", 1)) == SourceLocation(
        "plan.json", 5, 25
    )
    # An attribute that is not written: its nearest written ancestor.
    assert source_map.attribute_location("t", "x", ("b", "zz")) == SourceLocation("plan.json", 5, 7)
    assert source_map.resource_location("t", "unknown") is None


def test_yaml_documents_are_counted_as_parse_yaml_counts_them() -> None:
    text = "---\n---\na: 1\n---\n~\n---\nb:\n  c: 2\n"
    source_map = DocumentSourceMap("k.yaml", text, {("t", "k"): (1, ())})
    assert source_map.attribute_location("t", "k", ("b", "c")) == SourceLocation("k.yaml", 8, 3)


def test_yaml_flow_style_that_looks_like_json_still_locates() -> None:
    text = "{a: 1, b: {c: 2}}\n"
    source_map = DocumentSourceMap("f.yaml", text, {("t", "k"): (0, ())})
    assert source_map.attribute_location("t", "k", ("b", "c")) == SourceLocation("f.yaml", 1, 12)
