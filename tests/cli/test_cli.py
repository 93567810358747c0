"""`rego-engine eval` and `rego-engine version` end to end, as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "eval"


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, cwd=cwd
    )


def test_eval_prints_the_value_as_json() -> None:
    proc = run(
        "eval",
        "-d",
        str(EXAMPLE / "policy"),
        "-i",
        str(EXAMPLE / "input.json"),
        "data.examples.tags.missing_owner",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["backups"]


def test_eval_of_the_shipped_example() -> None:
    proc = run(
        "eval", "-d", str(EXAMPLE / "policy"), "-i", str(EXAMPLE / "input.json"), "data.examples.s3"
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["passed"] == ["logs"]
    assert doc["deny"] == sorted(doc["deny"])
    assert any("website" in m and "public-read" in m for m in doc["deny"])
    assert any(m == "backups: no server-side encryption (owner team: storage)" for m in doc["deny"])


def test_eval_undefined_prints_nothing_and_succeeds(tmp_path: Path) -> None:
    (tmp_path / "p.rego").write_text("package p\nimport rego.v1\nx := 1 if input.missing\n")
    proc = run("eval", "-d", str(tmp_path), "data.p.x")
    assert (proc.returncode, proc.stdout) == (0, "")
    proc = run("eval", "-d", str(tmp_path), "data.nothing.here")
    assert (proc.returncode, proc.stdout) == (0, "")


def test_eval_strings_are_quoted_and_sets_sorted(tmp_path: Path) -> None:
    (tmp_path / "p.rego").write_text(
        'package p\nimport rego.v1\ns := "text"\nset_ := {"b", "a", 3}\n'
    )
    assert run("eval", "-d", str(tmp_path), "data.p.s").stdout == '"text"\n'
    assert json.loads(run("eval", "-d", str(tmp_path), "data.p.set_").stdout) == [3, "a", "b"]


def test_eval_error_goes_to_stderr_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "p.rego").write_text("package p\nimport rego.v1\nx := to_number(input.s)\n")
    (tmp_path / "in.json").write_text('{"s": "not a number"}')
    proc = run("eval", "-d", str(tmp_path), "-i", str(tmp_path / "in.json"), "data.p.x")
    # a builtin error is undefined in OPA's default (non-strict) mode
    assert (proc.returncode, proc.stdout) == (0, "")
    (tmp_path / "q.rego").write_text("package q\nimport rego.v1\nx := http.send({})\n")
    proc = run("eval", "-d", str(tmp_path / "q.rego"), "data.q.x")
    assert proc.returncode == 2
    assert "http.send is refused" in proc.stderr and "q.rego" in proc.stderr


def test_eval_compile_error_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "bad.rego").write_text("package bad\n\nallow if {\n")
    proc = run("eval", "-d", str(tmp_path), "data.bad.allow")
    assert proc.returncode == 2
    assert "bad.rego:" in proc.stderr and "rego_parse_error" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_eval_bad_input_file_names_it(tmp_path: Path) -> None:
    (tmp_path / "p.rego").write_text("package p\nx := input\n")
    bad = tmp_path / "input.json"
    bad.write_text('{"a": 1,\n "b": }\n')
    proc = run("eval", "-d", str(tmp_path / "p.rego"), "-i", str(bad), "data.p.x")
    assert proc.returncode == 2
    assert "input.json:2" in proc.stderr


def test_eval_yaml_input(tmp_path: Path) -> None:
    (tmp_path / "p.rego").write_text(
        "package p\nimport rego.v1\nnames := [c.name | some c in input.items]\n"
    )
    (tmp_path / "in.yaml").write_text("items:\n  - name: a\n  - name: b\n")
    proc = run(
        "eval", "-d", str(tmp_path / "p.rego"), "-i", str(tmp_path / "in.yaml"), "data.p.names"
    )
    assert json.loads(proc.stdout) == ["a", "b"]


def test_version_json() -> None:
    proc = run("version", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) == {"engine", "opa", "wasmtime", "abi"}
    assert doc["opa"]["version"].startswith("v1.")
    assert Path(doc["opa"]["path"]).is_file()
    assert doc["abi"].startswith("1.")
