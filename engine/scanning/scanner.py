"""The scan: rules from ``-d`` paths over the inputs found below the given paths.

The library API behind ``rego-engine scan``::

    report = scan([Path("infra")], [Path("rules")], ScanOptions(rule_timeout=10))
    sys.stdout.buffer.write(report.to_json())
    sys.exit(report.exit_code())

Problems with single files, rules or inputs are recorded in the report and
the rest of the scan goes on. A scan prepares the rules (from a bundle, the
prepared-rules cache or by compiling them), selects the ones to run, hands
them to the executor :func:`~engine.scanning.executors.choose_executor` picks
(this process, worker processes or a cluster), then applies the post-scan
passes of :mod:`engine.scanning.post_scan` to the report.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.collector import thaw
from engine.core.signed_cache import key_problem
from engine.evaluation import prepared_cache
from engine.evaluation.bundle import read_bundle
from engine.evaluation.evaluator import RuleEvaluator
from engine.evaluation.prepared_rules import PreparedRules, compile_rules, rules_origin
from engine.inputs.discovery import LoadedInputs
from engine.results.report import ScanReport
from engine.rules.metadata import RuleMetadata
from engine.rules.selection import RuleSelection
from engine.scanning.executors import RunnableRules, choose_executor
from engine.scanning.input_scan import Selected
from engine.scanning.post_scan import POST_SCAN_PASSES, RulesRun
from engine.scanning.scan_options import ScanOptions
from engine.wasm.host import Limits

__all__ = ["ScanOptions", "scan"]


def scan(
    input_paths: list[Path], rule_paths: list[Path], options: ScanOptions | None = None
) -> ScanReport:
    """Run the rules below ``rule_paths`` (or from ``options.bundle``) over the
    inputs below ``input_paths``."""
    options = options or ScanOptions()
    report = ScanReport()
    if (untrusted := key_problem()) is not None:
        report.warnings.append(untrusted)
    prepared, cache_key = _prepare_rules(
        rule_paths, options.bundle, report, debug_print=options.debug_print
    )
    limits = Limits(
        options.rule_timeout,
        options.max_memory_mb,
        options.max_output_mb,
        timeout_option=options.timeout_option,
    )
    evaluator = _evaluator(prepared, limits, cache_key)
    rules_run, selected = _select_rules(prepared, evaluator, options.selection, report)
    executor = choose_executor(
        RunnableRules(prepared, selected, evaluator, limits),
        jobs=options.jobs,
        client=options.cluster,
        cluster_shared_fs=options.cluster_shared_fs,
        progress=options.progress,
    )
    try:
        loaded = executor.load(input_paths, options.load, options.load_progress)
        _record_loading(report, loaded, input_paths)
        selection_errors, selection_warnings = options.selection.problems(rules_run.known)
        report.errors += selection_errors
        report.warnings += selection_warnings
        executor.evaluate(loaded.inputs, report)
    finally:
        if evaluator is not None:
            evaluator.close()  # its Wasm memory may be GiBs: free it before returning
    thaw()
    for post_scan_pass in POST_SCAN_PASSES:
        post_scan_pass(report, rules_run, options)
    return report


def _prepare_rules(
    rule_paths: list[Path], bundle: Path | None, report: ScanReport, *, debug_print: bool = False
) -> tuple[PreparedRules, str | None]:
    """The rules from ``bundle``, else from the prepared-rules cache, else
    compiled from ``rule_paths``; with the cache key to store them under when
    they were compiled here (None otherwise). With ``debug_print`` the rules
    are compiled with their print calls, past the cache."""
    if bundle is not None:
        if debug_print:
            report.warnings.append("--debug-print has no effect on a bundle's precompiled rules")
        return read_bundle(bundle), None
    if debug_print:
        return compile_rules(rule_paths, include_print=True), None
    key = prepared_cache.cache_key(rule_paths)
    cached = None if key is None else prepared_cache.load(key, rules_origin(rule_paths))
    if cached is not None:
        return cached, None
    return compile_rules(rule_paths), key


def _evaluator(
    prepared: PreparedRules, limits: Limits, cache_key: str | None
) -> RuleEvaluator | None:
    """The evaluator of the prepared rules (None when there is no rule to run);
    rules compiled here are stored in the cache under ``cache_key``."""
    rule_set = prepared.rule_set
    if rule_set.policy is None or not rule_set.rules:
        return None
    evaluator = RuleEvaluator(rule_set, limits, statics=prepared.statics, infer_attributes=True)
    if cache_key is not None and prepared_cache.cacheable(prepared):
        prepared_cache.store(cache_key, prepared, evaluator.statics, evaluator.abi_version)
    return evaluator


def _select_rules(
    prepared: PreparedRules,
    evaluator: RuleEvaluator | None,
    selection: RuleSelection,
    report: ScanReport,
) -> tuple[RulesRun, Selected]:
    """Every rule known (compile failures first) and those ``selection`` picks;
    the rules' problems and an empty rule set are recorded in ``report``."""
    rule_set = prepared.rule_set
    report.warnings += prepared.warnings
    report.errors += prepared.file_errors
    failed_selected = [f for f in rule_set.failed if selection.selects(f.rule.ref)]
    for failed in failed_selected:
        report.errors += [f"{failed.rule.ref}: {m}" for m in failed.messages]
    if not rule_set.rules and not rule_set.failed:
        report.errors.append(
            "no rules found: a rule is a package under rules. that defines deny "
            f"(searched {prepared.origin})"
        )
    rules_run = RulesRun(
        known=[(failed.rule.ref, "") for failed in rule_set.failed],
        catalogue=[(failed.rule.ref, RuleMetadata()) for failed in rule_set.failed],
    )
    selected = Selected([], failed_selected)
    if evaluator is not None:
        for index, rule in enumerate(rule_set.rules):
            metadata = evaluator.statics[index].metadata
            rules_run.known.append((rule.ref, metadata.id))
            rules_run.catalogue.append((rule.ref, metadata))
            if selection.selects(rule.ref, metadata.id):
                selected.rules.append(index)
    return rules_run, selected


def _record_loading(report: ScanReport, loaded: LoadedInputs, input_paths: list[Path]) -> None:
    """Inputs that could not be loaded are errors; finding none at all is a warning."""
    report.errors += [str(p) for p in loaded.problems]
    report.warnings += [w for scan_input in loaded.inputs for w in scan_input.warnings]
    if not loaded.inputs and not loaded.problems:
        report.warnings.append(
            "no supported input found in " + ", ".join(str(p) for p in input_paths)
        )
