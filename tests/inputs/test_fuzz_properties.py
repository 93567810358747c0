"""Property tests: the loaders never crash, and JSON values cross the Wasm
boundary unchanged. (The relation index against its nested-loop oracle is
``test_relation_index.py``.) ``bench/fuzz.py`` runs the same targets longer."""

from __future__ import annotations

from typing import Any

from fuzz_targets import (
    NAMES,
    file_contents,
    json_round_trip,
    json_values,
    load_file,
    mutated_seeds,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import needs_opa
from relation_oracle import oracle, relations

from engine.relations.index import Relation, build_index, join


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), file_contents)
def test_any_file_loads_or_is_a_problem_naming_it(name: str, content: bytes) -> None:
    load_file(name, content)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_seeds)
def test_mutated_real_inputs_load_or_are_a_problem_naming_them(seed: tuple[str, bytes]) -> None:
    load_file(*seed)


@needs_opa
@settings(max_examples=200, deadline=None)
@given(json_values)
def test_json_values_round_trip_through_wasm_memory(value: Any) -> None:
    json_round_trip(value)


@settings(max_examples=300, deadline=None)
@given(relations(), st.integers(0, 12))
def test_the_edge_bound_refuses_exactly_the_larger_relations(
    relation: Relation, max_edges: int
) -> None:
    """A relation is refused when it has more than ``max_edges`` edges (pairs,
    counted by the nested-loop oracle), and is otherwise joined as without a bound."""
    pairs = {(e[0], e[1]) for e in oracle(relation)}
    index = build_index([relation], max_edges)
    if len(pairs) > max_edges:
        assert index.refused == {"r": f"more than {max_edges:,} edges"}
        assert index.edges["r"] == [] and index.relates(0, "r") == []
    else:
        assert index.refused == {}
        assert index.edges["r"] == join(relation)
