"""`rego-engine test --golden`: whole scans against stored results documents."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from oracle import needs_opa
from scan_fixtures import write

from engine.cli.main import app
from engine.testing import golden

pytestmark = needs_opa

CASES = Path(__file__).parent.parent / "golden_cases"
CORPUS = Path(__file__).parent.parent / "test_corpus"
SHARED_RULES = [CORPUS / "rules", CORPUS / "relations"]

RULE = """package rules.named

import data.snyk
import rego.v1

deny contains {"resource": b, "message": "unnamed"} if {
	some b in snyk.resources("aws_s3_bucket")
	not b.bucket
}
"""

TF = 'resource "aws_s3_bucket" "a" {\n  bucket = "a"\n}\nresource "aws_s3_bucket" "b" {}\n'


def golden_cli(*args: str, cwd: Path | None = None) -> Result:
    with contextlib.chdir(cwd or Path.cwd()):
        return CliRunner().invoke(app, ["test", *args])


@pytest.fixture()
def case(tmp_path: Path) -> Path:
    directory = tmp_path / "cases" / "named"
    write(directory / "inputs" / "main.tf", TF)
    write(directory / "rules" / "named.rego", RULE)
    return directory


def test_the_committed_cases_pass() -> None:
    args = ["--golden", str(CASES)]
    for rules in SHARED_RULES:
        args += ["-d", str(rules)]
    result = golden_cli(*args, "-v")
    assert result.exit_code == 0, result.output
    assert "golden.s3_own_rules: PASS" in result.stdout
    assert "golden.sg_shared_rules: PASS" in result.stdout


def test_update_creates_expected_then_the_case_passes(case: Path) -> None:
    root = case.parent
    missing = golden_cli("--golden", str(root))
    assert missing.exit_code == 2
    assert "expected.json does not exist" in missing.stdout
    created = golden_cli("--golden", str(root), "--update-snapshots")
    assert created.exit_code == 0, created.output
    document = json.loads((case / "expected.json").read_text())
    (rule,) = document["results"][0]["rule_results"]
    verdicts = [(r["resource_id"], r["passed"]) for r in rule["results"]]
    assert verdicts == [("aws_s3_bucket.b", False)]
    assert golden_cli("--golden", str(root)).exit_code == 0


def test_a_changed_result_fails_with_a_diff(case: Path) -> None:
    golden_cli("--golden", str(case.parent), "--update-snapshots")
    write(case / "inputs" / "main.tf", TF.replace('  bucket = "a"\n', ""))
    result = golden_cli("--golden", str(case.parent), "--format", "pretty")
    assert result.exit_code == 2
    assert "golden.named: FAIL" in result.stdout
    assert "results differ:" in result.stdout
    assert '+              "resource_id": "aws_s3_bucket.a",' in result.stdout
    updated = golden_cli("--golden", str(case.parent), "--update-snapshots")
    assert "named/expected.json written" in updated.stdout
    assert golden_cli("--golden", str(case.parent)).exit_code == 0


def test_paths_are_relative_to_the_case_so_it_can_move(case: Path, tmp_path: Path) -> None:
    golden_cli("--golden", str(case.parent), "--update-snapshots")
    text = (case / "expected.json").read_text()
    assert str(tmp_path) not in text
    assert '"filepath": "inputs/main.tf"' in text
    moved = tmp_path / "elsewhere" / "deeper"
    shutil.copytree(case.parent, moved)
    assert golden_cli("--golden", str(moved)).exit_code == 0
    assert golden_cli("--golden", "deeper", cwd=moved.parent).exit_code == 0


def test_a_case_directory_can_be_given_directly(case: Path) -> None:
    golden_cli("--golden", str(case), "--update-snapshots")
    result = golden_cli("--golden", str(case), "--format", "json")
    (entry,) = json.loads(result.stdout)
    assert entry["package"] == "golden" and entry["name"] == "named"
    assert "fail" not in entry and "error" not in entry


def test_cases_without_rules_use_d_then_the_shipped_pack(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shutil.move(case / "rules", shared)
    assert golden.case_rules(golden.GoldenCase(case, "named"), [shared]) == [shared.resolve()]
    pack = tmp_path / "pack"
    monkeypatch.setattr(golden, "SHIPPED_RULES", pack)
    assert golden.case_rules(golden.GoldenCase(case, "named"), []) == []
    result = golden_cli("--golden", str(case))
    assert "no rules" in result.stdout
    shutil.copytree(shared, pack)
    assert golden.case_rules(golden.GoldenCase(case, "named"), []) == [pack]
    golden_cli("--golden", str(case), "--update-snapshots")
    assert golden_cli("--golden", str(case)).exit_code == 0
    assert golden_cli("--golden", str(case), "-d", str(shared)).exit_code == 0


def test_rego_tests_and_golden_cases_run_together(case: Path, tmp_path: Path) -> None:
    golden_cli("--golden", str(case.parent), "--update-snapshots")
    write(tmp_path / "policy" / "p_test.rego", "package p\nimport rego.v1\ntest_p if true\n")
    result = golden_cli(str(tmp_path / "policy"), "--golden", str(case.parent), "-v")
    assert result.exit_code == 0, result.output
    assert "data.p.test_p: PASS" in result.stdout and "golden.named: PASS" in result.stdout
