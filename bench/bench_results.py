"""Results benchmark: the Python cost of turning rule judgements into results.

Runs the relation-heavy rules of ``bench_relations.py`` over its generated
States and prints, for each size, measured in the same run:

- the whole library scan (wall clock and CPU time);
- reading the judgements from Wasm memory (``RuleEvaluator.run`` less its
  Wasm evaluation), per info;
- building the results (``build_rule_results``), per info;
- making the per-input ``ResourceIndex``.

The phases are timed in CPU time (steadier than the wall clock on a shared
machine), each the fastest of several passes over the rules. Run on demand
(``python bench/bench_results.py [SIZES]``); nothing is asserted.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from bench_relations import LIMITS, RELATION_RULES, generate_state, timed_scan, write_rules

from engine.core.collector import collector_paused
from engine.evaluation.evaluator import RuleEvaluator, RuleRun
from engine.inputs.state import State, parse_state
from engine.results.building import ResourceIndex, build_rule_results
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import load_sources

SIZES = [int(a) for a in sys.argv[1:]] or [10_000, 100_000]
REPEATS = 5


def _infos(run: RuleRun) -> int:
    count = 0
    for value in (run.judgement, run.resources, *run.per_resource.values()):
        count += len(value) if isinstance(value, list) else value is not None
    return count


def _timed_evaluation(evaluator: RuleEvaluator, spent: list[float]) -> None:
    """Add the CPU seconds of every Wasm evaluation of ``evaluator`` to ``spent[0]``."""
    instance = evaluator._instance
    evaluate = instance.eval_addr

    def timed(entrypoint: str, **options: float | None) -> int:
        start = time.process_time()
        try:
            return evaluate(entrypoint, **options)
        finally:
            spent[0] += time.process_time() - start

    instance.eval_addr = timed  # type: ignore[method-assign]


def measure(state: State, rules: Path, repeats: int) -> tuple[float, float, float, int]:
    """(reading seconds, building seconds, index seconds, infos) over every rule,
    each the fastest of ``repeats`` passes over the rules as a scan makes them
    (the per-input caches start empty in each pass)."""
    rule_set = compile_rule_set(load_sources([rules]))
    best = [float("inf")] * 3
    infos = 0
    for _ in range(repeats):
        evaluator = RuleEvaluator(rule_set, LIMITS)
        with collector_paused():  # as in a scan
            evaluator.load(state)
            start = time.process_time()
            index = ResourceIndex(state)
            index_s = time.process_time() - start
            spent = [0.0]
            _timed_evaluation(evaluator, spent)
            running = building = 0.0
            infos = 0
            for rule in range(len(rule_set.rules)):
                start = time.process_time()
                run = evaluator.run(rule)
                running += time.process_time() - start
                assert not run.errors, run.errors
                start = time.process_time()
                build_rule_results(run, state, index)
                building += time.process_time() - start
                infos += _infos(run)
        evaluator.close()
        for i, seconds in enumerate((running - spent[0], building, index_s)):
            best[i] = min(best[i], seconds)
    return best[0], best[1], best[2], infos


def main() -> None:
    print(
        f"{'resources':>9} {'infos':>6} {'scan wall':>9} {'scan cpu':>8} {'index':>7} "
        f"{'reading':>8} {'µs/info':>7} {'building':>8} {'µs/info':>7} {'share':>6}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rules = write_rules(root / "relations", RELATION_RULES, relations=True)
        for n in SIZES:
            doc = generate_state(n)
            state_path = root / f"state-{n}.json"
            state_path.write_text(json.dumps(doc))
            timed_scan(state_path, rules)  # compile once, outside the timing
            scan_time, _failing = timed_scan(state_path, rules)
            repeats = REPEATS if n <= 10_000 else 2
            reading, building, index_s, infos = measure(parse_state(doc), rules, repeats)
            share = (reading + building + index_s) / scan_time.cpu
            print(
                f"{n:>9} {infos:>6} {scan_time.wall:>8.3f}s {scan_time.cpu:>7.3f}s "
                f"{index_s:>6.3f}s {reading:>7.3f}s {reading / infos * 1e6:>7.2f} "
                f"{building:>7.3f}s {building / infos * 1e6:>7.2f} {share:>6.1%}",
                flush=True,
            )


if __name__ == "__main__":
    main()
