"""``scan --severity LEVEL``: the report with the results below a severity left out.

A result is kept when its severity is LEVEL or higher (``low < medium < high <
critical``, compared case-insensitively) or is none of those four words (it
cannot be compared, so it is not hidden). Passed, failed and ignored results
are filtered alike; rules stay listed with their errors even when none of
their results is kept. The report's errors and warnings are kept whole.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.results.report import SEVERITY_LEVELS, InputReport, ScanReport


@dataclass(frozen=True)
class SeverityFiltered:
    """The filtered report and how many results were left out of it."""

    report: ScanReport
    left_out: int


def shown_at(severity: str, level: str) -> bool:
    """Whether a result of ``severity`` is shown with ``--severity level``."""
    word = severity.lower()
    if word not in SEVERITY_LEVELS:
        return True
    return SEVERITY_LEVELS.index(word) >= SEVERITY_LEVELS.index(level.lower())


def at_or_above(report: ScanReport, level: str) -> SeverityFiltered:
    """``report`` without the results below ``level`` (the original is not changed)."""
    if level.lower() not in SEVERITY_LEVELS:
        raise ValueError(f"unknown severity {level!r} ({', '.join(SEVERITY_LEVELS)})")
    left_out = 0
    inputs = []
    for input_report in report.inputs:
        rules = []
        for rule in input_report.rule_results:
            kept = [r for r in rule.results if shown_at(r.severity, level)]
            left_out += len(rule.results) - len(kept)
            rules.append(replace(rule, results=kept))
        inputs.append(InputReport(input_report.input, rules))
    return SeverityFiltered(replace(report, inputs=inputs), left_out)
