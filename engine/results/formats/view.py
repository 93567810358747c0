"""What every output format shows of a scan: results grouped by rule, where a
result is written (its primary and related places), where an error message
says it happened, a result's identity, severity levels and the scan's counts.

Pure functions over a :class:`~engine.results.report.ScanReport`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from engine.inputs.discovery import ScanInput
from engine.results.building import Result, RuleResults
from engine.results.report import SEVERITY_LEVELS, WARN_LEVEL, ScanReport
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


def result_level(result: Result) -> str:
    """A result's ``error``/``warning``/``note``: ``warning`` for a warning (a result of
    ``warn``) unless its severity says ``note``, else by severity."""
    level = severity_level(result.severity)
    if result.level == WARN_LEVEL and level == "error":
        return "warning"
    return level


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


def _points(location: Any) -> list[SourcePoint]:
    """The places a location value names: one dict, or a list of them (a State
    resource's ``meta.location``); anything without a file path is left out."""
    found: list[SourcePoint] = []
    for item in location if isinstance(location, list) else [location]:
        if not isinstance(item, dict):
            continue
        path = item.get("filepath")
        if not isinstance(path, str) or not path:
            continue
        line = item.get("line")
        column = item.get("column")
        good_line = isinstance(line, int) and not isinstance(line, bool) and line >= 1
        good_column = isinstance(column, int) and not isinstance(column, bool) and column >= 1
        found.append(
            SourcePoint(
                path, line if good_line else None, column if good_line and good_column else None
            )
        )
    return found


def attribute_text(path: tuple[Any, ...]) -> str:
    """An attribute path as written in messages: ``spec.containers[0].image``."""
    out = ""
    for step in path:
        if isinstance(step, int) and not isinstance(step, bool):
            out += f"[{step}]"
        else:
            out += f".{step}" if out else str(step)
    return out


@dataclass(frozen=True)
class Place:
    """A located part of a result: a resource, or one attribute path of it."""

    point: SourcePoint
    resource_id: str
    resource_type: str
    attribute: tuple[Any, ...] | None = None

    @property
    def label(self) -> str:
        """The resource (with its type when its id does not start with it),
        then the attribute path: ``aws_s3_bucket_acl.site: acl``."""
        rid, rtype = self.resource_id, self.resource_type
        name = rid or rtype
        if rid and rtype and not rid.startswith(f"{rtype}."):
            name = f"{rid} ({rtype})"
        if self.attribute is not None:
            return f"{name}: {attribute_text(self.attribute)}"
        return name


@dataclass(frozen=True)
class ResultPlaces:
    """Where a result is shown (``primary``) and every other located part of it."""

    primary: Place | None
    related: tuple[Place, ...] = ()


def result_places(result: Result) -> ResultPlaces:
    """Every location the result's resources carry, the primary one first.

    The primary place is the first located attribute path (those of the
    result's own resource first; paths the rule read but did not name count
    only when it named none, and a path located at its resource's own place,
    one the resource lacks, does not count), else the result's resource, else
    the first located resource. Each resource appears once among the rest: by its
    located attribute paths when it has any, else by its own location; places
    equal to the primary point are left out.
    """
    key = (result.resource_namespace, result.resource_type, result.resource_id)
    primary_resources = [r for r in result.resources if (r.namespace, r.type, r.id) == key]
    ordered = primary_resources + [r for r in result.resources if r not in primary_resources]
    attributes: list[Place] = []
    shown: list[Place] = []
    # Paths the rule read count only when it named none.
    named = any(not a.inferred for r in result.resources for a in r.attributes)
    for resource in ordered:
        # A path located at its resource itself (one the resource lacks) places nothing.
        itself = set(_points(resource.location))
        own = [
            Place(point, resource.id, resource.type, tuple(attribute.path))
            for attribute in resource.attributes
            if not (named and attribute.inferred)
            for point in _points(attribute.location)
            if point not in itself
        ]
        attributes += own
        shown += own or [Place(p, resource.id, resource.type) for p in _points(resource.location)]
    if attributes:
        primary: Place | None = attributes[0]
    else:
        primary = shown[0] if shown else None
    related: list[Place] = []
    seen = {primary.point} if primary is not None else set()
    for place in shown:
        if place.point not in seen:
            seen.add(place.point)
            related.append(place)
    return ResultPlaces(primary, tuple(related))


def result_location(result: Result) -> SourcePoint | None:
    """The point of the result's primary place (:func:`result_places`)."""
    primary = result_places(result).primary
    return primary.point if primary is not None else None


ERROR_LOCATION = re.compile(
    r"(?P<path>(?:[A-Za-z]:[\\/])?[^:\n]+?)"
    r"(?::(?P<line>[1-9][0-9]*)(?::(?P<column>[1-9][0-9]*))?)?: "
)
"""An error message's leading ``path[:line[:column]]: ``."""


@dataclass(frozen=True)
class ErrorLocator:
    """Finds where a scan's error messages say they happened.

    ``path:line: message`` and ``path:line:column: message`` are located
    wherever the path points; ``path: message`` only when ``path`` is one of
    ``files`` (a bare prefix may name an input directory or anything else).
    A leading ``package: `` of one of ``packages`` (a rule's compile error)
    is passed over first.
    """

    files: frozenset[str] = frozenset()
    packages: frozenset[str] = frozenset()

    @classmethod
    def of(cls, report: ScanReport) -> ErrorLocator:
        """The locator of a report: its inputs' files and its rules' packages."""
        return cls(
            frozenset(f for i in report.inputs for f in i.input.source_files),
            frozenset(rule.package for i in report.inputs for rule in i.rule_results),
        )

    def locate(self, error: str) -> SourcePoint | None:
        """The place ``error`` starts with, or None when it starts with none."""
        package, sep, rest = error.partition(": ")
        if sep and package in self.packages:
            error = rest
        match = ERROR_LOCATION.match(error)
        if match is None:
            return None
        path, line, column = match.group("path", "line", "column")
        if line is None:
            return SourcePoint(path) if path in self.files else None
        return SourcePoint(path, int(line), int(column) if column is not None else None)


def input_file(scan_input: ScanInput) -> str | None:
    """The one file an input was read from, when it was read from exactly one."""
    if len(scan_input.source_files) == 1:
        return scan_input.source_files[0]
    return None


def resource_label(result: Result) -> str:
    """The result's resource id (its type for a missing-resource result), with its tag."""
    label = result.resource_id or result.resource_type or "(no resource)"
    return f"{label} [{result.result_tag}]" if result.result_tag else label


def result_fingerprint(input_name: str, rule_id: str, result: Result) -> str:
    """A stable hash of the input (as shown), the rule and the result's identity
    (namespace, type, id, result_tag)."""
    identity = [
        input_name,
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
    warned: int = 0
    """Failing results of ``warn`` (not among ``failed``)."""

    def line(self) -> str:
        """``4 rules, 12 resources: 6 passed, 5 failed, 1 ignored, 0 errors`` (``, 2 warned``
        after ``failed`` when some results are warnings)."""
        warned = f", {self.warned} warned" if self.warned else ""
        return (
            f"{_plural(self.rules, 'rule')}, {_plural(self.resources, 'resource')}: "
            f"{self.passed} passed, {self.failed} failed{warned}, {self.ignored} ignored, "
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
        failed=sum(1 for r in results if not r.passed and not r.ignored and r.level != WARN_LEVEL),
        ignored=sum(1 for r in results if r.ignored),
        errors=len(report.errors) + len(unlisted_rule_errors(report)),
        warned=sum(1 for r in results if not r.passed and not r.ignored and r.level == WARN_LEVEL),
    )


def failed_by_severity(report: ScanReport) -> list[tuple[str, int]]:
    """(severity, failing results) for critical, high, medium and low, then any other
    severity word results carry (lower case, sorted); ignored results and warnings are
    not counted."""
    counts = dict.fromkeys(reversed(SEVERITY_LEVELS), 0)
    others: dict[str, int] = {}
    for i in report.inputs:
        for rule in i.rule_results:
            for r in rule.results:
                if r.passed or r.ignored or r.level == WARN_LEVEL:
                    continue
                word = r.severity.strip().lower() or "none"
                if word in counts:
                    counts[word] += 1
                else:
                    others[word] = others.get(word, 0) + 1
    return list(counts.items()) + sorted(others.items())


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
