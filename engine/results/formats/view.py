"""What every output format shows of a scan: results grouped by rule, where a
result is written, its identity, severity levels and the scan's counts.

Pure functions over a :class:`~engine.results.report.ScanReport`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import orjson

from engine.inputs.discovery import ScanInput
from engine.results.building import Result, RuleResults
from engine.results.report import ScanReport
from engine.rules.metadata import RuleMetadata

LEVEL_BY_SEVERITY = {
    "critical": "error",
    "high": "error",
    "medium": "warning",
    "low": "note",
    "info": "note",
    "informational": "note",
}
"""SARIF level of a severity word (lower case); any other word is ``warning``."""


def severity_level(severity: str) -> str:
    """``error``, ``warning`` or ``note`` for a severity word, matched case-insensitively."""
    return LEVEL_BY_SEVERITY.get(severity.strip().lower(), "warning")


@dataclass
class RuleGroup:
    """One rule's results over every input it ran on."""

    package: str
    metadata: RuleMetadata
    runs: list[tuple[ScanInput, RuleResults]] = field(default_factory=list)

    @property
    def rule_id(self) -> str:
        """The metadata id, or the package when the rule has none."""
        return self.metadata.id or self.package

    @property
    def heading(self) -> str:
        """``ID: title`` (or the package when the rule has neither)."""
        if self.metadata.title:
            return f"{self.rule_id}: {self.metadata.title}"
        return self.rule_id

    def results(self) -> list[tuple[ScanInput, Result]]:
        """Every result of the rule with its input, inputs in scan order."""
        return [(i, r) for i, rule in self.runs for r in rule.results]

    def errors(self) -> list[tuple[ScanInput, str]]:
        """Every error of the rule with the input it happened on."""
        return [(i, e) for i, rule in self.runs for e in rule.errors]


def by_rule(report: ScanReport) -> list[RuleGroup]:
    """The report's rule results grouped by rule package, sorted by package.

    A rule's metadata is the first non-empty one seen (a rule that failed to
    compile on one input has none)."""
    groups: dict[str, RuleGroup] = {}
    for input_report in report.inputs:
        for rule in input_report.rule_results:
            group = groups.get(rule.package)
            if group is None:
                group = groups[rule.package] = RuleGroup(rule.package, rule.metadata)
            elif group.metadata == RuleMetadata():
                group.metadata = rule.metadata
            group.runs.append((input_report.input, rule))
    return [groups[p] for p in sorted(groups)]


@dataclass(frozen=True)
class SourcePoint:
    """A place in a file: path, and line and column when known (1-based)."""

    filepath: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        out = self.filepath
        if self.line is not None:
            out += f":{self.line}"
            if self.column is not None:
                out += f":{self.column}"
        return out


def _point(location: Any) -> SourcePoint | None:
    if not isinstance(location, dict):
        return None
    path = location.get("filepath")
    if not isinstance(path, str) or not path:
        return None
    line = location.get("line")
    column = location.get("column")
    good_line = isinstance(line, int) and not isinstance(line, bool) and line >= 1
    good_column = isinstance(column, int) and not isinstance(column, bool) and column >= 1
    return SourcePoint(
        path, line if good_line else None, column if good_line and good_column else None
    )


def result_location(result: Result) -> SourcePoint | None:
    """Where a result is best shown: the first located attribute of its primary
    resource, else the primary resource, else the first located resource."""
    primary = [
        r
        for r in result.resources
        if (r.namespace, r.type, r.id)
        == (result.resource_namespace, result.resource_type, result.resource_id)
    ]
    others = [r for r in result.resources if r not in primary]
    for resource in primary:
        for attribute in resource.attributes:
            found = _point(attribute.location)
            if found is not None:
                return found
    for resource in (*primary, *others):
        found = _point(resource.location)
        if found is not None:
            return found
    return None


def input_file(scan_input: ScanInput) -> str | None:
    """The one file an input was read from, when it was read from exactly one."""
    if len(scan_input.source_files) == 1:
        return scan_input.source_files[0]
    return None


def resource_label(result: Result) -> str:
    """The result's resource id (its type for a missing-resource result), with its tag."""
    label = result.resource_id or result.resource_type or "(no resource)"
    return f"{label} [{result.result_tag}]" if result.result_tag else label


def result_fingerprint(rule_id: str, result: Result) -> str:
    """A stable hash of the rule and the result's identity (namespace, type, id, result_tag)."""
    identity = [
        rule_id,
        result.resource_namespace,
        result.resource_type,
        result.resource_id,
        result.result_tag,
    ]
    return hashlib.sha256(orjson.dumps(identity)).hexdigest()


@dataclass(frozen=True)
class ScanCounts:
    """The numbers a scan's summary line gives."""

    rules: int
    resources: int
    passed: int
    failed: int
    ignored: int
    errors: int

    def line(self) -> str:
        """``4 rules, 12 resources: 6 passed, 5 failed, 1 ignored, 0 errors``."""
        return (
            f"{_plural(self.rules, 'rule')}, {_plural(self.resources, 'resource')}: "
            f"{self.passed} passed, {self.failed} failed, {self.ignored} ignored, "
            f"{_plural(self.errors, 'error')}"
        )


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def scan_counts(report: ScanReport) -> ScanCounts:
    """Rules run, resources scanned, results by outcome (ignored ones apart), errors."""
    results = [r for i in report.inputs for rule in i.rule_results for r in rule.results]
    return ScanCounts(
        rules=len({rule.package for i in report.inputs for rule in i.rule_results}),
        resources=sum(sum(1 for _ in i.input.state.all_resources()) for i in report.inputs),
        passed=sum(1 for r in results if r.passed and not r.ignored),
        failed=sum(1 for r in results if not r.passed and not r.ignored),
        ignored=sum(1 for r in results if r.ignored),
        errors=len(report.errors) + len(unlisted_rule_errors(report)),
    )


def unlisted_rule_errors(report: ScanReport) -> list[tuple[ScanInput, str, str]]:
    """(input, package, error) for every rule error on an input that the
    report's own errors do not already hold (compile errors are listed there once)."""
    listed = set(report.errors)
    return [
        (i.input, rule.package, error)
        for i in report.inputs
        for rule in i.rule_results
        for error in rule.errors
        if f"{rule.package}: {error}" not in listed
    ]
