"""`rego-engine scan --format` end to end: every exit code and --fail-on level
in every format, several formats in one run, and the terminal default."""

from __future__ import annotations

import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sarif_schema import validate_sarif
from scan_fixtures import ACL_RULE, BROKEN_RULE, ENC_RULE, state, write, write_json
from terminal import run_on_pty

from engine.cli.main import app
from engine.results.formats import FORMATS

CLEAN = state({"x": {"encrypted": True, "acl": "private"}})
# a fails public_acl (low), b fails enc (High)
FAILING = state({"a": {"encrypted": True, "acl": "public-read"}, "b": {"acl": "private"}})
LOW_ONLY = state({"a": {"encrypted": True, "acl": "public-read"}})

LEVELS: tuple[str | None, ...] = (None, "low", "medium", "high", "critical", "none")

# scenario → exit code at each of LEVELS
EXPECTED: dict[str, tuple[int, ...]] = {
    "clean": (0, 0, 0, 0, 0, 0),
    "failing": (1, 1, 1, 1, 0, 0),
    "low_only": (1, 1, 0, 0, 0, 0),
    "all_ignored": (0, 0, 0, 0, 0, 0),
    "broken_rule": (2, 2, 2, 2, 2, 2),
    "broken_input": (2, 2, 2, 2, 2, 2),
    "no_input": (3, 3, 3, 3, 3, 3),
}


def scenario(root: Path, name: str) -> list[str]:
    """The scan arguments (inputs, rules, options) of a named scenario."""
    rules = root / "rules"
    write(rules / "enc.rego", ENC_RULE)
    write(rules / "acl.rego", ACL_RULE)
    inputs = root / "in"
    inputs.mkdir(parents=True, exist_ok=True)
    extra: list[str] = []
    if name == "clean":
        write_json(inputs / "s.json", CLEAN)
    elif name in ("failing", "all_ignored", "broken_rule"):
        write_json(inputs / "s.json", FAILING)
    elif name == "low_only":
        write_json(inputs / "s.json", LOW_ONLY)
    elif name == "broken_input":
        write_json(inputs / "s.json", CLEAN)
        write(inputs / "t.json", '{"input_type": "tf_hcl",\n oops}')
    elif name == "no_input":
        write_json(inputs / "package.json", {"name": "not a state"})
    if name == "broken_rule":
        write(rules / "broken.rego", BROKEN_RULE)
    if name == "all_ignored":
        ignore = write(
            root / "ignore.yaml",
            "ignores:\n  - {rule: T1, reason: accepted}\n  - {rule: T2, reason: accepted}\n",
        )
        extra = ["--ignore-file", str(ignore)]
    return [str(inputs), "-d", str(rules), *extra]


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def check_output(fmt: str, text: bytes) -> None:
    """The output parses as its format says."""
    if fmt == "json":
        assert json.loads(text)["format"] == "results"
    elif fmt == "sarif":
        validate_sarif(text)
    elif fmt == "junit":
        assert ET.fromstring(text).tag == "testsuites"
    elif fmt == "github":
        lines = text.decode().splitlines()
        assert all(line.startswith("::") for line in lines[:-1])
        assert lines[-1].startswith("rego-engine: ")
    else:
        assert re.search(r"\d+ passed, \d+ failed, \d+ ignored, \d+ errors?\n$", text.decode())


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exit_codes_for_every_format_and_fail_on_level(tmp_path: Path, name: str, fmt: str) -> None:
    args = scenario(tmp_path, name)
    outputs: set[bytes] = set()
    for level, expected in zip(LEVELS, EXPECTED[name], strict=True):
        for spelled in [None] if level is None else [level, level.upper()]:
            threshold = [] if spelled is None else ["--fail-on", spelled]
            result = invoke(*args, "--format", fmt, *threshold)
            assert result.exit_code == expected, (level, result.stderr)
            outputs.add(result.stdout_bytes)
    # the threshold changes the exit code, never the output
    assert len(outputs) == 1
    check_output(fmt, outputs.pop())


def test_ignored_results_are_in_every_format(tmp_path: Path) -> None:
    args = scenario(tmp_path, "all_ignored")
    doc = json.loads(invoke(*args, "-f", "json").stdout_bytes)
    flags = [r["ignored"] for rule in doc["results"][0]["rule_results"] for r in rule["results"]]
    assert flags == [True, True, True, True]
    log = validate_sarif(invoke(*args, "-f", "sarif").stdout_bytes)
    assert all(r["suppressions"] for r in log["runs"][0]["results"])
    root = ET.fromstring(invoke(*args, "-f", "junit").stdout_bytes)
    assert root.get("skipped") == "4" and root.get("failures") == "0"
    github = invoke(*args, "-f", "github").stdout.splitlines()
    assert github == ["rego-engine: 2 rules, 2 resources: 0 passed, 0 failed, 4 ignored, 0 errors"]
    listed = invoke(*args, "-f", "table", "--show-suppressed").stdout
    assert "IGNORED" in listed and "(ignored: accepted)" in listed
    counted = invoke(*args, "-f", "table").stdout
    assert "IGNORED" not in counted  # counted, not listed, without --show-suppressed
    assert counted.splitlines()[-1] == listed.splitlines()[-1]
    assert counted.splitlines()[-1].endswith("0 passed, 0 failed, 4 ignored, 0 errors")


# ---------------------------------------------------------------- several outputs


def test_several_formats_in_one_run(tmp_path: Path) -> None:
    args = scenario(tmp_path, "failing")
    out = tmp_path / "out"
    out.mkdir()
    result = invoke(
        *args,
        "--format", "sarif", "-o", out / "scan.sarif",
        "--format", "json", "-o", out / "scan.json",
        "-f", "JUnit", "--output", out / "scan.xml",
        "--format", "github", "-o", "-",
    )  # fmt: skip
    assert result.exit_code == 1
    for fmt, name in (("sarif", "scan.sarif"), ("json", "scan.json"), ("junit", "scan.xml")):
        alone = invoke(*args, "--format", fmt)
        assert (out / name).read_bytes() == alone.stdout_bytes, fmt
    assert result.stdout_bytes == invoke(*args, "--format", "github").stdout_bytes


def usage_message(stderr: str) -> str:
    """A usage error's text without any box drawn around it."""
    return " ".join(stderr.replace("│", " ").split())


@pytest.mark.parametrize(
    ("options", "complaint"),
    [
        (["--format", "sarif", "--format", "json"], "2 --format options need one -o each"),
        (["--format", "sarif", "-o", "a.sarif", "--format", "json"], "2 --format and 1 -o"),
        (["--format", "sarif", "-o", "a.sarif", "-o", "a.json"], "1 --format and 2 -o"),
        (["-o", "a.json", "-o", "b.json"], "0 --format and 2 -o"),
        (["-f", "json", "-o", "a.json", "-f", "sarif", "-o", "a.json"], "more than once"),
    ],
)
def test_formats_and_outputs_that_do_not_pair_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str], complaint: str
) -> None:
    args = scenario(tmp_path, "failing")
    monkeypatch.chdir(tmp_path)
    result = invoke(*args, *options)
    assert result.exit_code == 2
    assert complaint in usage_message(result.stderr)
    assert result.stdout == ""
    assert not list(tmp_path.glob("a.*")) and not list(tmp_path.glob("b.*"))


def test_an_unwritable_output_does_not_stop_the_others(tmp_path: Path) -> None:
    args = scenario(tmp_path, "failing")
    good = tmp_path / "good.json"
    (tmp_path / "a-file").write_text("not a directory")
    result = invoke(
        *args, "-f", "sarif", "-o", tmp_path / "a-file" / "x.sarif", "-f", "json", "-o", good
    )
    assert result.exit_code == 2
    assert "x.sarif" in result.stderr
    assert json.loads(good.read_bytes())["format"] == "results"


def test_table_in_a_file_has_no_colour(tmp_path: Path) -> None:
    args = scenario(tmp_path, "failing")
    result = invoke(*args, "-f", "table", "-o", tmp_path / "table.txt")
    assert result.exit_code == 1 and result.stdout == ""
    text = (tmp_path / "table.txt").read_text()
    assert "\x1b[" not in text
    assert text.endswith("2 rules, 2 resources: 2 passed, 2 failed, 0 ignored, 0 errors\n")


# ---------------------------------------------------------------- the terminal default


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a Linux pty")
def test_table_is_the_default_on_a_terminal(tmp_path: Path) -> None:
    args = scenario(tmp_path, "failing")
    env: dict[str, Any] = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["COLUMNS"] = "160"
    code, _, shown = run_on_pty(
        [sys.executable, "-m", "engine", "scan", *args], tty="stdout", env=env
    )
    assert code == 1
    assert b"\x1b[" in shown  # coloured
    plain = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", shown).replace(b"\r\n", b"\n")
    assert plain.rstrip().endswith(b"2 rules, 2 resources: 2 passed, 2 failed, 0 ignored, 0 errors")
    assert b'"format": "results"' not in plain
    code, _, shown = run_on_pty(
        [sys.executable, "-m", "engine", "scan", *args], tty="stdout", env={**env, "NO_COLOR": "1"}
    )
    assert code == 1 and b"\x1b[" not in shown.replace(b"\x1b[?25", b"")
    code, _, shown = run_on_pty(
        [sys.executable, "-m", "engine", "scan", *args, "--no-color"], tty="stdout", env=env
    )
    assert code == 1 and b"\x1b[" not in shown.replace(b"\x1b[?25", b"")


def test_quiet_leaves_out_rules_with_nothing_to_report(tmp_path: Path) -> None:
    args = scenario(tmp_path, "low_only")
    full = invoke(*args, "-f", "table")
    quiet = invoke(*args, "-f", "table", "--quiet")
    assert full.exit_code == quiet.exit_code == 1
    assert "data.rules.enc" in full.stdout and "data.rules.enc" not in quiet.stdout
    assert "data.rules.public_acl" in quiet.stdout
    assert quiet.stdout.splitlines()[-1] == full.stdout.splitlines()[-1]  # the same counts


def test_outputs_create_missing_directories(tmp_path: Path) -> None:
    args = scenario(tmp_path, "failing")
    target = tmp_path / "reports" / "ci" / "scan.sarif"
    result = invoke(*args, "-f", "sarif", "-o", target)
    assert result.exit_code == 1, result.stderr
    assert json.loads(target.read_text())["version"] == "2.1.0"
    state_file = tmp_path / "states" / "all.json"
    shown = CliRunner().invoke(app, ["state", str(args[0]), "-o", str(state_file)])
    assert shown.exit_code == 0 and shown.stdout == ""
    assert json.loads(state_file.read_text())[0]["resources"]["aws_s3_bucket"]


def test_version_flag() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert re.fullmatch(r"rego-engine \d+\.\d+\.\d+\S*\n", result.stdout)
