"""``print()`` as ``opa test`` and ``opa eval`` show it: the same lines, under
the same tests, compared with the pinned ``opa``."""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path

from click.testing import CliRunner
from opa_test_parity import write_tree
from oracle import needs_opa

from engine.cli.main import app
from engine.evaluation.print_statements import print_lines, rego_text
from engine.rules.opa import find_opa
from engine.wasm.values import Set

POLICY = (
    "package pr\n"
    'r := 1 if { print("hello", input.missing, {"b", "a"}, [1, {"k": null}], set()); true }\n'
    "xs := [1, 2]\n"
    's contains x if { some x in xs; print("x is", x, "of", {y | some y in xs}) }\n'
)
TESTS = (
    "package pr\n"
    'test_fails if { print("in test a"); r == 2 }\n'
    'test_passes if { print("in test b", 1.5, true); count(s) == 2 }\n'
    "test_silent if true\n"
)


def _outputs(entries: list[dict]) -> dict[str, str | None]:
    return {e["name"]: e.get("output") for e in entries}


@needs_opa
def test_test_reports_print_output_as_opa_test(tmp_path: Path) -> None:
    tree = write_tree(tmp_path, {"p.rego": POLICY, "p_test.rego": TESTS})
    proc = subprocess.run(
        [str(find_opa().path), "test", "--format", "json", "."],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    expected = _outputs(json.loads(proc.stdout))
    with contextlib.chdir(tree):
        result = CliRunner().invoke(app, ["test", "--format", "json", "."])
        pretty = CliRunner().invoke(app, ["test", "."])
        verbose = CliRunner().invoke(app, ["test", "-v", "."])
    assert _outputs(json.loads(result.stdout)) == expected
    assert expected["test_passes"] and expected["test_silent"] is None
    # shown under a failing test; with -v under every test
    assert "  hello <undefined>" in pretty.stdout and "in test b" not in pretty.stdout
    assert "\n  in test b 1.5 true\n" in verbose.stdout


@needs_opa
def test_eval_writes_print_output_to_stderr_as_opa_eval(tmp_path: Path) -> None:
    tree = write_tree(tmp_path, {"p.rego": POLICY})
    for ref in ("data.pr.r", "data.pr.s"):
        proc = subprocess.run(
            [str(find_opa().path), "eval", "-d", str(tree), ref], capture_output=True, text=True
        )
        result = CliRunner().invoke(app, ["eval", "-d", str(tree), ref])
        assert result.exit_code == 0
        assert result.stderr.splitlines() and sorted(result.stderr.splitlines()) == sorted(
            proc.stderr.splitlines()
        )


def test_print_lines_cross_the_operands_values() -> None:
    assert print_lines(["a", Set([1, 2]), Set([])]) == ["a 1 <undefined>", "a 2 <undefined>"]
    assert rego_text({"b": Set(["x"]), "a": [True, None]}) == '{"a": [true, null], "b": {"x"}}'


@needs_opa
def test_scan_debug_print_writes_to_stderr_and_changes_no_result(tmp_path: Path) -> None:
    from scan_fixtures import state, write_json

    write_tree(
        tmp_path / "rules",
        {
            "r.rego": (
                "package rules.dp\n"
                "import rego.v1\n"
                'metadata := {"id": "DP-1", "title": "t", "severity": "low"}\n'
                'resource_type := "aws_s3_bucket"\n'
                'deny contains {"message": "m"} if {\n'
                '  print("checking", input.id)\n'
                '  input.name == "x"\n'
                "}\n"
            )
        },
    )
    write_json(tmp_path / "in" / "s.json", state({"a": {"name": "x"}, "b": {"name": "y"}}))
    args = ["scan", "-d", str(tmp_path / "rules"), str(tmp_path / "in"), "--format", "json"]
    plain = CliRunner().invoke(app, args)
    printed = CliRunner().invoke(app, [*args, "--debug-print"])
    assert plain.exit_code == printed.exit_code == 1
    assert plain.stdout == printed.stdout
    assert "checking" not in plain.stderr
    assert sorted(line for line in printed.stderr.splitlines() if "checking" in line) == [
        "checking aws_s3_bucket.a",
        "checking aws_s3_bucket.b",
    ]
