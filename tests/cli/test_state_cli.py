"""`rego-engine state`: the States loaded from paths, as the rules see them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from engine.cli.main import app

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: web
spec:
  containers:
    - name: app
      image: nginx:1.25
"""

STATE = {
    "input_type": "tf_plan",
    "resources": {
        "aws_sqs_queue": {
            "aws_sqs_queue.q": {"id": "aws_sqs_queue.q", "attributes": {"name": "jobs"}}
        }
    },
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["state", *args])


def test_prints_every_state_in_order(tmp_path: Path) -> None:
    write(tmp_path / "a" / "state.json", json.dumps(STATE))
    write(tmp_path / "b" / "one.yaml", POD.format(name="one"))
    write(tmp_path / "b" / "two.yaml", POD.format(name="two"))
    result = run(str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    documents = json.loads(result.stdout)
    assert [d["input_type"] for d in documents] == ["tf_plan", "k8s"]
    assert documents[0] == STATE  # a State file passes through unchanged
    pods = documents[1]["resources"]["Pod"]
    assert sorted(p["id"] for p in pods.values()) == ["one", "two"]
    assert documents[1]["meta"]["filepath"].endswith("/b")


def test_output_is_deterministic(tmp_path: Path) -> None:
    for name in ("c", "a", "b"):
        write(tmp_path / name / "pods.yaml", POD.format(name=name))
        write(tmp_path / f"{name}.json", json.dumps(STATE))
    first = run(str(tmp_path))
    second = run(str(tmp_path / "."))
    assert first.exit_code == second.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes
    documents = json.loads(first.stdout)
    # a directory's files first, then its subdirectories, each in name order
    assert [d.get("meta", {}).get("filepath", "").rsplit("/", 1)[-1] for d in documents] == [
        "",
        "",
        "",
        "a",
        "b",
        "c",
    ]


def test_problems_go_to_stderr_with_exit_code_2(tmp_path: Path) -> None:
    write(tmp_path / "good.json", json.dumps(STATE))
    bad = write(tmp_path / "bad.yaml", "kind: Pod\nmetadata: [unclosed\n")
    result = run(str(tmp_path), str(tmp_path / "missing"))
    assert result.exit_code == 2
    assert [d["input_type"] for d in json.loads(result.stdout)] == ["tf_plan"]
    lines = result.stderr.splitlines()
    assert lines[0] == f"{tmp_path / 'missing'}: no such file or directory"
    assert lines[1].startswith(f"{bad}:3: invalid YAML: ")
    assert len(lines) == 2


def test_options(tmp_path: Path) -> None:
    write(tmp_path / "k8s" / "one.yaml", POD.format(name="one"))
    write(tmp_path / "k8s" / "two.yaml", POD.format(name="two"))
    write(tmp_path / "state.json", json.dumps(STATE))
    split = json.loads(run(str(tmp_path), "--split-k8s").stdout)
    assert [d["input_type"] for d in split] == ["tf_plan", "k8s", "k8s"]
    only = json.loads(run(str(tmp_path), "--input-type", "k8s").stdout)
    assert [d["input_type"] for d in only] == ["k8s"]
    skipped = json.loads(run(str(tmp_path), "--skip-path", "**/k8s").stdout)
    assert [d["input_type"] for d in skipped] == ["tf_plan"]


def test_bad_options_are_usage_errors(tmp_path: Path) -> None:
    for args in (
        ["--input-type", "pulumi"],
        ["--var", "region"],
        ["--max-file-size", "0"],
    ):
        result = run(str(tmp_path), *args)
        assert result.exit_code == 2, args
        assert result.stdout == "", args


def test_console_script(tmp_path: Path) -> None:
    write(tmp_path / "state.json", json.dumps(STATE))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "state", str(tmp_path)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    parsed: list[Any] = json.loads(done.stdout)
    assert parsed == [STATE]


def test_terraform_variables_reach_the_root_module(tmp_path: Path) -> None:
    write(
        tmp_path / "main.tf",
        'variable "name" {}\nvariable "acl" {}\n\n'
        'resource "aws_s3_bucket" "b" {\n  bucket = var.name\n  acl    = var.acl\n}\n',
    )
    tfvars = write(tmp_path / "vars" / "prod.tfvars", 'acl = "private"\n')
    result = run(str(tmp_path), "--var", "name=logs", "--var-file", str(tfvars))
    assert result.exit_code == 0, result.output
    (document,) = json.loads(result.stdout)
    attributes = document["resources"]["aws_s3_bucket"]["aws_s3_bucket.b"]["attributes"]
    assert (attributes["bucket"], attributes["acl"]) == ("logs", "private")
