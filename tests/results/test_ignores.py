"""The ignore file: parsing (errors by file and line), matching, expiry, and
its effect on results and exit codes, through the library and the CLI."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from scan_fixtures import ACL_RULE, ENC_RULE, state, write, write_json

from engine.cli.main import app
from engine.core.yaml_nodes import YamlFileError
from engine.results.ignores import (
    DEFAULT_IGNORE_FILE,
    IgnoreEntry,
    IgnoreList,
    apply_ignores,
    load_ignore_file,
)
from engine.results.report import ScanReport
from engine.scanning.scanner import ScanOptions, scan

# a fails public_acl (T2, low); b fails enc (T1, High)
FAILING = state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}})

IGNORE_BOTH = """\
ignores:
  - rule: T1
    resource: aws_s3_bucket.b
    reason: test bucket, never holds data
  - rule: rules.public_acl
    reason: public website buckets
    expires: 2030-01-01
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path / "rules" / "enc.rego", ENC_RULE)
    write(tmp_path / "rules" / "acl.rego", ACL_RULE)
    write_json(tmp_path / "in" / "state.json", FAILING)
    return tmp_path


def ignores_from(tmp_path: Path, text: str) -> IgnoreList:
    return load_ignore_file(write(tmp_path / "ignore.yaml", text))


def outcomes(report: ScanReport) -> list[tuple[str, str, bool, bool]]:
    return [
        (rule.metadata.id, r.resource_id, r.passed, r.ignored)
        for i in report.inputs
        for rule in i.rule_results
        for r in rule.results
    ]


# ---------------------------------------------------------------- parsing


def test_parse_entries(tmp_path: Path) -> None:
    listing = ignores_from(tmp_path, IGNORE_BOTH)
    path = tmp_path / "ignore.yaml"
    assert listing.entries == (
        IgnoreEntry(
            "T1", "test bucket, never holds data", "aws_s3_bucket.b", None, None, f"{path}:2"
        ),
        IgnoreEntry(
            "rules.public_acl", "public website buckets", None, None, date(2030, 1, 1), f"{path}:5"
        ),
    )


def test_quoted_dates_and_empty_files(tmp_path: Path) -> None:
    listing = ignores_from(
        tmp_path, 'ignores:\n- {rule: X, reason: r, expires: "2026-02-28", result_tag: "t[1]"}\n'
    )
    assert listing.entries[0].expires == date(2026, 2, 28)
    assert listing.entries[0].result_tag == "t[1]"
    assert ignores_from(tmp_path, "").entries == ()
    assert ignores_from(tmp_path, "ignores:\n").entries == ()
    assert ignores_from(tmp_path, "ignores: []\n").entries == ()


@pytest.mark.parametrize(
    ("text", "line", "complaint"),
    [
        ("ignores:\n  - rule: T1\n    reason: [unclosed\n", 4, "invalid YAML"),
        ("ignores:\n  - rule: T1\n    reason: r\n    resorce: x\n", 4, "unknown key 'resorce'"),
        ("ignore:\n  - rule: T1\n", 1, "unknown key 'ignore'"),
        ("ignores:\n  - rule: T1\n    reason: r\n    expires: 2026-13-01\n", 4, "YYYY-MM-DD"),
        ("ignores:\n  - rule: T1\n    reason: r\n    expires: next week\n", 4, "YYYY-MM-DD"),
        (
            "ignores:\n  - rule: T1\n    reason: r\n    expires: 2026-01-01 10:00:00\n",
            4,
            "YYYY-MM-DD",
        ),
        ("ignores:\n  - rule: T1\n    resource: x\n", 2, "non-empty 'reason'"),
        ("ignores:\n  - reason: r\n", 2, "non-empty 'rule'"),
        ("ignores:\n  - rule: T1\n    reason: r\n    resource: 12\n", 4, "must be a string"),
        ("ignores:\n  - just a string\n", 2, "must be a mapping"),
        ("ignores: {rule: T1}\n", 1, "must be a list"),
        ("- rule: T1\n", 1, "must be a mapping"),
        ("ignores:\n  - rule: T1\n    rule: T2\n    reason: r\n", 3, "duplicate key 'rule'"),
    ],
)
def test_malformed_files_name_the_file_and_line(
    tmp_path: Path, text: str, line: int, complaint: str
) -> None:
    with pytest.raises(YamlFileError) as caught:
        ignores_from(tmp_path, text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{tmp_path / 'ignore.yaml'}:{line}: ")
    assert complaint in str(caught.value)


# ---------------------------------------------------------------- matching and expiry


def test_entries_narrow_by_resource_and_tag(tree: Path) -> None:
    report = scan([tree / "in"], [tree / "rules"])
    entry = IgnoreEntry("data.rules.enc", "r", resource="aws_s3_bucket.b", result_tag="nope")
    apply_ignores(report, IgnoreList((entry,)), date(2026, 1, 1))
    assert not any(ignored for *_, ignored in outcomes(report))  # the tag does not match
    entry = IgnoreEntry("data.rules.enc", "r", resource="aws_s3_bucket.b", result_tag="")
    apply_ignores(report, IgnoreList((entry,)), date(2026, 1, 1))
    assert {o[0] for o in outcomes(report) if o[3]} == {"T1"}


def test_a_rule_wide_entry_marks_every_result_of_the_rule(tree: Path) -> None:
    report = scan([tree / "in"], [tree / "rules"])
    apply_ignores(report, IgnoreList((IgnoreEntry("T2", "r"),)), date(2026, 1, 1))
    assert [o for o in outcomes(report) if o[0] == "T2"] == [
        ("T2", "aws_s3_bucket.a", False, True),
        ("T2", "aws_s3_bucket.b", True, True),
    ]
    assert report.exit_code() == 1  # T1 still fails


@pytest.mark.parametrize(
    ("today", "expired"),
    [(date(2029, 12, 31), False), (date(2030, 1, 1), True), (date(2031, 6, 1), True)],
)
def test_expiry(tree: Path, today: date, expired: bool) -> None:
    listing = load_ignore_file(write(tree / "ignore.yaml", IGNORE_BOTH))
    report = scan([tree / "in"], [tree / "rules"], ScanOptions(ignores=listing, today=today))
    acl_ignored = [o[3] for o in outcomes(report) if o[0] == "T2"]
    assert acl_ignored == [not expired, not expired]
    warnings = [w for w in report.warnings if "expired" in w]
    if expired:
        assert warnings == [
            f"{tree / 'ignore.yaml'}:5: the ignore of rule rules.public_acl expired on "
            "2030-01-01; it no longer applies"
        ]
        assert report.exit_code() == 1
        assert report.exit_code("medium") == 0  # the expired entry's result is "low"
    else:
        assert warnings == []
        assert report.exit_code() == 0  # every failing result is ignored
        assert report.exit_code("low") == 0


def test_ignored_results_never_fail_but_errors_still_do(tree: Path) -> None:
    write(tree / "rules" / "broken.rego", "package rules.broken\nimport rego.v1\ndeny if {\n")
    listing = load_ignore_file(write(tree / "ignore.yaml", IGNORE_BOTH))
    report = scan(
        [tree / "in"], [tree / "rules"], ScanOptions(ignores=listing, today=date(2026, 1, 1))
    )
    assert all(ignored for _, _, passed, ignored in outcomes(report) if not passed)
    assert report.exit_code() == 2


def test_the_results_document_shows_ignored(tree: Path) -> None:
    listing = load_ignore_file(write(tree / "ignore.yaml", IGNORE_BOTH))
    report = scan(
        [tree / "in"], [tree / "rules"], ScanOptions(ignores=listing, today=date(2026, 1, 1))
    )
    doc = json.loads(report.to_json())
    flags = {
        (rule["id"], r["resource_id"]): r["ignored"]
        for entry in doc["results"]
        for rule in entry["rule_results"]
        for r in rule["results"]
    }
    assert flags == {
        ("T1", "aws_s3_bucket.a"): False,
        ("T1", "aws_s3_bucket.b"): True,
        ("T2", "aws_s3_bucket.a"): True,
        ("T2", "aws_s3_bucket.b"): True,
    }


# ---------------------------------------------------------------- CLI


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def test_cli_reads_the_default_ignore_file_in_the_working_directory(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tree)
    assert invoke("in", "-d", "rules").exit_code == 1
    write(tree / ".rego-engine-ignore.yaml", IGNORE_BOTH)
    result = invoke("in", "-d", "rules", "-f", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout_bytes)
    assert (
        sum(
            r["ignored"]
            for e in doc["results"]
            for rule in e["rule_results"]
            for r in rule["results"]
        )
        == 3
    )


def test_cli_ignore_file_option_and_expiry_warning(tree: Path) -> None:
    expired = IGNORE_BOTH.replace("2030-01-01", "2001-01-01")
    path = write(tree / "accepted.yaml", expired)
    result = invoke(tree / "in", "-d", tree / "rules", "--ignore-file", path)
    assert result.exit_code == 1
    assert (
        f"warning: {path}:5: the ignore of rule rules.public_acl expired on 2001-01-01"
        in result.stderr
    )
    assert (
        invoke(
            tree / "in", "-d", tree / "rules", "--ignore-file", path, "--fail-on", "medium"
        ).exit_code
        == 0
    )


@pytest.mark.parametrize("fmt", ["table", "json", "sarif", "junit", "github"])
def test_cli_malformed_ignore_file_exits_2_naming_file_and_line(tree: Path, fmt: str) -> None:
    path = write(
        tree / "bad.yaml", "ignores:\n  - rule: T1\n    reason: r\n    until: 2026-01-01\n"
    )
    result = invoke(tree / "in", "-d", tree / "rules", "--ignore-file", path, "-f", fmt)
    assert result.exit_code == 2
    assert f"error: {path}:4: unknown key 'until'" in result.stderr
    assert result.stdout == ""


def test_cli_missing_ignore_file_exits_2(tree: Path) -> None:
    result = invoke(tree / "in", "-d", tree / "rules", "--ignore-file", tree / "nope.yaml")
    assert result.exit_code == 2
    assert "nope.yaml: no such ignore file" in result.stderr


def test_an_entry_naming_no_rule_of_the_scan_is_warned_about(tree: Path) -> None:
    ignores = ignores_from(
        tree, "ignores:\n  - {rule: T1, reason: r}\n  - {rule: RE-TYPO-1, reason: r}\n"
    )
    report = scan([tree / "in"], [tree / "rules"], ScanOptions(ignores=ignores))
    assert report.warnings == [
        f"{tree / 'ignore.yaml'}:3: the ignore names rule 'RE-TYPO-1', which is none of the "
        "scan's rules"
    ]
    assert {o[0] for o in outcomes(report) if o[3]} == {"T1"}


def test_the_default_ignore_file_is_not_read_through_a_link_out_of_the_tree(
    tree: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "accepted.yaml"
    outside.write_text("ignores:\n  - {rule: T1, reason: from outside}\n")
    (tree / DEFAULT_IGNORE_FILE).symlink_to(outside)
    monkeypatch.chdir(tree)
    result = CliRunner().invoke(app, ["scan", "in", "-d", "rules", "-f", "json"])
    assert result.exit_code == 2
    assert "symbolic link leads outside" in result.stderr
    assert DEFAULT_IGNORE_FILE in result.stderr
