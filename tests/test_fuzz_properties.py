"""Property tests: the loaders never crash, and JSON values cross the Wasm
boundary unchanged. (The relation index against its nested-loop oracle is
``test_relation_index.py``.) ``bench/fuzz.py`` runs the same targets longer."""

from __future__ import annotations

from typing import Any

from fuzz_targets import NAMES, file_contents, json_round_trip, json_values, load_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import needs_opa


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), file_contents)
def test_any_file_loads_or_is_a_problem_naming_it(name: str, content: bytes) -> None:
    load_file(name, content)


@needs_opa
@settings(max_examples=200, deadline=None)
@given(json_values)
def test_json_values_round_trip_through_wasm_memory(value: Any) -> None:
    json_round_trip(value)
