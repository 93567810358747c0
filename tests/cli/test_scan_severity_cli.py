"""`rego-engine scan --severity LEVEL`: results below the level are left out of
every format, of the counts and of the exit code; a note on stderr says how many."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sarif_schema import validate_sarif
from scan_fixtures import ACL_RULE, ENC_RULE, state, write, write_json

from engine.cli.main import app

# a fails T2 (acl, low) and passes T1; b fails T1 (enc, High) and passes T2
FAILING = state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}})
LOW_ONLY = state({"a": {"encrypted": True, "acl": "public-read"}})


def _args(root: Path, scanned: dict) -> list[str]:
    write(root / "rules" / "enc.rego", ENC_RULE)
    write(root / "rules" / "acl.rego", ACL_RULE)
    write_json(root / "in" / "s.json", scanned)
    return [str(root / "in"), "-d", str(root / "rules")]


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def test_results_below_the_level_leave_every_format(tmp_path: Path) -> None:
    args = _args(tmp_path, FAILING)
    doc = json.loads(invoke(*args, "-f", "json", "--severity", "HIGH").stdout_bytes)
    by_rule = {r["id"]: r["results"] for r in doc["results"][0]["rule_results"]}
    assert set(by_rule) == {"T1", "T2"}  # the rule is still listed
    assert by_rule["T2"] == []
    assert sorted((r["resource_id"], r["passed"]) for r in by_rule["T1"]) == [
        ("aws_s3_bucket.a", True),
        ("aws_s3_bucket.b", False),
    ]
    log = validate_sarif(invoke(*args, "-f", "sarif", "--severity", "high").stdout_bytes)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["T1"]
    junit = ET.fromstring(invoke(*args, "-f", "junit", "--severity", "high").stdout_bytes)
    assert junit.get("failures") == "1" and junit.get("tests") == "2"
    github = invoke(*args, "-f", "github", "--severity", "high").stdout.splitlines()
    assert len(github) == 2 and "T1" in github[0]
    counts = "2 rules, 2 resources: 1 passed, 1 failed, 0 ignored, 0 errors"
    assert github[-1] == f"rego-engine: {counts}"
    table = invoke(*args, "-f", "table", "--severity", "high").stdout
    assert table.splitlines()[-1] == counts
    full = invoke(*args, "-f", "table").stdout
    assert full.splitlines()[-1] == "2 rules, 2 resources: 2 passed, 2 failed, 0 ignored, 0 errors"


def test_the_left_out_results_are_counted_on_stderr_only(tmp_path: Path) -> None:
    args = _args(tmp_path, FAILING)
    result = invoke(*args, "-f", "json", "--severity", "medium")
    assert "2 results below severity medium left out (--severity)" in result.stderr
    assert "left out" not in invoke(*args, "-f", "json").stderr
    low = invoke(*args, "-f", "json", "--severity", "low")
    assert "0 results below severity low left out" in low.stderr
    assert json.loads(low.stdout_bytes) == json.loads(invoke(*args, "-f", "json").stdout_bytes)


@pytest.mark.parametrize(
    ("level", "expected"), [("low", 1), ("medium", 0), ("high", 0), ("critical", 0)]
)
def test_hidden_results_do_not_fail_the_scan(tmp_path: Path, level: str, expected: int) -> None:
    args = _args(tmp_path, LOW_ONLY)
    assert invoke(*args, "-f", "json", "--severity", level).exit_code == expected


def test_the_baseline_still_records_every_failure(tmp_path: Path) -> None:
    args = _args(tmp_path, FAILING)
    baseline = tmp_path / "baseline.json"
    result = invoke(*args, "-f", "json", "--severity", "critical", "--baseline-write", baseline)
    assert result.exit_code == 0
    assert "2 findings recorded" in result.stderr


def test_an_unknown_level_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke(*_args(tmp_path, FAILING), "--severity", "none")
    assert result.exit_code == 2
    assert "'none' is not one of low, medium, high, critical" in result.stderr
