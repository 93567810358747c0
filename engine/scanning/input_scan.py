"""Scanning one input: every selected rule that applies to it, evaluated and built into results.

Both the in-process scan (:mod:`engine.scanning.scanner`) and the worker
processes of ``--jobs`` (:mod:`engine.scanning.parallel`) scan an input this way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.core import cancellation
from engine.core.internal_errors import internal_error
from engine.evaluation.attribute_reads import AttributeReadError
from engine.evaluation.evaluator import RuleEvaluator, RuleRun
from engine.inputs.discovery import ScanInput
from engine.inputs.state import State
from engine.results.building import ResourceIndex, RuleResults, build_rule_results
from engine.results.inferred_attributes import InferredBudget, add_inferred, without_attributes
from engine.results.report import InputReport, ScanReport
from engine.rules.metadata import RuleMetadata
from engine.rules.rule_set import CompiledRuleSet, RuleCompileError
from engine.wasm.host import EvalError


def scan_one(
    scan_input: ScanInput,
    rule_set: CompiledRuleSet,
    selected: Selected,
    evaluator: RuleEvaluator | None,
    report: ScanReport,
    tick: Callable[[], None],
    inferred: InferredBudget | None = None,
) -> InputReport | None:
    """The results of every selected rule that applies to one input (problems
    go to ``report``); None when the input cannot be loaded. ``inferred``: the
    inferred attribute paths the scan may still show (None: this input's bound)."""
    rule_results = _compile_failures(selected.failed)
    inferred = inferred if inferred is not None else InferredBudget()
    inferred.next_input()
    if evaluator is not None:
        try:
            evaluator.load(scan_input.state)
        except EvalError as exc:
            report.errors.append(f"{scan_input.name}: {exc}")
            return None
        except Exception as exc:  # an engine bug must not lose the other inputs
            report.errors.append(f"{scan_input.name}: {internal_error(exc)}")
            return None
        report.errors += [
            f"{scan_input.name}: {problem}" for problem in evaluator.relation_problems
        ]
        resources = ResourceIndex(scan_input.state)
        for index in selected.rules:
            cancellation.check()
            if evaluator.applicable(index, scan_input.state):
                run = evaluator.run(index)
                build: Callable[[RuleRun, State, ResourceIndex], list[RuleResults]] = _build
                if run.rule.legacy:
                    from engine.results.legacy_iac import build_legacy_rule_results

                    build = build_legacy_rule_results
                try:
                    built = build(run, scan_input.state, resources)
                except Exception as exc:  # an engine bug must not lose the other rules
                    run.errors.append(internal_error(exc))
                    built = build(run, scan_input.state, resources)
                if evaluator.infers_attributes and not run.rule.legacy and not run.errors:
                    try:
                        _infer_attributes(
                            evaluator, index, built, resources, scan_input.name, inferred
                        )
                    except Exception as exc:  # an engine bug must not lose the other rules
                        for one in built:
                            one.errors.append(internal_error(exc))
                rule_results.extend(built)
            tick()
    rule_results.sort(key=lambda r: r.package)
    return InputReport(scan_input, rule_results)


def _infer_attributes(
    evaluator: RuleEvaluator,
    index: int,
    built: list[RuleResults],
    resources: ResourceIndex,
    input_name: str,
    inferred: InferredBudget,
) -> None:
    """Give the resources of ``built`` that show no attribute path those rule
    ``index`` read of them as it was just evaluated; when the evaluator cannot
    tell (no traced copy of the module), the results stay as they are, with a
    warning."""
    for rule_results in built:
        wanted = without_attributes(rule_results)
        if not wanted:
            continue
        try:
            reads = evaluator.read_attributes(index, wanted)
        except AttributeReadError as exc:
            rule_results.warnings.append(
                f"{input_name}: {rule_results.package}: attribute paths not inferred: {exc}"
            )
            continue
        cut = add_inferred(rule_results, reads, resources, inferred)
        if cut is not None:
            rule_results.warnings.append(f"{input_name}: {rule_results.package}: {cut}")


def _build(run: RuleRun, state: State, resources: ResourceIndex) -> list[RuleResults]:
    return [build_rule_results(run, state, resources)]


class Selected(NamedTuple):
    """The rules a scan runs: indices of compiled rules, and rules that did not compile."""

    rules: list[int]
    failed: list[RuleCompileError]

    @classmethod
    def every_rule(cls, rule_set: CompiledRuleSet) -> Selected:
        """Every rule of ``rule_set``, compiled or not."""
        return cls(list(range(len(rule_set.rules))), list(rule_set.failed))


def _compile_failures(failed_rules: list[RuleCompileError]) -> list[RuleResults]:
    """A rule-results entry, with its errors, for every rule that did not compile."""
    return [
        RuleResults(
            package=failed.rule.ref,
            metadata=RuleMetadata(),
            resource_types=[],
            errors=[str(m) for m in failed.messages],
            results=[],
        )
        for failed in failed_rules
    ]
