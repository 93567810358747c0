"""``scan --jobs N``: inputs evaluated in worker processes give the same output as one process.

Output means everything: the results document (byte for byte, source
locations included), stderr and the exit code, with inputs that fail to load,
inputs too large for the memory bound and rules that fail on one input only.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from scan_fixtures import ACL_RULE, ENC_RULE, copy_sample_inputs, state, write, write_json

from engine.cli.main import app
from engine.core.paths import REPO_ROOT
from engine.scanning.scanner import ScanOptions, scan

CORPUS = REPO_ROOT / "tests" / "scan_corpus"
CUSTOM_RULES = REPO_ROOT / "examples" / "custom-rules"

# A complete rule with several values: a conflict error on inputs whose
# buckets differ in size, a result elsewhere.
FRAGILE_RULE = """\
package rules.fragile
import rego.v1
import data.snyk

metadata := {"id": "F1", "title": "one size", "severity": "Low"}

size := b.size if {
  some b in snyk.resources("aws_s3_bucket")
}

deny contains info if {
  size > 100
  info := {"message": "big"}
}
"""


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    directory = tmp_path / "rules"
    shutil.copytree(CORPUS / "rules", directory / "corpus")
    shutil.copytree(CUSTOM_RULES, directory / "examples")
    write(directory / "mine" / "enc.rego", ENC_RULE)
    write(directory / "mine" / "acl.rego", ACL_RULE)
    write(directory / "mine" / "fragile.rego", FRAGILE_RULE)
    return directory


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """IaC with source locations, States, an unparseable file, a rule conflict."""
    directory = copy_sample_inputs(tmp_path / "inputs")
    write(directory / "broken" / "bad.json", '{"input_type": "tf_hcl", "resources": {')
    write(directory / "broken" / "main.tf", 'resource "aws_s3_bucket" "x" {\n  acl = \n')
    write_json(directory / "sizes" / "conflict.json", state({"a": {"size": 1}, "b": {"size": 2}}))
    write_json(directory / "sizes" / "big.json", state({"a": {"size": 500, "acl": "public-read"}}))
    return directory


def _scan(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def test_two_jobs_give_byte_identical_output(rules: Path, inputs: Path) -> None:
    one = _scan(inputs, "-d", rules, "--jobs", "1")
    two = _scan(inputs, "-d", rules, "--jobs", "2")
    assert one.exit_code == 2  # the broken inputs and the conflict
    assert (two.exit_code, two.stderr) == (one.exit_code, one.stderr)
    assert two.stdout_bytes == one.stdout_bytes
    # What the comparison covers: every kind of outcome is in the output.
    assert "bad.json" in one.stderr and "main.tf" in one.stderr
    assert "conflict.json: data.rules.fragile" in one.stderr
    assert '"line":' in one.stdout  # results located in IaC files
    assert one.stdout.count('"passed": false') > 10


def test_more_jobs_than_inputs(rules: Path, inputs: Path) -> None:
    one = _scan(inputs / "sizes", "-d", rules)
    many = _scan(inputs / "sizes", "-d", rules, "-j", "8")
    assert (many.exit_code, many.stderr, many.stdout_bytes) == (
        one.exit_code,
        one.stderr,
        one.stdout_bytes,
    )


def test_an_input_over_the_memory_bound_fails_in_its_worker_only(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    write(rules / "enc.rego", ENC_RULE)
    directory = tmp_path / "in"
    write_json(directory / "a.json", state({"a": {"acl": "private"}}))
    big = {f"big{i}": {"acl": "private", "pad": "x" * 2000} for i in range(2000)}
    write_json(directory / "b_big.json", state(big))
    write_json(directory / "c.json", state({"c": {"encrypted": True}}))
    one = scan([directory], [rules], ScanOptions(max_memory_mb=8))
    two = scan([directory], [rules], ScanOptions(max_memory_mb=8, jobs=2))
    assert two.to_json() == one.to_json()
    assert two.exit_code() == one.exit_code() == 2
    assert [i.input.name for i in two.inputs] == [i.input.name for i in one.inputs]
    assert any("b_big.json" in e and "memory" in e for e in two.errors)


def test_progress_reaches_the_total_with_workers(rules: Path, inputs: Path) -> None:
    seen: list[tuple[int, int]] = []
    scan(
        [inputs / "states"], [rules], ScanOptions(jobs=2, progress=lambda d, t: seen.append((d, t)))
    )
    assert seen and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_jobs_must_be_positive(rules: Path, inputs: Path) -> None:
    result = CliRunner().invoke(app, ["scan", str(inputs), "-d", str(rules), "--jobs", "0"])
    assert result.exit_code == 2


def test_workers_run_a_bundle(tmp_path: Path, rules: Path, inputs: Path) -> None:
    bundle = tmp_path / "rules.tar.gz"
    CliRunner().invoke(app, ["build", "-d", str(rules), "-o", str(bundle)])
    one = _scan(inputs, "-d", rules)
    two = _scan(inputs, "--bundle", bundle, "-j", "2")
    assert (two.exit_code, two.stderr, two.stdout_bytes) == (
        one.exit_code,
        one.stderr,
        one.stdout_bytes,
    )


def test_workers_resolve_derived_relations_and_supertypes(tmp_path: Path) -> None:
    """Workers see the references the loaders recorded: derived relations give
    the same results in a worker as in this process."""
    from scan_fixtures import DERIVED_RULES

    rules = write(tmp_path / "rules" / "derived.rego", DERIVED_RULES).parent
    inputs = tmp_path / "iac"
    for project in ("kubernetes", "terraform", "cloudformation"):
        shutil.copytree(REPO_ROOT / "examples" / project, inputs / project)
    one = _scan(inputs, "-d", rules, "--jobs", "1")
    two = _scan(inputs, "-d", rules, "--jobs", "2")
    assert (two.exit_code, two.stderr) == (one.exit_code, one.stderr)
    assert two.stdout_bytes == one.stdout_bytes
    assert '"message": "referenced"' in one.stdout and '"message": "a workload"' in one.stdout
