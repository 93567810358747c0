"""A long fuzz run of the loaders and the Wasm value boundary (on demand).

    .venv/bin/python bench/fuzz.py [EXAMPLES]

Runs the targets of ``tests/fuzz_targets.py``, ``tests/fuzz_boundaries.py``
(the bundle reader, the host boundary of a hand-made module) and
``tests/fuzz_text_targets.py`` (the configuration file, the inline-suppression
scanner) and the
relation-index properties of the test suite with hypothesis, EXAMPLES
examples each (default 5,000), and prints the examples run and the time per
target; a failure prints hypothesis's minimal failing example and exits 1. A
crash of the process (what the host-boundary target looks for) ends the run
with the signal. Compiled modules go to a temporary cache.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "inputs"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "relations"))

import fuzz_boundaries
import fuzz_targets as fuzz
import fuzz_text_targets
import test_fuzz_properties
import test_relation_index
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_relation_index import relations


def main() -> int:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    cache = tempfile.TemporaryDirectory(prefix="fuzz-cache-")
    os.environ["REGO_ENGINE_CACHE"] = cache.name  # the hand-made modules' native code
    config = settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    targets = {
        "loaders (any bytes under any IaC name)": given(
            st.sampled_from(fuzz.NAMES), fuzz.file_contents
        )(fuzz.load_file),
        "mutated real inputs": given(fuzz.mutated_seeds)(lambda seed: fuzz.load_file(*seed)),
        "JSON values through Wasm memory": given(fuzz.json_values)(fuzz.json_round_trip),
        "bundle reader (random, mutated, rewritten bundles)": given(fuzz_boundaries.bundle_bytes)(
            fuzz_boundaries.read_bundle_bytes
        ),
        "host boundary (a hand-made module's addresses and lengths)": given(
            fuzz_boundaries.host_cases
        )(fuzz_boundaries.host_boundary),
        "configuration file (.rego-engine.yaml, trusted and found)": given(
            fuzz_text_targets.config_files
        )(fuzz_text_targets.load_config_bytes),
        "inline-suppression scanner (line breaks of every kind)": given(
            fuzz_text_targets.suppression_texts
        )(fuzz_text_targets.scan_suppressions),
        "relation index against nested loops": given(relations())(
            test_relation_index.test_join_equals_nested_loops.hypothesis.inner_test
        ),
        "relation edge bound": given(relations(), st.integers(0, 12))(
            test_fuzz_properties.test_the_edge_bound_refuses_exactly_the_larger_relations.hypothesis.inner_test
        ),
    }
    failed = False
    for name, target in targets.items():
        started = time.perf_counter()
        try:
            config(target)()
            outcome = "ok"
        except Exception as exc:  # hypothesis has printed the falsifying example
            outcome = f"FAILED: {type(exc).__name__}: {exc}"
            failed = True
        print(f"{name}: {examples} examples, {time.perf_counter() - started:.0f}s, {outcome}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
