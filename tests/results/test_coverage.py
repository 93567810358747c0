"""Resources no rule checked (:mod:`engine.results.coverage`) and code excerpts
(:mod:`engine.results.code_excerpts`): pure functions over hand-built reports."""

from __future__ import annotations

from pathlib import Path

from engine.inputs.discovery import ScanInput
from engine.inputs.state import parse_state
from engine.results.building import Result, ResultResource, RuleResults
from engine.results.code_excerpts import CodeLines, excerpt
from engine.results.coverage import scan_coverage
from engine.results.report import InputReport, ScanReport
from engine.rules.metadata import RuleMetadata


def state_input(types: dict[str, list[str]], input_type: str = "tf_hcl") -> ScanInput:
    doc = {
        "input_type": input_type,
        "resources": {
            t: {k: {"id": k, "resource_type": t, "attributes": {}} for k in keys}
            for t, keys in types.items()
        },
    }
    return ScanInput("in", None, parse_state(doc), ())


def rule(asked: list[str], named: list[tuple[str, str]] = ()) -> RuleResults:
    results = [
        Result(
            False, "", rid, "", rtype, "", "high", "", None, [], [ResultResource(rid, rtype, "")]
        )
        for rtype, rid in named
    ]
    return RuleResults("data.rules.r", RuleMetadata(id="R"), asked, [], results)


def test_types_asked_for_and_resources_named_are_covered() -> None:
    scanned = state_input(
        {"a_bucket": ["a_bucket.x", "a_bucket.y"], "b_key": ["b_key.k"], "c_db": ["c_db.d"]}
    )
    report = ScanReport([InputReport(scanned, [rule(["a_bucket"], [("c_db", "c_db.d")])])])
    coverage = scan_coverage(report)
    assert coverage.resources == 4
    assert coverage.uncovered_by_type == (("b_key", 1),)
    assert not coverage.none_applied
    assert coverage.line() == "1 resource no rule checks (1 type): b_key (1)"


def test_no_rule_applied_at_all() -> None:
    scanned = state_input({"a_bucket": ["a_bucket.x", "a_bucket.y"], "b_key": ["b_key.k"]})
    coverage = scan_coverage(ScanReport([InputReport(scanned, [])]))
    assert coverage.none_applied
    assert coverage.line() == (
        "No rule applied to any of the 3 resources (2 types): a_bucket (2), b_key (1)"
    )
    assert coverage.line(most=1).endswith("a_bucket (2), and 1 more type")


def test_a_supertype_asked_for_covers_its_subtypes() -> None:
    scanned = state_input({"Deployment": ["web"], "Service": ["web"]}, "k8s")
    coverage = scan_coverage(ScanReport([InputReport(scanned, [rule(["workload"])])]))
    assert coverage.uncovered_by_type == (("Service", 1),)


def test_an_empty_scan_has_nothing_uncovered() -> None:
    coverage = scan_coverage(ScanReport([]))
    assert (coverage.resources, coverage.uncovered, coverage.none_applied) == (0, 0, False)
    assert coverage.line() == ""


def test_excerpt_is_clipped_to_the_file() -> None:
    lines = ["a", "\tb", "c", "d", "e", "f"]
    assert excerpt(lines, 1) == [(1, "a"), (2, "  b"), (3, "c"), (4, "d")]
    assert excerpt(lines, 6) == [(5, "e"), (6, "f")]
    assert excerpt(lines, 7) == []
    assert excerpt(None, 1) == []


def test_code_lines_reads_only_scanned_files(tmp_path: Path) -> None:
    scanned = tmp_path / "main.tf"
    scanned.write_text("one\ntwo\n")
    other = tmp_path / "secret.txt"
    other.write_text("secret\n")
    code = CodeLines(frozenset({str(scanned)}))
    assert code.lines(str(scanned)) == ["one", "two"]
    assert code.lines(str(other)) is None
    assert (
        CodeLines(frozenset({str(tmp_path / "gone.tf")})).lines(str(tmp_path / "gone.tf")) is None
    )
