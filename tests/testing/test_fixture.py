"""`rego-engine fixture`: IaC files to a Rego module holding mock_input, or JSON."""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from oracle import needs_opa
from scan_fixtures import write

from engine.cli.main import app
from engine.inputs.discovery import load_inputs
from engine.rules.opa import find_opa
from engine.testing.fixture import default_package

CORPUS_IAC = Path(__file__).parent.parent / "test_corpus" / "iac" / "s3"


def fixture_cli(*args: str, cwd: Path) -> Result:
    with contextlib.chdir(cwd):
        return CliRunner().invoke(app, ["fixture", *args])


@needs_opa
def test_the_module_holds_the_state_rules_see(tmp_path: Path) -> None:
    out = tmp_path / "fixture.rego"
    result = fixture_cli(str(CORPUS_IAC), "-o", str(out), "--package", "fx.s3", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    proc = subprocess.run(
        [str(find_opa().path), "eval", "-d", str(out), "--format", "json", "data.fx.s3.mock_input"],
        capture_output=True,
        check=True,
    )
    value = json.loads(proc.stdout)["result"][0]["expressions"][0]["value"]
    with contextlib.chdir(tmp_path):
        (loaded,) = load_inputs([CORPUS_IAC]).inputs
    assert value == json.loads(json.dumps(loaded.state.document))
    assert sorted(value["resources"]) == [
        "aws_s3_bucket",
        "aws_s3_bucket_logging",
        "aws_s3_bucket_server_side_encryption_configuration",
        "aws_security_group",
    ]


@needs_opa
def test_a_v0_test_can_use_the_fixture(tmp_path: Path) -> None:
    fixture_cli(str(CORPUS_IAC), "-o", "fx.rego", "--package", "fx", cwd=tmp_path)
    write(
        tmp_path / "count_test.rego",
        "package count_test\nimport data.fx\n"
        "test_three_buckets {\n"
        '  count(data.snyk.resources("aws_s3_bucket")) == 3 with input as fx.mock_input\n}\n',
    )
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(app, ["test", ".", "-v"])
    assert result.exit_code == 0, result.output
    assert "data.count_test.test_three_buckets: PASS" in result.stdout


def test_json_format_is_the_state(tmp_path: Path) -> None:
    result = fixture_cli(str(CORPUS_IAC), "--format", "json", cwd=tmp_path)
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["input_type"] == "tf_hcl"
    assert "aws_s3_bucket.logs" in document["resources"]["aws_s3_bucket"]


def test_the_default_package_comes_from_the_path(tmp_path: Path) -> None:
    assert default_package(Path("main.tf")) == "fixtures.main_tf"
    assert default_package(Path("3-tier")) == "fixtures._3_tier"
    result = fixture_cli(str(CORPUS_IAC), cwd=tmp_path)
    assert "\npackage fixtures.s3\n" in result.stdout
    assert "\nmock_input := {\n" in result.stdout


def test_the_output_is_deterministic(tmp_path: Path) -> None:
    first = fixture_cli(str(CORPUS_IAC), cwd=tmp_path).stdout
    assert fixture_cli(str(CORPUS_IAC), cwd=tmp_path).stdout == first


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--package", "not a package"], "is not a package name"),
        (["--format", "yaml"], "unknown format"),
    ],
)
def test_bad_options(tmp_path: Path, args: list[str], message: str) -> None:
    result = fixture_cli(str(CORPUS_IAC), *args, cwd=tmp_path)
    assert result.exit_code == 2
    assert message in result.output


def test_paths_that_make_several_states_are_refused(tmp_path: Path) -> None:
    write(tmp_path / "a" / "main.tf", 'resource "aws_s3_bucket" "a" {}\n')
    write(tmp_path / "b" / "main.tf", 'resource "aws_s3_bucket" "b" {}\n')
    result = fixture_cli("a", "b", cwd=tmp_path)
    assert result.exit_code == 2
    assert "a fixture holds one State, but the paths gave 2 (a, b)" in result.output
