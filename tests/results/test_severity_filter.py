"""The report seen through ``--severity``: what is kept, what is counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.results.building import Result, RuleResults
from engine.results.report import InputReport, ScanReport
from engine.results.severity_filter import at_or_above, shown_at
from engine.rules.metadata import RuleMetadata


def _result(severity: str, passed: bool) -> Result:
    return Result(passed, "m", "r", "", "t", "", severity, "", None, [], [])


def _report(*severities: str) -> ScanReport:
    results = [_result(s, passed=i % 2 == 0) for i, s in enumerate(severities)]
    rule = RuleResults("data.rules.x", RuleMetadata(), ["t"], ["an error"], results)
    return ScanReport([InputReport(Path("in.json"), [rule])], ["e"], ["w"])  # type: ignore[arg-type]


def test_results_below_the_level_are_left_out_and_counted() -> None:
    report = _report("low", "Medium", "HIGH", "critical", "low")
    filtered = at_or_above(report, "medium")
    kept = filtered.report.inputs[0].rule_results[0]
    assert [r.severity for r in kept.results] == ["Medium", "HIGH", "critical"]
    assert filtered.left_out == 2
    assert kept.errors == ["an error"]
    assert (filtered.report.errors, filtered.report.warnings) == (["e"], ["w"])
    assert len(report.inputs[0].rule_results[0].results) == 5  # the original is unchanged


def test_severities_that_cannot_be_compared_are_shown() -> None:
    assert shown_at("informational", "critical")
    assert shown_at("", "high")
    assert not shown_at("Low", "medium")
    assert shown_at("LOW", "low")


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown severity 'none'"):
        at_or_above(_report("low"), "none")
