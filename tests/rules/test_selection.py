"""--rule and --exclude-rule: by metadata id or package, in the library and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from scan_fixtures import ACL_RULE, BROKEN_RULE, ENC_RULE, state, write, write_json

from engine.cli.main import app
from engine.results.report import ScanReport
from engine.rules.selection import RuleSelection, names_rule
from engine.scanning.scanner import ScanOptions, scan

FAILING = state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}})


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path / "rules" / "enc.rego", ENC_RULE)  # T1, High
    write(tmp_path / "rules" / "acl.rego", ACL_RULE)  # T2, low
    write_json(tmp_path / "in" / "state.json", FAILING)
    return tmp_path


def packages(report: ScanReport) -> list[str]:
    return sorted({rule.package for i in report.inputs for rule in i.rule_results})


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("T1", True),
        ("rules.enc", True),
        ("data.rules.enc", True),
        ("t1", False),  # ids are case-sensitive
        ("enc", False),
        ("rules", False),
        ("", False),
    ],
)
def test_names_rule(name: str, named: bool) -> None:
    assert names_rule(name, "data.rules.enc", "T1") is named


def test_selection_rules() -> None:
    everything = RuleSelection()
    assert everything.selects("data.rules.x", "X")
    only = RuleSelection(include=("X", "rules.y"))
    assert only.selects("data.rules.x", "X") and only.selects("data.rules.y", "")
    assert not only.selects("data.rules.z", "Z")
    both = RuleSelection(include=("X", "Y"), exclude=("data.rules.y",))
    assert both.selects("data.rules.x", "X") and not both.selects("data.rules.y", "Y")
    assert both.problems([("data.rules.x", "X")]) == (
        ["--rule 'Y' names no rule"],
        ["--exclude-rule 'data.rules.y' names no rule"],
    )


@pytest.mark.parametrize(
    ("selection", "expected", "code"),
    [
        (RuleSelection(), ["data.rules.enc", "data.rules.public_acl"], 1),
        (RuleSelection(include=("T2",)), ["data.rules.public_acl"], 1),
        (RuleSelection(include=("rules.enc",)), ["data.rules.enc"], 1),
        (RuleSelection(exclude=("T1",)), ["data.rules.public_acl"], 1),
        (RuleSelection(exclude=("data.rules.public_acl",)), ["data.rules.enc"], 1),
        (RuleSelection(include=("T1", "T2"), exclude=("T2",)), ["data.rules.enc"], 1),
        (RuleSelection(exclude=("T1", "T2")), [], 0),
    ],
)
def test_library_selection(
    tree: Path, selection: RuleSelection, expected: list[str], code: int
) -> None:
    report = scan([tree / "in"], [tree / "rules"], ScanOptions(selection=selection))
    assert packages(report) == expected
    assert report.exit_code() == code
    assert report.warnings == []


def test_a_rule_name_that_matches_nothing_is_an_error(tree: Path) -> None:
    """A typo in --rule would silently run fewer rules: an error (exit 2); a typo in
    --exclude-rule runs more, and is a warning."""
    selection = RuleSelection(include=("T1", "T9"), exclude=("rules.nothing",))
    report = scan([tree / "in"], [tree / "rules"], ScanOptions(selection=selection))
    assert packages(report) == ["data.rules.enc"]
    assert report.errors == ["--rule 'T9' names no rule"]
    assert report.warnings == ["--exclude-rule 'rules.nothing' names no rule"]
    assert report.exit_code() == 2


def test_excluding_a_rule_that_does_not_compile_drops_its_error(tree: Path) -> None:
    write(tree / "rules" / "broken.rego", BROKEN_RULE)
    kept = scan([tree / "in"], [tree / "rules"])
    assert kept.exit_code() == 2
    dropped = scan(
        [tree / "in"],
        [tree / "rules"],
        ScanOptions(selection=RuleSelection(exclude=("rules.broken",))),
    )
    assert dropped.errors == [] and dropped.exit_code() == 1
    assert packages(dropped) == ["data.rules.enc", "data.rules.public_acl"]


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def test_cli_rule_options(tree: Path) -> None:
    base = (tree / "in", "-d", tree / "rules", "-f", "json")
    only_low = invoke(*base, "--rule", "T2", "--fail-on", "medium")
    assert only_low.exit_code == 0, only_low.stderr
    doc = json.loads(only_low.stdout_bytes)
    assert [r["package"] for r in doc["results"][0]["rule_results"]] == ["data.rules.public_acl"]
    both = invoke(*base, "--rule", "T2", "--rule", "data.rules.enc", "--fail-on", "medium")
    assert both.exit_code == 1
    excluded = invoke(*base, "--exclude-rule", "T1", "--exclude-rule", "rules.public_acl")
    assert excluded.exit_code == 0
    assert json.loads(excluded.stdout_bytes)["results"][0]["rule_results"] == []
    typo = invoke(*base, "--rule", "T7")
    assert typo.exit_code == 2
    assert "error: --rule 'T7' names no rule" in typo.stderr
