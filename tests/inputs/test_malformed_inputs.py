"""Malformed inputs: each failure class is reported naming its file (and line
where known), and the good input beside them is still scanned.

``tests/loaders/malformed/inputs`` holds one file per failure class and one
good State; ``rules`` one rule that fails the good State's bucket.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from engine.cli.main import app
from engine.core.paths import display_path

HERE = Path(__file__).parent.parent / "loaders" / "malformed"
INPUTS = HERE / "inputs"
MAX_FILE_MB = "0.02"  # too_large.json is 29.9 kB; every other file is under 1 kB

EXPECTED = {
    "binary.json": (2, "binary data, not text (a NUL byte at column 27)"),
    "invalid.json": (6, "invalid JSON: Expecting property name enclosed in double quotes"),
    "invalid.yaml": (6, "invalid YAML: mapping values are not allowed in this context"),
    "invalid_hcl/main.tf": (8, None),
    "latin1.yaml": (6, "not valid UTF-8 (byte 0xe9 at column 24); save it as UTF-8"),
    "plan_v2.json": (None, None),
    "too_large.json": (None, "file is 0.029 MB, over the --max-file-size limit of 0.02 MB"),
    "unknown_intrinsic.yaml": (7, "invalid YAML: unknown tag !Concat"),
    "utf16.json": (None, "looks like UTF-16 text without a byte-order mark; save it as UTF-8"),
}
"""File → (line, exact message); None where the format module words it."""


@pytest.fixture(scope="module")
def scanned() -> Result:
    return CliRunner().invoke(
        app, ["scan", str(INPUTS), "-d", str(HERE / "rules"), "--max-file-size", MAX_FILE_MB]
    )


def error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error: ")]


def test_the_good_input_is_scanned_and_the_exit_code_is_2(scanned: Result) -> None:
    assert scanned.exit_code == 2, scanned.output
    document = json.loads(scanned.stdout)
    (entry,) = document["results"]
    (rule,) = entry["rule_results"]
    assert rule["package"] == "data.rules.public_acl"
    assert [(r["resource_id"], r["passed"]) for r in rule["results"]] == [
        ("aws_s3_bucket.b", False)
    ]
    assert len(error_lines(scanned)) == len(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_failure_names_its_file_and_line(scanned: Result, name: str) -> None:
    line, message = EXPECTED[name]
    shown = display_path(INPUTS / name)
    where = f"error: {shown}:{line}: " if line else f"error: {shown}: "
    found = [e for e in error_lines(scanned) if e.startswith(where)]
    assert len(found) == 1, (where, error_lines(scanned))
    if message is not None:
        assert found[0] == where + message
    else:
        assert "internal error" not in found[0]


def test_the_state_command_reports_the_same_problems(scanned: Result) -> None:
    result = CliRunner().invoke(app, ["state", str(INPUTS), "--max-file-size", MAX_FILE_MB])
    assert result.exit_code == 2
    assert [d["meta"]["filepath"] for d in json.loads(result.stdout)] == ["good.json"]
    assert sorted(result.stderr.splitlines()) == sorted(
        e.removeprefix("error: ") for e in error_lines(scanned)
    )
