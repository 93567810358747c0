""".rego-engine.yaml: where it is found, what it may hold, and that flags win."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from scan_fixtures import ACL_RULE, ENC_RULE, state, write, write_json

from engine.cli.main import app
from engine.core.yaml_nodes import YamlFileError
from engine.scanning.config import CONFIG_FILE, SCAN_KEYS, find_config, load_config

# a fails public_acl (T2, low); b fails enc (T1, High)
FAILING = state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}})


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git checkout (``.git`` marks its root) with rules and an input."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    write(root / "policies" / "enc.rego", ENC_RULE)
    write(root / "policies" / "acl.rego", ACL_RULE)
    write_json(root / "infra" / "state.json", FAILING)
    (root / "sub" / "dir").mkdir(parents=True)
    return root


# ---------------------------------------------------------------- finding it


def test_found_in_the_working_directory(repo: Path) -> None:
    write(repo / "sub" / CONFIG_FILE, "rules: [x]\n")
    assert find_config(repo / "sub") == repo / "sub" / CONFIG_FILE


def test_found_by_walking_up_to_the_git_root(repo: Path) -> None:
    write(repo / CONFIG_FILE, "rules: [x]\n")
    assert find_config(repo / "sub" / "dir") == repo / CONFIG_FILE
    write(repo / "sub" / CONFIG_FILE, "rules: [y]\n")
    assert find_config(repo / "sub" / "dir") == repo / "sub" / CONFIG_FILE  # the nearest


def test_not_looked_for_above_the_git_root(repo: Path) -> None:
    write(repo.parent / CONFIG_FILE, "rules: [x]\n")
    assert find_config(repo / "sub" / "dir") is None
    assert find_config(repo) is None


def test_outside_git_only_the_working_directory(tmp_path: Path) -> None:
    write(tmp_path / CONFIG_FILE, "rules: [x]\n")
    (tmp_path / "a").mkdir()
    assert find_config(tmp_path / "a") is None
    assert find_config(tmp_path) == tmp_path / CONFIG_FILE


# ---------------------------------------------------------------- reading it


def test_every_key_and_relative_paths(repo: Path) -> None:
    path = write(
        repo / CONFIG_FILE,
        """\
inputs: infra
rules: [policies, /abs/rules]
format: [SARIF, json]
output: [out/scan.sarif, "-"]
fail-on: High
ignore-file: accepted.yaml
rule: T1
exclude-rule: [T2, rules.x]
rule-timeout: 2.5
max-memory: 512
max-output: 4
input-type: tf_hcl
skip-path: ["**/test/**"]
var-file: [prod.tfvars]
var: {region: eu-west-1, count: 3, enabled: true}
max-file-size: 10
load-timeout: 15
split-k8s: true
bundle: rules.tar.gz
jobs: 2
cluster: tcp://127.0.0.1:8786
""",
    )
    config = load_config(path, cwd=repo / "sub")
    assert config.values == {
        "paths": [Path("../infra")],
        "rules": [Path("../policies"), Path("/abs/rules")],
        "output_formats": ["SARIF", "json"],
        "outputs": ["../out/scan.sarif", "-"],
        "fail_on": "high",
        "ignore_file": Path("../accepted.yaml"),
        "rule_ids": ["T1"],
        "exclude_rule_ids": ["T2", "rules.x"],
        "rule_timeout": 2.5,
        "max_memory": 512,
        "max_output": 4,
        "input_type": "tf_hcl",
        "skip_paths": ["**/test/**"],
        "var_files": [Path("../prod.tfvars")],
        "variables": ["region=eu-west-1", "count=3", "enabled=true"],
        "max_file_size": 10,
        "load_timeout": 15,
        "split_k8s": True,
        "bundle": Path("../rules.tar.gz"),
        "jobs": 2,
        "cluster": "tcp://127.0.0.1:8786",
    }
    assert set(config.values) == {param for param, _ in SCAN_KEYS.values()}
    assert load_config(write(repo / "empty.yaml", ""), cwd=repo).values == {}


@pytest.mark.parametrize(
    ("text", "line", "complaint"),
    [
        ("rules: [x]\nfail_on: high\n", 2, "unknown key 'fail_on'"),
        ("rules: [x]\n\ncolour: auto\n", 3, "unknown key 'colour'"),
        ("fail-on: severe\n", 1, "'fail-on' must be one of low, medium, high, critical, none"),
        ("format: [json, xml]\n", 1, "'format' must be one of table, json, sarif, junit, github"),
        ("max-memory: -1\n", 1, "'max-memory' must be a positive integer"),
        ("max-memory: 1.5\n", 1, "'max-memory' must be a positive integer"),
        ("rule-timeout: soon\n", 1, "'rule-timeout' must be a positive number"),
        ("rule-timeout: .inf\n", 1, "'rule-timeout' must be a positive number"),
        ("max-output: .nan\n", 1, "'max-output' must be a positive number"),
        ("split-k8s: yes please\n", 1, "'split-k8s' must be true or false"),
        ("rules: [x, 3]\n", 1, "'rules' must be a string or a list of strings"),
        ("rules: []\n", 1, "'rules' must be a string or a list of strings"),
        ("var: [region]\n", 1, "'var': 'region' is not NAME=VALUE"),
        ("var: {a: [1]}\n", 1, "'var': 'a' must map to a string, number or boolean"),
        ("- rules\n", 1, "the configuration must be a mapping"),
        ("rules: [x\n", 2, "invalid YAML"),
    ],
)
def test_bad_files_name_the_file_and_line(
    tmp_path: Path, text: str, line: int, complaint: str
) -> None:
    path = write(tmp_path / CONFIG_FILE, text)
    with pytest.raises(YamlFileError) as caught:
        load_config(path, cwd=tmp_path)
    assert str(caught.value).startswith(f"{path}:{line}: "), str(caught.value)
    assert complaint in str(caught.value)


# ---------------------------------------------------------------- the CLI


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def test_a_named_config_sets_inputs_rules_outputs_and_fail_on(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        repo / CONFIG_FILE,
        "inputs: [infra]\nrules: [policies]\nformat: [sarif, json]\n"
        "output: [scan.sarif, scan.json]\nfail-on: critical\n",
    )
    monkeypatch.chdir(repo / "sub" / "dir")
    result = invoke("--config", repo / CONFIG_FILE)
    assert result.exit_code == 0, result.stderr  # nothing critical fails
    assert result.stdout == ""
    assert json.loads((repo / "scan.sarif").read_text())["version"] == "2.1.0"
    doc = json.loads((repo / "scan.json").read_text())
    assert [r["package"] for r in doc["results"][0]["rule_results"]] == [
        "data.rules.enc",
        "data.rules.public_acl",
    ]


def test_flags_win_over_the_config(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(
        repo / CONFIG_FILE,
        "inputs: [infra]\nrules: [policies]\nformat: sarif\noutput: scan.sarif\n"
        "fail-on: critical\nrule: [T2]\n",
    )
    monkeypatch.chdir(repo)
    named = ("--config", repo / CONFIG_FILE)
    result = invoke(*named, "--fail-on", "low", "-f", "json", "-o", "-", "--rule", "T1")
    assert result.exit_code == 1
    doc = json.loads(result.stdout_bytes)
    assert [r["package"] for r in doc["results"][0]["rule_results"]] == ["data.rules.enc"]
    assert not (repo / "scan.sarif").exists()
    # a flag for one option leaves the config's other options in force
    partial = invoke(*named, "--fail-on", "low")
    assert partial.exit_code == 1 and partial.stdout == ""
    assert (repo / "scan.sarif").exists()


def test_config_ignore_file_is_relative_to_the_config(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        repo / "ci" / "accepted.yaml",
        "ignores:\n  - {rule: T1, reason: r}\n  - {rule: T2, reason: r}\n",
    )
    write(repo / CONFIG_FILE, "ignore-file: ci/accepted.yaml\n")
    monkeypatch.chdir(repo / "sub")
    result = invoke("-f", "json", "-d", repo / "policies", repo / "infra")
    assert result.exit_code == 0, result.stderr


def test_explicit_config_option(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write(repo / "ci" / "scan.yaml", "inputs: ../infra\nrules: ../policies\nrule: T2\n")
    monkeypatch.chdir(repo / "sub")
    result = invoke("--config", config, "-f", "json", "--fail-on", "medium")
    assert result.exit_code == 0, result.stderr
    missing = invoke("--config", repo / "nope.yaml")
    assert missing.exit_code == 2 and "nope.yaml: no such configuration file" in missing.stderr


def test_unknown_key_exits_2_naming_key_and_file(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(repo / CONFIG_FILE, "rules: [policies]\nthreads: 4\n")
    monkeypatch.chdir(repo)
    result = invoke("infra")
    assert result.exit_code == 2
    assert f"error: {path}:2: unknown key 'threads'" in result.stderr
    assert result.stdout == ""


# ---------------------------------------------------------------- trust: a found file


EVERY_REFUSED_KEY = """\
inputs: infra
rules: policies
format: sarif
output: scan.sarif
fail-on: none
bundle: b.tar.gz
rule: T1
exclude-rule: T2
skip-path: ["**"]
input-type: cfn
jobs: 64
cluster: tcp://127.0.0.1:8786
var: {region: eu-west-1}
var-file: [prod.tfvars]
rule-timeout: 5
"""


def test_a_found_file_keeps_only_what_cannot_widen_or_weaken_the_scan(repo: Path) -> None:
    path = write(repo / CONFIG_FILE, EVERY_REFUSED_KEY)
    config = load_config(path, cwd=repo, trusted=False)
    assert config.values == {"rule_timeout": 5}
    assert [message.split(": ", 1)[0] for message in config.refused] == [
        f"{path}:{line}" for line in range(1, 15)
    ]
    assert all(m.endswith("name the file with --config to trust it") for m in config.refused)
    assert "'fail-on' is not taken from a configuration file found" in config.refused[4]
    trusted = load_config(path, cwd=repo)
    assert trusted.refused == [] and trusted.values["fail_on"] == "none"


def test_a_found_file_may_not_redirect_output_or_weaken_the_exit(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo / CONFIG_FILE, "output: scan.sarif\nformat: sarif\nfail-on: none\n")
    monkeypatch.chdir(repo)
    result = invoke("-d", repo / "policies", "infra")
    assert result.exit_code == 2  # the refusals are errors; fail-on none did not apply
    assert not (repo / "scan.sarif").exists()
    doc = json.loads(result.stdout_bytes)  # the default format, on stdout
    assert [e.split(": ", 1)[0] for e in doc["errors"]] == [
        f"{repo / CONFIG_FILE}:{line}" for line in (1, 2, 3)
    ]
    failed = [r for rr in doc["results"][0]["rule_results"] for r in rr["results"]]
    assert sorted(r["resource_id"] for r in failed if not r["passed"]) == [
        "aws_s3_bucket.a",
        "aws_s3_bucket.b",
    ]
    assert f"error: {repo / CONFIG_FILE}:3: 'fail-on' is not taken" in result.stderr


def test_a_found_file_may_not_read_outside_its_tree(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = write(tmp_path / "outside" / "prod.tfvars", 'password = "hunter2-outside"\n')
    (repo / "inside.tfvars").symlink_to(secret)
    write(
        repo / "tf" / "main.tf",
        'variable "password" {}\nresource "aws_s3_bucket" "x" {\n  bucket = var.password\n}\n',
    )
    write(
        repo / CONFIG_FILE,
        f"inputs: [tf, {tmp_path / 'outside'}]\nvar-file: [{secret}]\n"
        "ignore-file: ../outside/accepted.yaml\n",
    )
    write(repo / "linked.yaml", "ignore-file: inside.tfvars\n")
    monkeypatch.chdir(repo)
    config = load_config(repo / CONFIG_FILE, cwd=repo, trusted=False)
    assert config.values == {}
    assert [m.split(": ", 2)[1] for m in config.refused] == [
        "'inputs' is not taken from a configuration file found in the scanned tree; "
        "name the file with --config to trust it",
        "'var-file' is not taken from a configuration file found in the scanned tree; "
        "name the file with --config to trust it",
        f"'ignore-file' names '../outside/accepted.yaml', outside {repo}, in a configuration "
        "file found in the scanned tree; name the file with --config to trust it",
    ]
    linked = load_config(repo / "linked.yaml", cwd=repo, trusted=False)
    assert linked.values == {} and "'ignore-file' names 'inside.tfvars'" in linked.refused[0]
    result = invoke("tf", "-d", repo / "policies", "-f", "json")
    assert result.exit_code == 2
    assert "hunter2-outside" not in result.stdout + result.stderr


def test_a_found_file_may_not_choose_the_inputs(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "empty").mkdir()
    write(repo / CONFIG_FILE, "inputs: [empty]\n")
    monkeypatch.chdir(repo)
    result = invoke("-d", repo / "policies", "-f", "json")
    assert result.exit_code == 2, result.stderr  # the finding in infra/, and the refusal
    doc = json.loads(result.stdout_bytes)
    assert len(doc["results"]) == 1  # infra/state.json, scanned from the working directory
    assert doc["errors"] == [
        f"{repo / CONFIG_FILE}:1: 'inputs' is not taken from a configuration file found in "
        "the scanned tree; name the file with --config to trust it"
    ]


def test_a_found_file_may_not_set_a_variable(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(
        repo / "tf" / "main.tf",
        'variable "make" {\n  type = number\n}\n'
        'resource "aws_s3_bucket" "x" {\n  count = var.make\n  acl = "public-read"\n}\n',
    )
    write(repo / "ci" / "prod.tfvars", "make = 1\n")
    write(repo / CONFIG_FILE, "var: {make: 0}\nvar-file: [tf/zero.tfvars]\n")
    write(repo / "tf" / "zero.tfvars", "make = 0\n")
    monkeypatch.chdir(repo)
    result = invoke("-d", repo / "policies", "-f", "json", "--var-file", "ci/prod.tfvars", "tf")
    assert result.exit_code == 2, result.stderr
    doc = json.loads(result.stdout_bytes)
    failed = [
        r["resource_id"]
        for rr in doc["results"][0]["rule_results"]
        for r in rr["results"]
        if not r["passed"]
    ]
    assert "aws_s3_bucket.x[0]" in failed
    assert [e.split(": ", 1)[0] for e in doc["errors"]] == [
        f"{repo / CONFIG_FILE}:{line}" for line in (1, 2)
    ]


def test_a_found_file_may_tighten_bounds_but_not_loosen_them(repo: Path) -> None:
    path = write(
        repo / CONFIG_FILE,
        "rule-timeout: 120\nmax-memory: 512\nmax-output: 64\nmax-file-size: 1000\n",
    )
    config = load_config(path, cwd=repo, trusted=False)
    assert config.values == {"max_memory": 512}
    assert [m.split(": ", 2)[1] for m in config.refused] == [
        "'rule-timeout' may only be lowered from its default (30) in a configuration file "
        "found in the scanned tree; name the file with --config to trust it",
        "'max-output' may only be lowered from its default (16) in a configuration file "
        "found in the scanned tree; name the file with --config to trust it",
        "'max-file-size' may only be lowered from its default (256) in a configuration file "
        "found in the scanned tree; name the file with --config to trust it",
    ]


def test_a_found_file_that_links_out_of_its_directory_is_not_read(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = write(tmp_path / "outside" / "conf.yaml", "fail-on: none\n")
    (repo / CONFIG_FILE).symlink_to(outside)
    monkeypatch.chdir(repo)
    with pytest.raises(YamlFileError, match="cannot read: symbolic link leads outside"):
        load_config(repo / CONFIG_FILE, cwd=repo, trusted=False)
    result = invoke("infra", "-d", repo / "policies")
    assert result.exit_code == 2
    assert f"{repo / CONFIG_FILE}: cannot read: symbolic link leads outside" in result.stderr
    named = load_config(repo / CONFIG_FILE, cwd=repo)  # a file the user names is trusted
    assert named.values == {"fail_on": "none"}
