"""`rego-engine scan`: exit codes, --fail-on, -o, stderr, determinism and the progress bar.

Most tests go through ``click.testing.CliRunner``; a few run the real console
script (and ``python -m engine``) as a subprocess.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from scan_fixtures import (
    ACL_RULE,
    BROKEN_RULE,
    ENC_RULE,
    MEMORY_RULE,
    SLOW_RULE,
    state,
    write,
    write_json,
)
from terminal import run_on_pty

from engine.cli.main import app

# ---------------------------------------------------------------- fixtures


# a fails public_acl (severity "low"), b fails enc (severity "High")
FAILING_STATE = state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}})
# only the "low" rule fails
LOW_ONLY_STATE = state({"a": {"encrypted": True, "acl": "public-read"}})
CLEAN_STATE = state({"x": {"encrypted": True, "acl": "private"}})


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    directory = tmp_path / "rules"
    write(directory / "enc.rego", ENC_RULE)
    write(directory / "acl.rego", ACL_RULE)
    return directory


@pytest.fixture
def broken_rules(rules: Path) -> Path:
    write(rules / "broken.rego", BROKEN_RULE)
    return rules


def input_file(tmp_path: Path, doc: Any, name: str = "state.json") -> Path:
    return write_json(tmp_path / "in" / name, doc)


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def document(result: Result) -> dict[str, Any]:
    doc = json.loads(result.stdout_bytes)
    assert doc["format"] == "results"
    return doc


def outcomes(doc: dict[str, Any], package: str) -> list[tuple[str, bool, str]]:
    return [
        (r["resource_id"], r["passed"], r["severity"])
        for entry in doc["results"]
        for rule in entry["rule_results"]
        if rule["package"] == package
        for r in rule["results"]
    ]


REPO = Path(__file__).resolve().parents[2]


def console_script() -> list[str]:
    script = Path(sys.executable).parent / "rego-engine"
    if script.is_file():
        return [str(script)]
    found = shutil.which("rego-engine")
    if found is None:
        pytest.skip("the rego-engine console script is not installed")
    return [found]


def run(command: list[str], *args: str | Path, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*command, "scan", *map(str, args)], capture_output=True, timeout=120, **kwargs
    )


# ---------------------------------------------------------------- exit codes


def test_exit_0_without_failing_results(tmp_path: Path, rules: Path) -> None:
    result = invoke(input_file(tmp_path, CLEAN_STATE), "-d", rules)
    assert result.exit_code == 0, result.stderr
    doc = document(result)
    assert doc["errors"] == [] and doc["warnings"] == []
    assert outcomes(doc, "data.rules.enc") == [("aws_s3_bucket.x", True, "High")]
    assert result.stderr == ""


def test_exit_1_with_failing_results(tmp_path: Path, rules: Path) -> None:
    result = invoke(input_file(tmp_path, FAILING_STATE), "-d", rules)
    assert result.exit_code == 1, result.stderr
    doc = document(result)
    assert outcomes(doc, "data.rules.enc") == [
        ("aws_s3_bucket.a", True, "High"),
        ("aws_s3_bucket.b", False, "High"),
    ]
    assert outcomes(doc, "data.rules.public_acl") == [
        ("aws_s3_bucket.a", False, "low"),
        ("aws_s3_bucket.b", True, "low"),
    ]


def test_exit_2_when_a_rule_is_broken(tmp_path: Path, broken_rules: Path) -> None:
    clean = invoke(input_file(tmp_path, CLEAN_STATE), "-d", broken_rules)
    assert clean.exit_code == 2
    failing = invoke(input_file(tmp_path, FAILING_STATE, "f.json"), "-d", broken_rules)
    assert failing.exit_code == 2  # errors beat failing results


def test_exit_2_when_an_input_is_broken(tmp_path: Path, rules: Path) -> None:
    input_file(tmp_path, CLEAN_STATE)
    bad = write(tmp_path / "in" / "zz_bad.json", '{"input_type": "tf_hcl",\n  oops\n}\n')
    result = invoke(tmp_path / "in", "-d", rules)
    assert result.exit_code == 2
    assert re.search(r"^error: .*zz_bad\.json:2: invalid JSON", result.stderr, re.M), result.stderr
    assert bad.name in result.stderr
    doc = document(result)
    assert len(doc["results"]) == 1
    assert outcomes(doc, "data.rules.enc") == [("aws_s3_bucket.x", True, "High")]


def test_exit_3_without_supported_input(tmp_path: Path, rules: Path) -> None:
    write_json(tmp_path / "in" / "package.json", {"name": "not a state"})
    result = invoke(tmp_path / "in", "-d", rules)
    assert result.exit_code == 3
    assert document(result)["results"] == []
    assert "no supported input" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert invoke(empty, "-d", rules).exit_code == 3
    assert invoke(empty, "-d", rules, "--fail-on", "none").exit_code == 3


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--fail-on", "severe"], "severe"),
        (["--fail-on", ""], "fail-on"),
        (["--format", "xml"], "xml"),
        (["--format", "html"], "html"),
        (["--rule-timeout", "0"], "positive"),
        (["--max-memory", "-1"], "positive"),
        (["--rule-timeout", "soon"], "--rule-timeout"),
        (["--no-such-option"], "no-such-option"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, rules: Path, args: list[str], complaint: str) -> None:
    result = invoke(input_file(tmp_path, FAILING_STATE), "-d", rules, *args)
    assert result.exit_code == 2, result.stdout
    assert complaint in result.stderr
    assert result.stdout == ""  # no results document on a usage error


def test_without_rules_option_the_shipped_pack_runs(tmp_path: Path) -> None:
    main_tf = tmp_path / "infra" / "main.tf"
    main_tf.parent.mkdir()
    main_tf.write_text('resource "aws_s3_bucket" "logs" {\n  bucket = "acme-logs"\n}\n')
    result = invoke(main_tf.parent)
    assert result.exit_code == 1, result.stderr
    rules = {r["id"]: r for r in document(result)["results"][0]["rule_results"]}
    assert {"RE-AWS-001", "RE-AWS-004"} <= set(rules)
    assert not any(i.startswith(("RE-CFN-", "RE-K8S-")) for i in rules)  # input types apply
    assert [r["passed"] for r in rules["RE-AWS-001"]["results"]] == [False]


def test_inputs_default_to_the_working_directory(
    tmp_path: Path, rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    input_file(tmp_path, FAILING_STATE)
    monkeypatch.chdir(tmp_path / "in")
    result = invoke("-d", rules)
    assert result.exit_code == 1, result.stderr
    assert len(document(result)["results"]) == 1


def test_format_is_case_insensitive(tmp_path: Path, rules: Path) -> None:
    path = input_file(tmp_path, FAILING_STATE)
    upper = invoke(path, "-d", rules, "--format", "JSON")
    assert upper.exit_code == 1
    assert upper.stdout_bytes == invoke(path, "-d", rules).stdout_bytes


# ---------------------------------------------------------------- --fail-on


@pytest.mark.parametrize(
    ("fail_on", "code"),
    [
        ("critical", 0),
        ("Critical", 0),
        ("HIGH", 1),
        ("high", 1),
        ("medium", 1),
        ("low", 1),
        ("LOW", 1),
        ("none", 0),
        ("NONE", 0),
    ],
)
def test_fail_on_thresholds(tmp_path: Path, rules: Path, fail_on: str, code: int) -> None:
    path = input_file(tmp_path, FAILING_STATE)
    result = invoke(path, "-d", rules, "--fail-on", fail_on)
    assert result.exit_code == code, result.stderr
    # the threshold changes the exit code, never the document
    assert result.stdout_bytes == invoke(path, "-d", rules).stdout_bytes


@pytest.mark.parametrize(("fail_on", "code"), [("low", 1), ("medium", 0), ("high", 0)])
def test_fail_on_with_only_a_low_result(
    tmp_path: Path, rules: Path, fail_on: str, code: int
) -> None:
    result = invoke(input_file(tmp_path, LOW_ONLY_STATE), "-d", rules, "--fail-on", fail_on)
    assert result.exit_code == code


@pytest.mark.parametrize("fail_on", ["none", "critical", "low"])
def test_fail_on_never_hides_errors(tmp_path: Path, broken_rules: Path, fail_on: str) -> None:
    result = invoke(input_file(tmp_path, FAILING_STATE), "-d", broken_rules, "--fail-on", fail_on)
    assert result.exit_code == 2


# ---------------------------------------------------------------- output


def test_output_file_holds_what_stdout_would(tmp_path: Path, broken_rules: Path) -> None:
    path = input_file(tmp_path, FAILING_STATE)
    to_stdout = invoke(path, "-d", broken_rules)
    out = tmp_path / "out" / "results.json"
    out.parent.mkdir()
    to_file = invoke(path, "-d", broken_rules, "-o", out)
    assert to_file.exit_code == to_stdout.exit_code == 2
    assert to_file.stdout_bytes == b""
    assert out.read_bytes() == to_stdout.stdout_bytes
    assert out.read_bytes().endswith(b"}\n")
    # errors still go to stderr
    assert to_file.stderr == to_stdout.stderr and "broken.rego" in to_file.stderr


def test_unwritable_output_file_exits_2(tmp_path: Path, rules: Path) -> None:
    (tmp_path / "a-file").write_text("not a directory")
    out = tmp_path / "a-file" / "results.json"
    result = invoke(input_file(tmp_path, CLEAN_STATE), "-d", rules, "--output", out)
    assert result.exit_code == 2
    assert "results.json" in result.stderr


def test_two_runs_are_byte_identical(tmp_path: Path, broken_rules: Path) -> None:
    input_file(tmp_path, FAILING_STATE)
    input_file(tmp_path, [CLEAN_STATE, FAILING_STATE], "list.json")
    first = invoke(tmp_path / "in", "-d", broken_rules)
    second = invoke(tmp_path / "in", "-d", broken_rules)
    assert first.stdout_bytes == second.stdout_bytes
    assert first.stderr == second.stderr
    assert first.exit_code == second.exit_code == 2
    assert len(document(first)["results"]) == 3


def test_syntax_error_names_the_file_and_keeps_the_other_results(
    tmp_path: Path, broken_rules: Path
) -> None:
    input_file(tmp_path, FAILING_STATE, "a.json")
    input_file(tmp_path, CLEAN_STATE, "b.json")
    result = invoke(tmp_path / "in", "-d", broken_rules)
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if "broken.rego" in line]
    # named with its line, and once although two inputs were scanned
    assert len(errors) == 1, result.stderr
    assert re.search(r"broken\.rego:5\b", errors[0])
    assert "Traceback" not in result.stderr

    doc = document(result)
    assert len(doc["results"]) == 2
    for entry in doc["results"]:
        by_package = {r["package"]: r for r in entry["rule_results"]}
        assert sorted(by_package) == [
            "data.rules.broken",
            "data.rules.enc",
            "data.rules.public_acl",
        ]
        assert by_package["data.rules.broken"]["results"] == []
        assert by_package["data.rules.broken"]["errors"]
        assert by_package["data.rules.enc"]["errors"] == []
        assert by_package["data.rules.enc"]["results"]
        assert by_package["data.rules.public_acl"]["results"]
    assert ("aws_s3_bucket.b", False, "High") in outcomes(doc, "data.rules.enc")


@pytest.mark.parametrize(
    ("name", "text", "option", "value", "mention"),
    [
        ("slow.rego", SLOW_RULE, "--rule-timeout", "0.25", "time limit of 0.25s"),
        ("memory.rego", MEMORY_RULE, "--max-memory", "64", "memory limit of 64 MiB"),
    ],
    ids=["rule-timeout", "max-memory"],
)
def test_runtime_limits_from_the_command_line(
    tmp_path: Path, rules: Path, name: str, text: str, option: str, value: str, mention: str
) -> None:
    write(rules / name, text)
    path = input_file(tmp_path, FAILING_STATE)
    result = invoke(path, "-d", rules, option, value)
    assert result.exit_code == 2
    errors = [ln for ln in result.stderr.splitlines() if ln.startswith("error: ")]
    assert len(errors) == 1, result.stderr
    assert "state.json" in errors[0] and name in errors[0] and mention in errors[0]
    doc = document(result)
    assert outcomes(doc, "data.rules.public_acl") == [
        ("aws_s3_bucket.a", False, "low"),
        ("aws_s3_bucket.b", True, "low"),
    ]
    assert ("aws_s3_bucket.b", False, "High") in outcomes(doc, "data.rules.enc")


def test_input_over_the_memory_cap_is_reported_not_a_crash(tmp_path: Path, rules: Path) -> None:
    input_file(tmp_path, CLEAN_STATE, "a.json")
    big = state({f"big{i}": {"acl": "private", "pad": "x" * 2000} for i in range(2000)})
    input_file(tmp_path, big, "b_big.json")
    proc = run(console_script(), tmp_path / "in", "-d", rules, "--max-memory", "8")
    stderr = proc.stderr.decode()
    assert "Traceback" not in stderr
    assert proc.returncode == 2
    assert "b_big.json" in stderr
    doc = json.loads(proc.stdout)
    assert any(
        e["input"]["resources"]["aws_s3_bucket"].get("aws_s3_bucket.x") for e in doc["results"]
    )


# ---------------------------------------------------------------- real processes


def test_console_script_and_module_match_the_runner(tmp_path: Path, broken_rules: Path) -> None:
    path = input_file(tmp_path, FAILING_STATE)
    expected = invoke(path, "-d", broken_rules)
    for command in (console_script(), [sys.executable, "-m", "engine"]):
        proc = run(command, path, "-d", broken_rules, cwd=os.getcwd())
        assert proc.returncode == 2, proc.stderr
        assert proc.stdout == expected.stdout_bytes
        assert re.search(rb"broken\.rego:5\b", proc.stderr)


@pytest.mark.parametrize(("state_doc", "code"), [(CLEAN_STATE, 0), (FAILING_STATE, 1)])
def test_subprocess_exit_codes(
    tmp_path: Path, rules: Path, state_doc: dict[str, Any], code: int
) -> None:
    proc = run(console_script(), input_file(tmp_path, state_doc), "-d", rules)
    assert proc.returncode == code, proc.stderr
    assert json.loads(proc.stdout)["format"] == "results"
    proc = run(console_script(), tmp_path / "nothing-here", "-d", rules)
    assert proc.returncode == 2


def test_no_progress_bar_when_stderr_is_not_a_tty(tmp_path: Path, rules: Path) -> None:
    path = input_file(tmp_path, FAILING_STATE)
    proc = run(console_script(), path, "-d", rules)
    assert proc.returncode == 1
    assert proc.stderr == b""  # no progress text, no escape sequences
    assert json.loads(proc.stdout)["format"] == "results"
    runner = invoke(path, "-d", rules)
    assert "scanning" not in runner.stderr and runner.stderr == ""


def _run_with_tty_stderr(args: list[str]) -> tuple[int, bytes, bytes]:
    return run_on_pty(args, tty="stderr")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a Linux pty")
def test_progress_bar_on_a_tty_stays_off_stdout(tmp_path: Path, rules: Path) -> None:
    """Control for the test above: on a terminal the bar is drawn, on stderr only."""
    path = input_file(tmp_path, FAILING_STATE)
    code, stdout, stderr = _run_with_tty_stderr(
        [*console_script(), "scan", str(path), "-d", str(rules)]
    )
    assert code == 1
    assert b"scanning" in stderr
    assert stdout == invoke(path, "-d", rules).stdout_bytes


@pytest.mark.parametrize(
    "args",
    [
        ["scan", ".", "--rule-timeout", "nan"],
        ["scan", ".", "--max-output", "inf"],
        ["scan", ".", "--max-memory", "0"],
        ["scan", ".", "--max-file-size", "nan"],
        ["eval", "data.x", "-d", ".", "--timeout", "inf"],
        ["relations", "--timeout", "nan"],
        ["graph", ".", "--timeout", "inf"],
        ["test", ".", "--timeout", "nan"],
        ["diff", "a.json", "b.json", "--timeout", "-inf"],
    ],
)
def test_bounds_that_are_not_finite_are_usage_errors(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    words = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stderr).split())
    assert "bounds must be positive finite numbers" in words
    assert "internal error" not in words


def test_help_lists_flags_as_flags_and_rewraps_sentences() -> None:
    """A flag shows no value type (users would type ``--split-k8s true``), and help
    paragraphs are wrapped to the terminal, not at the source's line breaks."""
    wide = {"COLUMNS": "200"}
    scan_help = CliRunner().invoke(app, ["scan", "--help"], env=wide).output
    assert "<bool>" not in scan_help
    assert re.search(r"^  --split-k8s +One State per Kubernetes file", scan_help, re.M)
    rules_help = CliRunner().invoke(app, ["rules", "--help"], env=wide).output
    paragraph = rules_help.split("\n\n")[1]
    lines = paragraph.splitlines()
    assert " ".join(paragraph.split()).startswith("List rules (without -d or --bundle, the")
    assert all(len(line) > 60 for line in lines[:-1])  # filled, not broken where written
    top = CliRunner().invoke(app, ["--help"], env=wide).output
    assert "  scan       Run rules over inputs and write the results.\n" in top
