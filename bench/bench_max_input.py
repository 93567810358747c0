"""The largest input a scan holds under the default limits.

Scans the relations benchmark's generated States (``bench_relations.py``) of
each given size with the CLI's default options (``--max-memory 2048``), and
prints the scan's wall time, its errors (a rule over the memory bound is an
error naming its file, and the other rules still give results), its failing
results and exit code; then the peak Wasm memory of the same rules run by a
``RuleEvaluator`` under the default limits, and the process's peak RSS.

Run on demand (``python bench/bench_max_input.py [SIZES]``, default 550,000
and 600,000); nothing is asserted.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from bench_relations import RELATION_RULES, generate_state, write_rules

from engine.core.collector import collector_paused
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.state import parse_state
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import load_sources
from engine.scanning.scanner import ScanOptions, scan
from engine.wasm.host import Limits

SIZES = [int(a) for a in sys.argv[1:]] or [550_000, 600_000]


def peak_wasm_bytes(doc: dict, rules: Path) -> int:
    """Wasm memory after loading the State and running every rule, default limits."""
    evaluator = RuleEvaluator(compile_rule_set(load_sources([rules])), Limits())
    with collector_paused():
        evaluator.load(parse_state(doc))
        for index in range(len(evaluator.rule_set.rules)):
            evaluator.run(index)
    instance = evaluator._instance
    size = instance.memory_bytes()
    evaluator.close()
    return size


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rules = write_rules(root / "relations", RELATION_RULES, relations=True)
        for n in SIZES:
            doc = generate_state(n)
            path = root / f"state-{n}.json"
            path.write_text(json.dumps(doc))
            start = time.perf_counter()
            report = scan([path], [rules], ScanOptions())
            seconds = time.perf_counter() - start
            errors = list(report.errors) + [
                error for i in report.inputs for rule in i.rule_results for error in rule.errors
            ]
            wasm = peak_wasm_bytes(doc, rules)
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(
                f"{n:>9} resources: scan {seconds:.1f} s, exit {report.exit_code()}, "
                f"{len(report.failing_results())} failing results, Wasm {wasm / 2**20:.0f} MiB "
                f"(bound {Limits().max_memory_mb} MiB), RSS {rss:.0f} MiB",
                flush=True,
            )
            for error in errors:
                print(f"{'':>9} error: {error}", flush=True)


if __name__ == "__main__":
    main()
