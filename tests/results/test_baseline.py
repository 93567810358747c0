"""Baselines: today's failures recorded, later scans report only new ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from scan_fixtures import ACL_RULE, ENC_RULE, state, write, write_json

from engine.cli.main import app
from engine.results.baseline import (
    BaselineError,
    apply_baseline,
    baseline_document,
    failing_findings,
    load_baseline,
)
from engine.scanning.scanner import ScanOptions, scan

# a fails public_acl (T2); b fails enc (T1) and public_acl passes
BUCKETS = {"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}}
TODAY = state(BUCKETS)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path / "rules" / "enc.rego", ENC_RULE)
    write(tmp_path / "rules" / "acl.rego", ACL_RULE)
    write_json(tmp_path / "in" / "state.json", TODAY)
    return tmp_path


def test_a_baseline_records_failures_by_identity(tree: Path) -> None:
    report = scan([tree / "in"], [tree / "rules"])
    namespace = report.inputs[0].rule_results[0].results[0].resource_namespace
    name = report.inputs[0].input.name
    assert failing_findings(report) == [
        (name, "T1", namespace, "aws_s3_bucket", "aws_s3_bucket.b", ""),
        (name, "T2", namespace, "aws_s3_bucket", "aws_s3_bucket.a", ""),
    ]
    assert baseline_document(report) == baseline_document(scan([tree / "in"], [tree / "rules"]))


def test_only_new_failures_fail_the_scan(tree: Path) -> None:
    path = tree / "baseline.json"
    path.write_bytes(baseline_document(scan([tree / "in"], [tree / "rules"])))
    baseline = load_baseline(path)
    again = scan([tree / "in"], [tree / "rules"], ScanOptions(baseline=baseline))
    assert again.exit_code() == 0
    ignored = [r for i in again.inputs for rr in i.rule_results for r in rr.results if r.ignored]
    assert len(ignored) == 2
    assert {r.ignore_reason for r in ignored} == {f"in the baseline {path}"}
    # a new bucket that fails is a new finding
    write_json(
        tree / "in" / "state.json",
        state({**BUCKETS, "c": {"acl": "public-read"}}),
    )
    grown = scan([tree / "in"], [tree / "rules"], ScanOptions(baseline=baseline))
    assert grown.exit_code() == 1
    failing = [
        (rr.metadata.id, r.resource_id)
        for i in grown.inputs
        for rr in i.rule_results
        for r in rr.results
        if not r.passed and not r.ignored
    ]
    assert sorted(failing) == [("T1", "aws_s3_bucket.c"), ("T2", "aws_s3_bucket.c")]
    assert apply_baseline(grown, baseline) == 0  # already marked


POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: prod
spec:
  containers:
    - name: app
      image: nginx
      securityContext:
        privileged: {privileged}
"""


def test_a_resource_of_the_same_name_in_a_new_file_is_a_new_finding(tmp_path: Path) -> None:
    write(tmp_path / "k8s" / "old" / "pod.yaml", POD.format(privileged="true"))
    path = tmp_path / "baseline.json"
    base = ["scan", str(tmp_path / "k8s"), "-f", "json"]
    wrote = CliRunner().invoke(app, [*base, "--baseline-write", str(path)])
    assert wrote.exit_code == 1
    accepted = CliRunner().invoke(app, [*base, "--baseline", str(path)])
    assert accepted.exit_code == 0, accepted.stdout
    write(tmp_path / "k8s" / "new" / "pod.yaml", POD.format(privileged="true"))
    grown = CliRunner().invoke(app, [*base, "--baseline", str(path)])
    assert grown.exit_code == 1, grown.stderr
    doc = json.loads(grown.stdout)
    new = {
        (r["resource_namespace"], r["resource_id"])
        for entry in doc["results"]
        for rule in entry["rule_results"]
        for r in rule["results"]
        if not r["passed"] and not r["ignored"]
    }
    assert new == {("prod", "Pod/web")} or all(ns == "prod" for ns, _ in new)
    assert new and doc["warnings"] == []


def test_a_version_1_baseline_is_read_with_a_warning(tree: Path) -> None:
    path = tree / "baseline.json"
    findings = json.loads(baseline_document(scan([tree / "in"], [tree / "rules"])))["findings"]
    for finding in findings:
        del finding["input"]
    write_json(path, {"format": "rego-engine-baseline", "format_version": 1, "findings": findings})
    baseline = load_baseline(path)
    again = scan([tree / "in"], [tree / "rules"], ScanOptions(baseline=baseline))
    assert again.exit_code() == 0
    assert again.warnings == [
        f"{path}: a version 1 baseline names no input file, so its findings match in every "
        "input; write it again with --baseline-write"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", ":1: invalid JSON"),
        ("[]", "not a baseline file"),
        ('{"format": "rego-engine-baseline", "format_version": 3, "findings": []}', "is not 2"),
        ('{"format": "rego-engine-baseline", "format_version": 1}', "'findings' must be a list"),
        (
            '{"format": "rego-engine-baseline", "format_version": 1, "findings": [{"rule": 1}]}',
            "finding 0 must have the strings",
        ),
    ],
)
def test_a_bad_baseline_names_the_file(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "b.json", text)
    with pytest.raises(BaselineError, match=str(path)) as raised:
        load_baseline(path)
    assert message in str(raised.value)


def test_the_cli_writes_and_reads_a_baseline(tree: Path) -> None:
    base = (tree / "in", "-d", tree / "rules")
    path = tree / "baseline.json"
    wrote = CliRunner().invoke(app, ["scan", *map(str, base), "--baseline-write", str(path)])
    assert wrote.exit_code == 1  # the scan's own verdict is unchanged
    assert f"{path}: 2 findings recorded" in wrote.stderr
    assert json.loads(path.read_text())["format"] == "rego-engine-baseline"
    args = ["scan", *map(str, base), "--baseline", str(path), "-f", "table", "-o", "-"]
    again = CliRunner().invoke(app, [*args, "-f", "json", "-o", str(tree / "out.json")])
    assert again.exit_code == 0, again.stderr
    assert again.stdout.rstrip().endswith("2 passed, 0 failed, 2 ignored, 0 errors")
    doc = json.loads((tree / "out.json").read_text())
    results = [r for rr in doc["results"][0]["rule_results"] for r in rr["results"]]
    assert sorted((r["resource_id"], r["ignored"]) for r in results if not r["passed"]) == [
        ("aws_s3_bucket.a", True),
        ("aws_s3_bucket.b", True),
    ]
    missing = CliRunner().invoke(app, ["scan", *map(str, base), "--baseline", "nope.json"])
    assert missing.exit_code == 2 and "nope.json: no such baseline file" in missing.stderr


def test_a_baseline_of_the_examples_covers_every_input_type(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Terraform, a plan, CloudFormation and Kubernetes: the examples' 62 failures
    recorded, then reported as ignored in every format, and the scan passes."""
    repo = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(repo)
    path = tmp_path / "baseline.json"
    wrote = CliRunner().invoke(app, ["scan", "examples/", "--baseline-write", str(path)])
    assert wrote.exit_code == 1
    recorded = json.loads(path.read_text())["findings"]
    assert len(recorded) == 62
    assert {f["resource_type"].split("_")[0].split("::")[0] for f in recorded} >= {
        "aws",
        "AWS",
        "Deployment",
    }
    outputs = {fmt: tmp_path / f"out.{fmt}" for fmt in ("json", "sarif", "junit", "github")}
    args = ["scan", "examples/", "--baseline", str(path)]
    for fmt, out in outputs.items():
        args += ["-f", fmt, "-o", str(out)]
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.stderr
    doc = json.loads(outputs["json"].read_text())
    failing = [
        r
        for entry in doc["results"]
        for rule in entry["rule_results"]
        for r in rule["results"]
        if not r["passed"]
    ]
    assert len(failing) == 62 and all(r["ignored"] for r in failing)
    sarif = json.loads(outputs["sarif"].read_text())
    assert all(r.get("suppressions") for r in sarif["runs"][0]["results"])
    assert 'failures="0"' in outputs["junit"].read_text()
    assert "::error " not in outputs["github"].read_text()
