"""Evaluating independent inputs in worker processes (``scan --jobs N``).

The parent loads the inputs and compiles the rules (or reads the bundle)
once; each worker receives the compiled rule set as bytes when it starts
(the Wasm module, never recompiled) and finds its native code in the cache
the parent filled. Inputs go to the workers one at a time over each worker's
pipe (their States without source maps), so the parent knows which input
each worker holds; results are added in input order and the parent locates
them in the source files. So the report is the one an in-process scan
builds: the same results, the same errors in the same order.

A worker that dies (killed, out of memory) loses only the input it held:
that input is retried once in a fresh worker, then reported as an error
naming it. Workers die with the parent: on Linux they ask the kernel for
SIGKILL when the parent exits (``PR_SET_PDEATHSIG``), they ignore SIGINT
(the parent cancels the scan), and a cancelled or failing parent kills them
before returning.

Workers are spawned, not forked: the parent may already run the Wasm
engine's epoch thread, which a fork would not carry over.

The pieces a worker of any kind needs — the rules as bytes
(:func:`rules_payload`), the evaluator built from them (:func:`worker_rules`),
one input's outcome (:func:`evaluate`), the input as sent (:func:`portable`)
and the outcome added to the report (:func:`record`) — are shared with the
Dask cluster (:mod:`engine.scanning.cluster`).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import tempfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import NamedTuple

from engine.core import cancellation
from engine.core.child_processes import safe_python_children
from engine.core.collector import collector_paused
from engine.evaluation.attribute_reads import traced_policy
from engine.evaluation.evaluator import RuleEvaluator
from engine.evaluation.prepared_rules import PreparedRules
from engine.inputs.discovery import ScanInput
from engine.results.building import ResourceIndex, RuleResults, locate_results
from engine.results.inferred_attributes import InferredBudget
from engine.results.report import InputReport, ScanReport
from engine.rules.rule_set import CompiledRuleSet
from engine.scanning.input_scan import Selected, scan_one
from engine.wasm.binary import WasmFormatError
from engine.wasm.host import Limits, load_module


class WorkerRules(NamedTuple):
    """What a worker evaluates inputs with: the rule set, the rules it runs and
    its one evaluator."""

    rule_set: CompiledRuleSet
    selected: Selected
    evaluator: RuleEvaluator


Outcome = tuple[list[RuleResults] | None, list[str]]
"""One input's rule results (None when it could not be loaded) and its errors."""

ATTEMPTS = 2
"""Workers an input may be evaluated in: a lost worker's input is retried once."""

_POLL_SECONDS = 0.1
"""How often the parent looks for a cancellation request while it waits."""

_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent exits (Linux), and
    exit now if the parent is already gone."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _worker_main(connection: Connection, payload_file: str, parent: int) -> None:
    """A worker: read the rules from ``payload_file``, then evaluate each input
    received until told to stop (None)."""
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with open(payload_file, "rb") as payload:
            worker: WorkerRules | Exception = worker_rules(payload.read())
    except Exception as exc:  # an engine bug: each input reports it
        worker = exc
    inferred = InferredBudget()  # the worker's share of the scan
    while (scan_input := connection.recv()) is not None:
        connection.send(evaluate(worker, scan_input, inferred))


def rules_payload(prepared: PreparedRules, selected: Selected, limits: Limits) -> bytes:
    """The compiled rules as the bytes sent to workers (the Wasm module, never native code)."""
    if prepared.rule_set.policy is None:
        raise ValueError("the rule set holds no compiled rules")
    return pickle.dumps((prepared, selected, limits), protocol=pickle.HIGHEST_PROTOCOL)


def worker_rules(payload: bytes) -> WorkerRules:
    """The rules and evaluator a worker builds from :func:`rules_payload`'s bytes."""
    prepared, selected, limits = pickle.loads(payload)
    evaluator = RuleEvaluator(
        prepared.rule_set, limits, statics=prepared.statics, infer_attributes=True
    )
    return WorkerRules(prepared.rule_set, selected, evaluator)


def evaluate(
    worker: WorkerRules | Exception,
    scan_input: ScanInput,
    inferred: InferredBudget | None = None,
) -> Outcome:
    """One input's outcome, built in a worker (results not yet located); an engine
    bug (here, or when the worker built its rules) is that input's error.
    ``inferred``: the inferred attribute paths the worker may still show."""
    if isinstance(worker, Exception):
        return None, [f"{scan_input.name}: evaluation failed in a worker: {worker!r}"]
    report = ScanReport()
    try:
        with collector_paused():
            found = scan_one(
                scan_input,
                worker.rule_set,
                worker.selected,
                worker.evaluator,
                report,
                lambda: None,
                inferred,
            )
    except Exception as exc:  # an engine bug in the worker: report it with the input
        return None, [f"{scan_input.name}: evaluation failed in a worker: {exc!r}"]
    return (None if found is None else found.rule_results, report.errors)


def portable(scan_input: ScanInput) -> ScanInput:
    """``scan_input`` without what the loaders keep for locating results (source
    maps hold parsers' state): workers build results, the parent locates them.
    The resolved references stay: derived relations are built from them."""
    state = replace(scan_input.state, source_map=None)
    return replace(scan_input, state=state)


@dataclass
class _Worker:
    """A worker process, the parent's end of its pipe, and the input it holds."""

    process: BaseProcess
    connection: Connection
    holding: int | None = None


class _Pool:
    """Worker processes that each evaluate one input at a time.

    The rules reach the workers as a file in a private temporary directory,
    not through the start-up pipe: a worker that dies before reading them
    leaves no write of megabytes blocked."""

    def __init__(self, payload: bytes, inputs: list[ScanInput]) -> None:
        self._directory = tempfile.TemporaryDirectory(prefix="rego-engine-workers-")
        self._payload_file = os.path.join(self._directory.name, "rules.pickle")
        with open(self._payload_file, "xb") as payload_file:
            payload_file.write(payload)
        self._inputs = inputs
        self._context = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []

    def start(self) -> _Worker:
        """A new worker (it reads the rule set from the payload file as it starts),
        importing nothing from the working directory."""
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main,
            args=(child_end, self._payload_file, os.getpid()),
            name="rego-engine-worker",
            daemon=True,
        )
        with safe_python_children():
            process.start()
        child_end.close()
        worker = _Worker(process, parent_end)
        self.workers.append(worker)
        return worker

    def give(self, worker: _Worker, position: int) -> None:
        """Send input ``position`` to ``worker``."""
        worker.holding = position
        with contextlib.suppress(OSError):  # a dead worker: its pipe's end of file tells
            worker.connection.send(portable(self._inputs[position]))

    def retire(self, worker: _Worker) -> None:
        """Forget a worker that died: reap it and close its pipe."""
        self.workers.remove(worker)
        worker.connection.close()
        worker.process.join()

    def stop(self) -> None:
        """Tell idle workers to exit and wait for them."""
        for worker in self.workers:
            with contextlib.suppress(OSError):  # already gone
                worker.connection.send(None)
        for worker in self.workers:
            worker.process.join()
            worker.connection.close()
        self.workers.clear()
        self._directory.cleanup()

    def kill(self) -> None:
        """Kill every worker now (a cancelled or failing scan) and reap them."""
        for worker in self.workers:
            worker.process.kill()
        for worker in self.workers:
            worker.process.join()
            worker.connection.close()
        self.workers.clear()
        self._directory.cleanup()


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
    processes, adding their results and errors to ``report`` in input order.

    Raises :class:`~engine.core.cancellation.Cancelled` when the scan is
    cancelled; the workers are killed first."""
    payload = rules_payload(prepared, selected, limits)
    assert prepared.rule_set.policy is not None
    # Native code into the cache once, for every worker: of the copy inferring
    # attribute paths the workers run (the module itself when it cannot be made).
    try:
        load_module(traced_policy(prepared.rule_set.policy))
    except WasmFormatError:
        load_module(prepared.rule_set.policy)
    per_input = len(selected.rules)
    total = len(inputs) * per_input
    outcomes: dict[int, Outcome] = {}
    attempts = [0] * len(inputs)
    waiting = deque(range(len(inputs)))
    added = 0
    pool = _Pool(payload, inputs)
    # Results arrive as millions of small objects: unpickling them with the cyclic
    # collector on would cost several times the unpickling itself.
    with collector_paused():
        try:
            while added < len(inputs):
                cancellation.check()
                while len(pool.workers) < min(jobs, len(waiting)):
                    pool.start()  # every new worker starts before any is sent an input
                for worker in pool.workers:
                    if worker.holding is None and waiting:
                        _give_next(pool, worker, waiting, attempts)
                busy = {w.connection: w for w in pool.workers if w.holding is not None}
                ready = wait(list(busy), timeout=_POLL_SECONDS)
                # A worker that exited is lost even when its pipe stays open (a child
                # of its own holding it): its exit code tells, not only end of file.
                ended = [c for c, w in busy.items() if c not in ready and not w.process.is_alive()]
                for connection in [*ready, *ended]:
                    # typeshed widens wait()'s result; it returns the connections it was given
                    worker = busy[connection]  # type: ignore[index]
                    position = worker.holding
                    assert position is not None
                    try:
                        if connection not in ready and not worker.connection.poll():
                            raise EOFError
                        outcomes[position] = worker.connection.recv()
                        worker.holding = None
                    except (EOFError, OSError):
                        pool.retire(worker)
                        if attempts[position] < ATTEMPTS:
                            waiting.appendleft(position)
                        else:
                            name = inputs[position].name
                            lost = f"{name}: the worker process evaluating it stopped unexpectedly"
                            outcomes[position] = (None, [f"{lost} ({ATTEMPTS} times)"])
                while added in outcomes:
                    record(report, inputs[added], outcomes.pop(added))
                    added += 1
                    if progress is not None:
                        progress(added * per_input, total)
        except BaseException:
            pool.kill()
            raise
        pool.stop()


def _give_next(pool: _Pool, worker: _Worker, waiting: deque[int], attempts: list[int]) -> None:
    position = waiting.popleft()
    attempts[position] += 1
    pool.give(worker, position)


def record(report: ScanReport, scan_input: ScanInput, outcome: Outcome) -> None:
    """Add one input's outcome from a worker to ``report``, its results located in
    the input's source files."""
    rule_results, errors = outcome
    report.errors += errors
    if rule_results is not None:
        if scan_input.state.source_map is not None:
            locate_results(rule_results, ResourceIndex(scan_input.state))
        report.inputs.append(InputReport(scan_input, rule_results))
