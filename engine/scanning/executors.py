"""Where a scan's rules run over its inputs: in this process, in ``--jobs``
worker processes or on a Dask cluster (``--cluster``, with or without
``--cluster-shared-fs``). :func:`choose_executor` is the one place that picks.

Every executor finds and loads the inputs, then evaluates them, adding each
input's report to the scan report. The worker and cluster modules are imported
only when their executor runs: a scan in this process never loads
multiprocessing or Dask.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from engine.core import cancellation
from engine.core.collector import collector_paused
from engine.inputs.discovery import LoadedInputs, LoadOptions, ScanInput, load_inputs
from engine.results.inferred_attributes import InferredBudget
from engine.scanning.input_scan import Selected, scan_one

if TYPE_CHECKING:
    from distributed import Client

    from engine.evaluation.evaluator import RuleEvaluator
    from engine.evaluation.prepared_rules import PreparedRules
    from engine.results.report import ScanReport
    from engine.scanning.parallel import Outcome
    from engine.wasm.host import Limits

ProgressHook = Callable[[int, int], None]
"""Called with (steps done, total steps) as rules run over inputs."""


@dataclass(frozen=True)
class RunnableRules:
    """What every executor runs: the prepared rules, the selected ones, their
    evaluator in this process (None when there is no rule to run) and bounds."""

    prepared: PreparedRules
    selected: Selected
    evaluator: RuleEvaluator | None
    limits: Limits

    def for_workers(self) -> PreparedRules:
        """The prepared rules with the statics this process's evaluator read, so
        no worker evaluates them again."""
        assert self.evaluator is not None
        return replace(self.prepared, statics=self.evaluator.statics)


class Executor(Protocol):
    """Loads the inputs below some paths, then evaluates them into a report."""

    def load(
        self, input_paths: list[Path], options: LoadOptions, progress: ProgressHook | None = None
    ) -> LoadedInputs:
        """The inputs found and loaded below ``input_paths``; ``progress`` is called
        with (files loaded, files found) as they load here."""
        ...

    def evaluate(self, inputs: list[ScanInput], report: ScanReport) -> None:
        """Run the rules over ``inputs`` (as :meth:`load` returned them), adding
        each input's report to ``report``."""
        ...


@dataclass
class InProcess:
    """Evaluates every input here, one after the other."""

    rules: RunnableRules
    progress: ProgressHook | None = None

    def load(
        self, input_paths: list[Path], options: LoadOptions, progress: ProgressHook | None = None
    ) -> LoadedInputs:
        return load_inputs(input_paths, options, progress)

    def evaluate(self, inputs: list[ScanInput], report: ScanReport) -> None:
        selected = self.rules.selected
        total = len(inputs) * len(selected.rules)
        done = 0
        inferred = InferredBudget()

        def tick() -> None:
            nonlocal done
            done += 1
            if self.progress is not None:
                self.progress(done, total)

        rule_set = self.rules.prepared.rule_set
        for position, scan_input in enumerate(inputs, start=1):
            cancellation.check()
            with collector_paused():
                input_report = scan_one(
                    scan_input, rule_set, selected, self.rules.evaluator, report, tick, inferred
                )
            if input_report is not None:
                report.inputs.append(input_report)
            done = position * len(selected.rules)  # rules an unloadable input never ran


@dataclass
class WorkerProcesses(InProcess):
    """Evaluates the inputs in ``jobs`` worker processes (``--jobs``); a single
    input is evaluated here, as starting a worker would cost more."""

    jobs: int = 2

    def evaluate(self, inputs: list[ScanInput], report: ScanReport) -> None:
        if len(inputs) < 2:
            super().evaluate(inputs, report)
            return
        from engine.scanning.parallel import scan_in_workers

        rules = self.rules
        scan_in_workers(
            inputs, rules.for_workers(), rules.selected, rules.limits, self.jobs, report,
            self.progress,
        )  # fmt: skip


@dataclass
class OnCluster(InProcess):
    """Loads the inputs here and sends them to the Dask cluster's workers."""

    client: Client = field(kw_only=True)

    def evaluate(self, inputs: list[ScanInput], report: ScanReport) -> None:
        if not inputs:
            return
        from engine.scanning.cluster import scan_on_cluster

        rules = self.rules
        scan_on_cluster(
            inputs, rules.for_workers(), rules.selected, rules.limits, self.client, report,
            self.progress,
        )  # fmt: skip


@dataclass
class OnClusterSharedFs(OnCluster):
    """The cluster's workers see the input paths: they load and evaluate the
    inputs; this process only finds the files and records the outcomes."""

    outcomes: list[Outcome] = field(default_factory=list)

    def load(
        self, input_paths: list[Path], options: LoadOptions, progress: ProgressHook | None = None
    ) -> LoadedInputs:
        from engine.scanning.cluster import load_and_scan_on_cluster

        rules = self.rules
        loaded, self.outcomes = load_and_scan_on_cluster(
            input_paths, options, rules.for_workers(), rules.selected, rules.limits, self.client,
            self.progress,
        )  # fmt: skip
        return loaded

    def evaluate(self, inputs: list[ScanInput], report: ScanReport) -> None:
        from engine.scanning.parallel import record

        for scan_input, outcome in zip(inputs, self.outcomes, strict=True):
            record(report, scan_input, outcome)


def choose_executor(
    rules: RunnableRules,
    *,
    jobs: int = 1,
    client: Client | None = None,
    cluster_shared_fs: bool = False,
    progress: ProgressHook | None = None,
) -> Executor:
    """The executor a scan runs on: the cluster when ``client`` is given (its
    workers loading the inputs when ``cluster_shared_fs``), else ``jobs``
    worker processes when above 1, else this process. Without rules to run
    (no evaluator) the inputs are only loaded and reported here."""
    if rules.evaluator is None:
        return InProcess(rules, progress)
    if client is not None and cluster_shared_fs:
        return OnClusterSharedFs(rules, progress, client=client)
    if client is not None:
        return OnCluster(rules, progress, client=client)
    if jobs > 1:
        return WorkerProcesses(rules, progress, jobs)
    return InProcess(rules, progress)
