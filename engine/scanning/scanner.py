"""The scan: rules from ``-d`` paths over the inputs found below the given paths.

The library API behind ``rego-engine scan``::

    report = scan([Path("infra")], [Path("rules")], ScanOptions(rule_timeout=10))
    sys.stdout.buffer.write(report.to_json())
    sys.exit(report.exit_code())

Problems with single files, rules or inputs are recorded in the report and
the rest of the scan goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core import cancellation
from engine.core.collector import collector_paused, thaw
from engine.evaluation import prepared_cache
from engine.evaluation.bundle import read_bundle
from engine.evaluation.evaluator import RuleEvaluator
from engine.evaluation.prepared_rules import compile_rules, rules_origin
from engine.inputs.discovery import LoadOptions, ScanInput, load_inputs
from engine.results.ignores import IgnoreList, apply_ignores, utc_today
from engine.results.inline_suppressions import apply_inline_suppressions
from engine.results.report import ScanReport
from engine.rules.metadata import RuleMetadata
from engine.rules.rule_set import CompiledRuleSet
from engine.rules.selection import RuleSelection
from engine.scanning.input_scan import Selected, scan_one
from engine.wasm.host import Limits

if TYPE_CHECKING:
    from distributed import Client

    from engine.results.baseline import Baseline
    from engine.scanning.parallel import Outcome

ProgressHook = Callable[[int, int], None]
"""Called with (steps done, total steps) as rules run over inputs."""


@dataclass(frozen=True)
class ScanOptions:
    """Bounds and hooks of a scan."""

    rule_timeout: float = 30.0
    """Seconds one rule may take on one input."""
    timeout_option: str = "--rule-timeout"
    """The option that raises ``rule_timeout``, named by the time-bound error."""
    max_memory_mb: int = 2048
    """MiB of Wasm memory the policy instance may use."""
    max_output_mb: float = 16
    """MiB of result text one rule may return on one input."""
    progress: ProgressHook | None = None
    load: LoadOptions = field(default_factory=LoadOptions)
    """How inputs are found and loaded (formats, skipped paths, size limit)."""
    selection: RuleSelection = field(default_factory=RuleSelection)
    """The rules to run (``--rule``, ``--exclude-rule``); every rule by default."""
    ignores: IgnoreList | None = None
    """Accepted findings: matching results are marked ignored and never fail the scan."""
    baseline: Baseline | None = None
    """Failures recorded earlier (``--baseline``): marked ignored, with the baseline as reason."""
    inline_suppressions: bool = True
    """Whether suppression comments in the scanned files apply (off, for untrusted
    trees: they have no effect and give no warnings)."""
    today: date | None = None
    """The day ignore expiry dates are compared with; None: today in UTC."""
    bundle: Path | None = None
    """A bundle from ``rego-engine build`` to take the rules from instead of
    compiling ``rule_paths`` (no ``opa`` needed)."""
    jobs: int = 1
    """Worker processes evaluating inputs (1: evaluate in this process)."""
    cluster: Client | None = None
    """A ``distributed.Client`` whose Dask cluster evaluates the inputs (``--cluster``);
    ``jobs`` then does not apply."""
    debug_print: bool = False
    """Whether ``print()`` in the rules writes to stderr (``--debug-print``): the
    rules are compiled with their print calls, past the cache of prepared rules."""
    cluster_shared_fs: bool = False
    """Whether the cluster's workers see this machine's input paths (``--cluster-shared-fs``):
    they then load the inputs themselves, and this process only finds the files."""


def scan(
    input_paths: list[Path], rule_paths: list[Path], options: ScanOptions | None = None
) -> ScanReport:
    """Run the rules below ``rule_paths`` (or from ``options.bundle``) over the
    inputs below ``input_paths``."""
    options = options or ScanOptions()
    report = ScanReport()
    key: str | None = None
    if options.bundle is not None:
        prepared = read_bundle(options.bundle)
        if options.debug_print:
            report.warnings.append("--debug-print has no effect on a bundle's precompiled rules")
    elif options.debug_print:
        prepared = compile_rules(rule_paths, include_print=True)
    else:
        key = prepared_cache.cache_key(rule_paths)
        cached = None if key is None else prepared_cache.load(key, rules_origin(rule_paths))
        if cached is not None:
            key = None  # nothing to store
        prepared = cached or compile_rules(rule_paths)
    rule_set = prepared.rule_set
    report.warnings += prepared.warnings
    report.errors += prepared.file_errors
    selection = options.selection
    failed_selected = [f for f in rule_set.failed if selection.selects(f.rule.ref)]
    for failed in failed_selected:
        report.errors += [f"{failed.rule.ref}: {m}" for m in failed.messages]
    if not rule_set.rules and not rule_set.failed:
        report.errors.append(
            "no rules found: a rule is a package under rules. that defines deny "
            f"(searched {prepared.origin})"
        )
    limits = Limits(
        options.rule_timeout,
        options.max_memory_mb,
        options.max_output_mb,
        timeout_option=options.timeout_option,
    )
    evaluator = (
        RuleEvaluator(rule_set, limits, statics=prepared.statics, infer_attributes=True)
        if rule_set.policy is not None and rule_set.rules
        else None
    )
    if key is not None and evaluator is not None and prepared_cache.cacheable(prepared):
        prepared_cache.store(key, prepared, evaluator.statics, evaluator.abi_version)
    known = [(failed.rule.ref, "") for failed in rule_set.failed]
    catalogue = [(failed.rule.ref, RuleMetadata()) for failed in rule_set.failed]
    selected = Selected([], failed_selected)
    if evaluator is not None:
        for index, rule in enumerate(rule_set.rules):
            metadata = evaluator.statics[index].metadata
            rule_id = metadata.id
            known.append((rule.ref, rule_id))
            catalogue.append((rule.ref, metadata))
            if selection.selects(rule.ref, rule_id):
                selected.rules.append(index)
    try:
        evaluated: list[Outcome] | None = None
        if evaluator is not None and options.cluster is not None and options.cluster_shared_fs:
            # Imported here: only a cluster scan loads Dask.
            from engine.scanning.cluster import load_and_scan_on_cluster

            ready = replace(prepared, statics=evaluator.statics)
            loaded, evaluated = load_and_scan_on_cluster(
                input_paths, options.load, ready, selected, limits, options.cluster,
                options.progress,
            )  # fmt: skip
        else:
            loaded = load_inputs(input_paths, options.load)
        report.errors += [str(p) for p in loaded.problems]
        if not loaded.inputs and not loaded.problems:
            report.warnings.append(
                "no supported input found in " + ", ".join(str(p) for p in input_paths)
            )
        selection_errors, selection_warnings = selection.problems(known)
        report.errors += selection_errors
        report.warnings += selection_warnings
        if evaluated is not None:
            from engine.scanning.parallel import record  # loaded with the cluster's module

            for scan_input, outcome in zip(loaded.inputs, evaluated, strict=True):
                record(report, scan_input, outcome)
        elif evaluator is not None and options.cluster is not None and loaded.inputs:
            # Imported here: only a cluster scan loads Dask.
            from engine.scanning.cluster import scan_on_cluster

            ready = replace(prepared, statics=evaluator.statics)
            scan_on_cluster(
                loaded.inputs, ready, selected, limits, options.cluster, report, options.progress
            )
        elif evaluator is not None and options.jobs > 1 and len(loaded.inputs) > 1:
            # Imported here: a scan in this process never loads multiprocessing.
            from engine.scanning.parallel import scan_in_workers

            # The workers get the statics the evaluator read, so none evaluates them again.
            ready = replace(prepared, statics=evaluator.statics)
            scan_in_workers(
                loaded.inputs, ready, selected, limits, options.jobs, report, options.progress
            )
        else:
            _scan_here(loaded.inputs, rule_set, selected, evaluator, report, options.progress)
    finally:
        if evaluator is not None:
            evaluator.close()  # its Wasm memory may be GiBs: free it before returning
    thaw()
    report.warnings += [
        warning
        for input_report in report.inputs
        for rule_results in input_report.rule_results
        for warning in rule_results.warnings
    ]
    if options.ignores is not None:
        apply_ignores(report, options.ignores, options.today or utc_today(), known)
    if options.inline_suppressions:
        apply_inline_suppressions(report, catalogue)
    if options.baseline is not None:
        from engine.results.baseline import apply_baseline

        apply_baseline(report, options.baseline)
    return report


def _scan_here(
    inputs: list[ScanInput],
    rule_set: CompiledRuleSet,
    selected: Selected,
    evaluator: RuleEvaluator | None,
    report: ScanReport,
    progress: ProgressHook | None,
) -> None:
    """Evaluate every input in this process, adding its results to ``report``."""
    total = len(inputs) * len(selected.rules)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    for position, scan_input in enumerate(inputs, start=1):
        cancellation.check()
        with collector_paused():
            input_report = scan_one(scan_input, rule_set, selected, evaluator, report, tick)
        if input_report is not None:
            report.inputs.append(input_report)
        done = position * len(selected.rules)  # rules an unloadable input never ran
