"""The results document of a scan, its JSON form, and what it means for CI.

``{format: "results", format_version, results: [{input, rule_results}],
errors, warnings}``: per input its State and every applicable rule's
results. Serialised with sorted keys, so the same scan gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core.collector import collector_paused
from engine.wasm import values

if TYPE_CHECKING:
    from engine.inputs.discovery import ScanInput
    from engine.results.building import Result, RuleResults

FORMAT_VERSION = "1.0.0"

SEVERITY_LEVELS = ("low", "medium", "high", "critical")
"""Severities ``--fail-on`` accepts, lowest first (compared case-insensitively)."""

WARN_LEVEL = "warn"
"""The level of a failing result only ``warn`` gave: a warning, apart from severity."""

EXIT_OK = 0
EXIT_FAILURES = 1
EXIT_ERRORS = 2
EXIT_NO_INPUT = 3


@dataclass
class InputReport:
    """The results of every applicable rule on one input."""

    input: ScanInput
    rule_results: list[RuleResults]


@dataclass
class ScanReport:
    """Everything a scan found, and the problems that did not stop it."""

    inputs: list[InputReport] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Problems outside any one rule's results: unreadable inputs, broken libraries."""
    warnings: list[str] = field(default_factory=list)

    def failing_results(self) -> list[Result]:
        """Every failing result, over all inputs and rules."""
        return [
            r
            for report in self.inputs
            for rule in report.rule_results
            for r in rule.results
            if not r.passed
        ]

    @property
    def has_errors(self) -> bool:
        """Whether any input or rule could not be processed."""
        return bool(self.errors) or any(
            rule.errors for report in self.inputs for rule in report.rule_results
        )

    def exit_code(self, fail_on: str | None = None, *, fail_on_warn: bool = False) -> int:
        """0 clean, 1 failing results (at or above ``fail_on``), 2 errors, 3 no input.

        ``fail_on`` None counts every failing result; ``"none"`` never fails on
        findings. Ignored results never count, nor do warnings (results of ``warn``)
        unless ``fail_on_warn``.
        """
        if self.has_errors:
            return EXIT_ERRORS
        if not self.inputs:
            return EXIT_NO_INPUT
        if any(
            fails_at(r.severity, fail_on)
            for r in self.failing_results()
            if not r.ignored and (fail_on_warn or r.level != WARN_LEVEL)
        ):
            return EXIT_FAILURES
        return EXIT_OK

    def to_dict(self) -> dict[str, Any]:
        """The results document as plain JSON values."""
        return {
            "format": "results",
            "format_version": FORMAT_VERSION,
            "results": [
                {
                    # Parsed from JSON or YAML: already plain JSON values.
                    "input": report.input.state.document,
                    "rule_results": [_rule_dict(r) for r in report.rule_results],
                }
                for report in self.inputs
            ],
            "errors": list(self.errors),
            "warnings": list(self.warnings),
        }

    def to_json(self, *, indent: bool = True) -> bytes:
        """The results document as JSON text (sorted keys: byte-identical across runs)."""
        with collector_paused():
            return values.dumps_json(self.to_dict(), indent=indent)


def fails_at(severity: str, fail_on: str | None) -> bool:
    """Whether a failing result of ``severity`` fails a run with ``--fail-on fail_on``."""
    if fail_on is None:
        return True
    threshold = fail_on.lower()
    if threshold == "none":
        return False
    level = severity.lower()
    if level not in SEVERITY_LEVELS:
        return False
    return SEVERITY_LEVELS.index(level) >= SEVERITY_LEVELS.index(threshold)


def _rule_dict(rule: RuleResults) -> dict[str, Any]:
    meta = rule.metadata
    return {
        "package": rule.package,
        "id": meta.id,
        "title": meta.title,
        "description": meta.description,
        "kind": meta.kind,
        "severity": meta.severity,
        "platform": values.to_json(meta.platform),
        "references": list(meta.references),
        "labels": values.to_json(meta.labels),
        "category": meta.category,
        "service_group": meta.service_group,
        "controls": list(meta.controls),
        "resource_types": list(rule.resource_types),
        "errors": list(rule.errors),
        "results": [_result_dict(r) for r in rule.results],
    }


def _result_dict(result: Result) -> dict[str, Any]:
    out = _result_fields(result)
    if result.level == WARN_LEVEL:
        out["level"] = WARN_LEVEL  # only warnings carry a level: the rest are denials
    return out


def _result_fields(result: Result) -> dict[str, Any]:
    return {
        "passed": result.passed,
        "ignored": result.ignored,
        "message": result.message,
        "resource_id": result.resource_id,
        "resource_namespace": result.resource_namespace,
        "resource_type": result.resource_type,
        "result_tag": result.result_tag,
        "severity": result.severity,
        "remediation": result.remediation,
        "context": values.to_json(result.context),
        "graph": values.to_json(result.graph),
        "resources": [
            {
                "id": r.id,
                "type": r.type,
                "namespace": r.namespace,
                "location": values.to_json(r.location),
                "attributes": [
                    {"path": list(a.path), "location": values.to_json(a.location)}
                    for a in r.attributes
                ],
            }
            for r in result.resources
        ],
    }
