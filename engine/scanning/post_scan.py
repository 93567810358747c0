"""What is done to a scan report once every input is evaluated: each pass a
function of the report and the rules that ran, applied in the order of
:data:`POST_SCAN_PASSES`.

Severity filtering (``--severity``) is not among them: it changes only what
is shown, after a baseline of every failure may have been written, so the
command line applies :func:`at_or_above_severity` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.results.ignores import apply_ignores, utc_today
from engine.results.inline_suppressions import apply_inline_suppressions
from engine.results.report import ScanReport
from engine.rules.metadata import RuleMetadata

if TYPE_CHECKING:
    from engine.results.severity_filter import SeverityFiltered
    from engine.scanning.scan_options import ScanOptions


@dataclass(frozen=True)
class RulesRun:
    """The rules a scan knew: (package, metadata id) of every rule, and each
    one's metadata, compile failures included (with empty ids and metadata)."""

    known: list[tuple[str, str]]
    catalogue: list[tuple[str, RuleMetadata]]


PostScanPass = Callable[[ScanReport, RulesRun, "ScanOptions"], None]


def collect_rule_warnings(report: ScanReport, rules: RulesRun, options: ScanOptions) -> None:
    """Every rule's warnings on every input, added to the report's warnings."""
    report.warnings += [
        warning
        for input_report in report.inputs
        for rule_results in input_report.rule_results
        for warning in rule_results.warnings
    ]


def apply_ignore_file(report: ScanReport, rules: RulesRun, options: ScanOptions) -> None:
    """Results matching the ignore file's accepted findings are marked ignored."""
    if options.ignores is not None:
        apply_ignores(report, options.ignores, options.today or utc_today(), rules.known)


def apply_suppression_comments(report: ScanReport, rules: RulesRun, options: ScanOptions) -> None:
    """Results suppressed by comments in the scanned files are marked ignored
    (unless ``--no-inline-suppressions``)."""
    if options.inline_suppressions:
        apply_inline_suppressions(report, rules.catalogue)


def apply_baseline_file(report: ScanReport, rules: RulesRun, options: ScanOptions) -> None:
    """Failures recorded in the baseline (``--baseline``) are marked ignored."""
    if options.baseline is not None:
        from engine.results.baseline import apply_baseline

        apply_baseline(report, options.baseline)


POST_SCAN_PASSES: tuple[PostScanPass, ...] = (
    collect_rule_warnings,
    apply_ignore_file,
    apply_suppression_comments,
    apply_baseline_file,
)
"""The passes :func:`~engine.scanning.scanner.scan` applies, in order."""


def at_or_above_severity(report: ScanReport, severity: str) -> SeverityFiltered:
    """The report with only the results at or above ``severity`` (``--severity``)."""
    from engine.results.severity_filter import at_or_above

    return at_or_above(report, severity)
