"""Evaluating inputs on a Dask cluster (``scan --cluster``).

The driver loads the inputs and compiles the rules (or reads the bundle)
once, as for ``--jobs``. The compiled rule set goes to every worker once, as
the bytes one task returns (the Wasm module, never native code: each worker
compiles that for its own machine); workers fetch it from each other, and a
worker keeps one evaluator per rule set and evaluates every input it is
given with it. Inputs travel as
their States without source maps, pickled, one task each; each worker builds the
results and the driver locates them in the source files, writing them in
input order, so the report is the one ``--jobs 1`` builds.

With a filesystem the workers share (``--cluster-shared-fs``) the driver only
finds the files: each task is a file, or a directory's Terraform files (a
:class:`~engine.inputs.discovery.LoadUnit`), which the worker loads, in the
driver's working directory, evaluates and locates in the source files with
the source maps it built. Kubernetes manifests, one State per directory, come
back unloaded and go out again as one task per directory. The driver puts the
units back in discovery order and leaves out Terraform modules another root
module called, as a local load does.

Dask reruns an input whose worker died on another worker; once an input has
taken down ``distributed.scheduler.allowed-failures`` workers (3 by default,
the scheduler's setting) it becomes that input's error. Losing the scheduler
ends the scan with :class:`ClusterError`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import queue
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.child_processes import SAFE_PATH_VARIABLE, safe_python_children
from engine.core.collector import collector_paused
from engine.evaluation.prepared_rules import PreparedRules
from engine.inputs.discovery import (
    InputProblem,
    LoadedInputs,
    LoadedSlot,
    LoadedUnit,
    LoadOptions,
    LoadUnit,
    ScanInput,
    load_unit,
    loaded_inputs,
    manifest_units,
    plan_loading,
    split_unit,
)
from engine.results.building import ResourceIndex, locate_results
from engine.results.report import ScanReport
from engine.scanning.input_scan import Selected
from engine.scanning.parallel import (
    Outcome,
    WorkerRules,
    evaluate,
    portable,
    record,
    rules_payload,
    worker_rules,
)
from engine.wasm.host import Limits

if TYPE_CHECKING:
    from distributed import Client, Future

LOCAL_PREFIX = "local:"
"""``--cluster local:N``: a cluster of N worker processes on this machine."""

ADDRESS_VARIABLE = "DASK_SCHEDULER_ADDRESS"
"""The environment variable Dask's tools read a scheduler address from."""

CONNECT_TIMEOUT = 30.0
"""Seconds to wait for the scheduler when connecting."""

SCHEDULER_GRACE = 20.0
"""Seconds the driver waits for a lost scheduler to come back before giving up."""

_POLL = 1.0
"""Seconds between checks that the scheduler is still there while waiting."""

_KEPT_RULE_SETS = 2
"""Rule sets (with their evaluators) a worker keeps for later scans."""


class ClusterError(Exception):
    """The cluster cannot be reached, cannot be started, or went away mid-scan."""


_worker_rules: dict[str, WorkerRules] = {}
"""A worker's evaluators, by the digest of the rule set's bytes."""
_worker_lock = threading.Lock()
"""One evaluator is used by one task at a time (a worker may run several threads)."""


def _rules_on_worker(digest: str, payload: bytes) -> WorkerRules:
    """The worker's evaluator for ``digest``, built from ``payload`` the first
    time (call with :data:`_worker_lock` held)."""
    rules = _worker_rules.get(digest)
    if rules is None:
        while len(_worker_rules) >= _KEPT_RULE_SETS:
            oldest = next(iter(_worker_rules))
            _worker_rules.pop(oldest).evaluator.close()
        rules = _worker_rules[digest] = worker_rules(payload)
    return rules


def _evaluate_on_worker(pickled_input: bytes, digest: str, payload: bytes) -> bytes:
    """Run on a worker: one pickled input's pickled outcome, with the worker's
    evaluator for ``digest`` (built from ``payload`` the first time).

    Inputs and outcomes cross the cluster as pickled bytes: Dask then moves
    them without walking them, and the scheduler never unpickles a State."""
    with _worker_lock:
        outcome = evaluate(_rules_on_worker(digest, payload), pickle.loads(pickled_input))
    return pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)


UnitOutcome = tuple[LoadedUnit, list[list[Outcome]]]
"""A unit loaded on a worker (States without source maps) and the outcome of
each input of each of its slots, results located."""


def _load_and_evaluate_on_worker(pickled_unit: bytes, digest: str, payload: bytes) -> bytes:
    """Run on a worker that sees the driver's files: load one pickled
    (unit, load options, working directory, whether to defer manifests),
    evaluate its inputs and locate their results; the pickled :data:`UnitOutcome`."""
    unit, options, directory, defer = pickle.loads(pickled_unit)
    with _worker_lock:
        rules = _rules_on_worker(digest, payload)
        done = load_and_evaluate(unit, options, directory, rules, defer)
    return pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL)


def load_and_evaluate(
    unit: LoadUnit,
    options: LoadOptions,
    directory: str,
    rules: WorkerRules | Exception,
    defer_manifests: bool = False,
) -> UnitOutcome:
    """Load ``unit`` in ``directory`` (the driver's working directory: paths are
    shown and resolved as there) and evaluate its inputs with ``rules``."""
    previous = os.getcwd()
    try:
        os.chdir(directory)
    except OSError as exc:
        missing = (
            f"not loaded on the cluster worker: it has no directory {directory} "
            f"({exc.strerror or exc}); --cluster-shared-fs needs workers that see the "
            "driver's paths"
        )
        slots = [
            LoadedSlot(position, [], [InputProblem(found.shown, missing)])
            for position, found in zip(unit.positions, unit.files, strict=True)
        ]
        return LoadedUnit(slots, []), [[] for _ in slots]
    try:
        loaded = load_unit(unit, options, defer_manifests)
        outcomes = [[_located(rules, i) for i in slot.inputs] for slot in loaded.slots]
    finally:
        os.chdir(previous)
    for slot in loaded.slots:
        slot.inputs = [portable(i) for i in slot.inputs]
    return loaded, outcomes


def _located(rules: WorkerRules | Exception, scan_input: ScanInput) -> Outcome:
    """One input's outcome, its results located with the input's source map."""
    rule_results, errors = evaluate(rules, scan_input)
    if rule_results is not None and scan_input.state.source_map is not None:
        locate_results(rule_results, ResourceIndex(scan_input.state))
    return rule_results, errors


def _import_distributed() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(
            "scanning on a cluster needs Dask: pip install 'rego-engine[cluster]'"
        ) from None


def local_workers(address: str) -> int | None:
    """N for ``local:N``; None for a scheduler address. Raises :class:`ClusterError`
    for a ``local:`` address without a positive N."""
    if not address.startswith(LOCAL_PREFIX):
        return None
    count = address[len(LOCAL_PREFIX) :]
    if not count.isdigit() or int(count) < 1:
        raise ClusterError(f"{address!r}: local:N needs a positive number of workers")
    return int(count)


@contextmanager
def cluster_client(address: str) -> Iterator[Client]:
    """A client of the scheduler at ``address`` (``tcp://HOST:PORT``), or of a
    cluster of N worker processes on 127.0.0.1 started for ``local:N`` and
    stopped afterwards."""
    workers = local_workers(address)
    _import_distributed()
    from distributed import Client, LocalCluster

    if workers is not None:
        import dask

        # Every worker process the nannies start, restarts included, imports
        # nothing from the working directory.
        safe_start = {f"distributed.nanny.pre-spawn-environ.{SAFE_PATH_VARIABLE}": "1"}
        try:
            with safe_python_children(), dask.config.set(safe_start):
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",
                    silence_logs=logging.ERROR,
                )
        except Exception as exc:
            raise ClusterError(f"cannot start a local Dask cluster: {exc}") from exc
        with cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    try:
        yield client
    finally:
        client.close(timeout=5)


def scan_on_cluster(
    inputs: list[ScanInput],
    prepared: PreparedRules,
    selected: Selected,
    limits: Limits,
    client: Client,
    report: ScanReport,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Evaluate every input with the ``selected`` rules on ``client``'s cluster,
    adding their results and errors to ``report`` in input order. Raises
    :class:`ClusterError` when the scheduler goes away."""
    payload = rules_payload(prepared, selected, limits)
    digest = hashlib.sha256(payload).hexdigest()
    run = uuid.uuid4().hex[:12]
    try:
        # A task, not scattered data: the scheduler can make it again for a worker
        # that joins after the others holding it died.
        shared = client.submit(bytes, payload, key=f"rego-engine-rules-{run}", pure=False)
        with warnings.catch_warnings():
            # Dask warns of large graphs: here the States are the graph, by design.
            warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
            futures = client.map(
                _evaluate_on_worker,
                [
                    pickle.dumps(portable(scan_input), protocol=pickle.HIGHEST_PROTOCOL)
                    for scan_input in inputs
                ],
                digest=digest,
                payload=shared,
                key=[f"rego-engine-{run}-{i}" for i in range(len(inputs))],
                pure=False,
            )
    except (OSError, TimeoutError, CancelledError) as exc:
        raise ClusterError(f"the Dask scheduler went away: {exc}") from exc
    per_input = len(selected.rules)
    total = len(inputs) * per_input
    outcomes: dict[int, Outcome] = {}
    written = 0
    with collector_paused():
        names = [scan_input.name for scan_input in inputs]
        for position, value in _completed(client, futures, names):
            outcomes[position] = (None, [value.message]) if isinstance(value, _Failed) else value
            while written in outcomes:
                record(report, inputs[written], outcomes.pop(written))
                written += 1
            if progress is not None:
                progress((written + len(outcomes)) * per_input, total)
    client.cancel([shared])


def load_and_scan_on_cluster(
    paths: Sequence[Path],
    options: LoadOptions,
    prepared: PreparedRules,
    selected: Selected,
    limits: Limits,
    client: Client,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[LoadedInputs, list[Outcome]]:
    """Find the inputs below ``paths`` and have ``client``'s workers, which see
    the same files, load them and evaluate them with the ``selected`` rules:
    the inputs as loaded (without source maps) and each one's outcome, results
    located. Raises :class:`ClusterError` when the scheduler goes away."""
    plan = plan_loading(paths, options)
    payload = rules_payload(prepared, selected, limits)
    digest = hashlib.sha256(payload).hexdigest()
    run = uuid.uuid4().hex[:12]
    directory = os.getcwd()
    try:
        shared = client.submit(bytes, payload, key=f"rego-engine-rules-{run}", pure=False)
    except (OSError, TimeoutError, CancelledError) as exc:
        raise ClusterError(f"the Dask scheduler went away: {exc}") from exc

    def loaded_on_workers(units: list[LoadUnit], defer: bool, done: int) -> list[UnitOutcome]:
        if not units:
            return []
        try:
            futures = client.map(
                _load_and_evaluate_on_worker,
                [
                    pickle.dumps((unit, options, directory, defer), pickle.HIGHEST_PROTOCOL)
                    for unit in units
                ],
                digest=digest,
                payload=shared,
                key=[f"rego-engine-{run}-{done + i}" for i in range(len(units))],
                pure=False,
            )
        except (OSError, TimeoutError, CancelledError) as exc:
            raise ClusterError(f"the Dask scheduler went away: {exc}") from exc
        ended: dict[int, UnitOutcome] = {}
        with collector_paused():
            names = [unit.name for unit in units]
            for position, value in _completed(client, futures, names):
                if isinstance(value, _Failed):
                    first = units[position].positions[0]
                    failed = LoadedSlot(first, [], [InputProblem(names[position], value.cause)])
                    value = (LoadedUnit([failed], []), [[]])
                ended[position] = value
                if progress is not None:
                    progress(done + len(ended), done + len(futures))
        return [ended[position] for position in range(len(futures))]

    pieces = [piece for unit in plan.units for piece in split_unit(unit)]
    done = loaded_on_workers(pieces, True, 0)
    manifests = manifest_units(pieces, [unit for unit, _ in done])
    done += loaded_on_workers(manifests, False, len(pieces))
    client.cancel([shared])
    loaded = loaded_inputs(plan, [unit for unit, _ in done])
    # An input's outcome is found by identity: each slot's inputs, in order.
    by_input = {
        id(scan_input): outcome
        for unit, outcomes in done
        for slot, slot_outcomes in zip(unit.slots, outcomes, strict=True)
        for scan_input, outcome in zip(slot.inputs, slot_outcomes, strict=True)
    }
    return loaded, [by_input[id(scan_input)] for scan_input in loaded.inputs]


class _Failed:
    """A task the cluster could not finish: why, as an error naming its input."""

    def __init__(self, name: str, cause: str) -> None:
        self.cause = cause
        self.message = f"{name}: {cause}"


def _completed(
    client: Client, futures: list[Future], names: list[str]
) -> Iterator[tuple[int, Any]]:
    """(position, unpickled result or :class:`_Failed`) of each task as it ends,
    in any order; ``names`` name each task's input in errors."""
    ended: queue.SimpleQueue[int] = queue.SimpleQueue()
    for position, future in enumerate(futures):
        future.add_done_callback(lambda _, position=position: ended.put(position))
    lost_since: float | None = None
    for _ in futures:
        while True:
            try:
                position = ended.get(timeout=_POLL)
                break
            except queue.Empty:
                pass
            if client.status == "running":
                lost_since = None
                continue
            lost_since = lost_since or time.monotonic()
            if client.status in ("closing", "closed") or (
                time.monotonic() - lost_since > SCHEDULER_GRACE
            ):
                raise ClusterError(_lost(client))
        yield position, _result(client, futures[position], names[position])


def _result(client: Client, future: Future, name: str) -> Any:
    from distributed import KilledWorker

    if future.status == "cancelled" and client.status != "running":
        raise ClusterError(_lost(client))
    try:
        return pickle.loads(future.result())
    except KilledWorker:
        return _Failed(
            name,
            "the cluster gave up on it: workers evaluating it stopped unexpectedly, "
            "one after another",
        )
    except CancelledError:
        if client.status != "running":
            raise ClusterError(_lost(client)) from None
        return _Failed(name, "the cluster cancelled its evaluation")
    except Exception as exc:  # an engine bug in the worker: report it with the input
        return _Failed(name, f"evaluation failed on a cluster worker: {exc!r}")


def _lost(client: Client) -> str:
    address = getattr(client.scheduler, "address", None) or "the scheduler"
    return f"lost the Dask scheduler at {address} during the scan"
