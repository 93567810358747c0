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
from dataclasses import dataclass, field
from pathlib import Path

from engine.bundle import read_bundle
from engine.collector import collector_paused, thaw
from engine.evaluator import RuleEvaluator
from engine.inputs import LoadOptions, ScanInput, load_inputs
from engine.parallel import scan_in_workers
from engine.prepared_rules import compile_rules
from engine.report import InputReport, ScanReport
from engine.results import ResourceIndex, RuleResults, build_rule_results
from engine.rule_metadata import RuleMetadata
from engine.rule_set import CompiledRuleSet
from engine.wasm_host import EvalError, Limits

ProgressHook = Callable[[int, int], None]
"""Called with (steps done, total steps) as rules run over inputs."""


@dataclass(frozen=True)
class ScanOptions:
    """Bounds and hooks of a scan."""

    rule_timeout: float = 30.0
    """Seconds one rule may take on one input."""
    max_memory_mb: int = 2048
    """MiB of Wasm memory the policy instance may use."""
    progress: ProgressHook | None = None
    load: LoadOptions = field(default_factory=LoadOptions)
    """How inputs are found and loaded (formats, skipped paths, size limit)."""
    bundle: Path | None = None
    """A bundle from ``rego-engine build`` to take the rules from instead of
    compiling ``rule_paths`` (no ``opa`` needed)."""
    jobs: int = 1
    """Worker processes evaluating inputs (1: evaluate in this process)."""


def scan(
    input_paths: list[Path], rule_paths: list[Path], options: ScanOptions | None = None
) -> ScanReport:
    """Run the rules below ``rule_paths`` over the inputs below ``input_paths``."""
    options = options or ScanOptions()
    report = ScanReport()
    prepared = (
        read_bundle(options.bundle) if options.bundle is not None else compile_rules(rule_paths)
    )
    rule_set = prepared.rule_set
    report.warnings += prepared.warnings
    report.errors += prepared.errors
    if not rule_set.rules and not rule_set.failed:
        report.errors.append(
            "no rules found: a rule is a package under rules. that defines deny "
            f"(searched {prepared.origin})"
        )
    loaded = load_inputs(input_paths, options.load)
    report.errors += [str(p) for p in loaded.problems]
    if not loaded.inputs and not loaded.problems:
        report.warnings.append(
            "no supported input found in " + ", ".join(str(p) for p in input_paths)
        )
    limits = Limits(options.rule_timeout, options.max_memory_mb)
    runnable = rule_set.policy is not None and bool(rule_set.rules)
    total = len(loaded.inputs) * len(rule_set.rules)
    if runnable and options.jobs > 1 and len(loaded.inputs) > 1:
        scan_in_workers(loaded.inputs, prepared, limits, options.jobs, report, options.progress)
        thaw()
        return report
    evaluator = (
        RuleEvaluator(rule_set, limits, statics=prepared.statics) if runnable else None
    )
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if options.progress is not None:
            options.progress(done, total)

    for position, scan_input in enumerate(loaded.inputs, start=1):
        with collector_paused():
            input_report = scan_one(scan_input, rule_set, evaluator, report, tick)
        if input_report is not None:
            report.inputs.append(input_report)
        done = position * len(rule_set.rules)  # rules an unloadable input never ran
    thaw()
    return report


def scan_one(
    scan_input: ScanInput,
    rule_set: CompiledRuleSet,
    evaluator: RuleEvaluator | None,
    report: ScanReport,
    tick: Callable[[], None],
) -> InputReport | None:
    """Every applicable rule's results on one input (problems go to ``report``);
    None when the input cannot be loaded."""
    rule_results = _compile_failures(rule_set)
    if evaluator is not None:
        try:
            evaluator.load(scan_input.state)
        except EvalError as exc:
            report.errors.append(f"{scan_input.name}: {exc}")
            return None
        report.errors += [
            f"{scan_input.name}: {problem}" for problem in evaluator.relation_problems
        ]
        resources = ResourceIndex(scan_input.state)
        for index in range(len(rule_set.rules)):
            if evaluator.applicable(index, scan_input.state):
                run = evaluator.run(index)
                rule_results.append(build_rule_results(run, scan_input.state, resources))
            tick()
    rule_results.sort(key=lambda r: r.package)
    return InputReport(scan_input, rule_results)


def _compile_failures(rule_set: CompiledRuleSet) -> list[RuleResults]:
    """A rule-results entry, with its errors, for every rule that did not compile."""
    return [
        RuleResults(
            package=failed.rule.ref,
            metadata=RuleMetadata(),
            resource_types=[],
            errors=[str(m) for m in failed.messages],
            results=[],
        )
        for failed in rule_set.failed
    ]
