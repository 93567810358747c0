"""Evaluating independent inputs in worker processes (``scan --jobs N``).

The parent loads the inputs and compiles the rules (or reads the bundle)
once; each worker receives the compiled rule set as bytes when it starts
(the Wasm module, never recompiled) and finds its native code in the cache
the parent filled. Inputs go to the workers one at a time (their States
without source maps) and their results come back in input order; the parent
locates them in the source files. So the report is the one an in-process
scan builds: the same results, the same errors in the same order.

Workers are spawned, not forked: the parent may already run the Wasm
engine's epoch thread, which a fork would not carry over.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import NamedTuple

from engine.core.collector import collector_paused
from engine.evaluation.evaluator import RuleEvaluator
from engine.evaluation.prepared_rules import PreparedRules
from engine.inputs.discovery import ScanInput
from engine.results.building import ResourceIndex, RuleResults, locate_results
from engine.results.report import InputReport, ScanReport
from engine.rules.rule_set import CompiledRuleSet
from engine.scanning.input_scan import Selected, scan_one
from engine.wasm.host import Limits, load_module


class WorkerRules(NamedTuple):
    """What a worker evaluates inputs with: the rule set, the rules it runs and
    its one evaluator."""

    rule_set: CompiledRuleSet
    selected: Selected
    evaluator: RuleEvaluator


_worker: WorkerRules | None = None
"""The worker process's rules (set by :func:`_start_worker`)."""

Outcome = tuple[list[RuleResults] | None, list[str]]
"""One input's rule results (None when it could not be loaded) and its errors."""


def rules_payload(prepared: PreparedRules, selected: Selected, limits: Limits) -> bytes:
    """The compiled rules as the bytes sent to workers (the Wasm module, never native code)."""
    if prepared.rule_set.policy is None:
        raise ValueError("the rule set holds no compiled rules")
    return pickle.dumps((prepared, selected, limits), protocol=pickle.HIGHEST_PROTOCOL)


def worker_rules(payload: bytes) -> WorkerRules:
    """The rules and evaluator a worker builds from :func:`rules_payload`'s bytes."""
    prepared, selected, limits = pickle.loads(payload)
    evaluator = RuleEvaluator(prepared.rule_set, limits, statics=prepared.statics)
    return WorkerRules(prepared.rule_set, selected, evaluator)


def evaluate(rules: WorkerRules, scan_input: ScanInput) -> Outcome:
    """One input's outcome, built in a worker (results not yet located)."""
    report = ScanReport()
    with collector_paused():
        found = scan_one(
            scan_input, rules.rule_set, rules.selected, rules.evaluator, report, lambda: None
        )
    return (None if found is None else found.rule_results, report.errors)


def portable(scan_input: ScanInput) -> ScanInput:
    """``scan_input`` without what the loaders keep for locating results (source
    maps hold parsers' state): workers build results, the parent locates them.
    The resolved references stay: derived relations are built from them."""
    state = replace(scan_input.state, source_map=None)
    return replace(scan_input, state=state)


def record(report: ScanReport, scan_input: ScanInput, outcome: Outcome) -> None:
    """Add one input's outcome from a worker to ``report``, its results located
    in the input's source files."""
    rule_results, errors = outcome
    report.errors += errors
    if rule_results is not None:
        if scan_input.state.source_map is not None:
            locate_results(rule_results, ResourceIndex(scan_input.state))
        report.inputs.append(InputReport(scan_input, rule_results))


def _start_worker(payload: bytes) -> None:
    global _worker
    _worker = worker_rules(payload)


def _evaluate(scan_input: ScanInput) -> Outcome:
    assert _worker is not None, "worker not started"
    return evaluate(_worker, scan_input)


def _outcome(future: Future[Outcome], scan_input: ScanInput) -> Outcome:
    try:
        return future.result()
    except BrokenProcessPool:
        return None, [f"{scan_input.name}: the worker process evaluating it stopped unexpectedly"]
    except Exception as exc:  # an engine bug in the worker: report it with the input
        return None, [f"{scan_input.name}: evaluation failed in a worker: {exc!r}"]


def scan_in_workers(
    inputs: list[ScanInput],
    prepared: PreparedRules,
    selected: Selected,
    limits: Limits,
    jobs: int,
    report: ScanReport,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Evaluate every input with the ``selected`` rules in up to ``jobs`` worker
    processes, adding their results and errors to ``report`` in input order."""
    payload = rules_payload(prepared, selected, limits)
    assert prepared.rule_set.policy is not None
    load_module(prepared.rule_set.policy)  # native code into the cache once, for every worker
    per_input = len(selected.rules)
    total = len(inputs) * per_input
    # Results arrive as millions of small objects: unpickling them with the cyclic
    # collector on would cost several times the unpickling itself.
    with (
        collector_paused(),
        ProcessPoolExecutor(
            max_workers=min(jobs, len(inputs)),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(payload,),
        ) as pool,
    ):
        futures = [pool.submit(_evaluate, portable(scan_input)) for scan_input in inputs]
        for position, (scan_input, future) in enumerate(zip(inputs, futures, strict=True), 1):
            record(report, scan_input, _outcome(future, scan_input))
            if progress is not None:
                progress(position * per_input, total)
