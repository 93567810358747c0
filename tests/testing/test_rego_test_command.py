"""`rego-engine test`: snapshots, bounds, errors, test-mode libraries, caching, output."""

from __future__ import annotations

import base64
import contextlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from oracle import needs_opa
from scan_fixtures import state, write, write_json

from engine.cli.main import app
from engine.rules import compiler
from engine.scanning.scanner import scan
from engine.testing.report import go_duration
from engine.testing.runner import TestOptions, run_tests

pytestmark = needs_opa


def run_cli(tree: Path, *args: str) -> Result:
    with contextlib.chdir(tree):
        return CliRunner().invoke(app, ["test", *args])


def json_report(tree: Path, *args: str) -> tuple[int, dict[str, dict[str, Any]]]:
    result = run_cli(tree, ".", "--format", "json", *args)
    return result.exit_code, {e["name"]: e for e in json.loads(result.stdout)}


# ---------------------------------------------------------------- snapshots

SNAPSHOT_TEST = """package snap_test

import data.snyk
import rego.v1

value := {"b": [1, 2], "a": {"x", "y"}, "n": input.n}

test_snapshot if {
	snyk.test.matches_snapshot(value, "snapshots/value.json") with input as {"n": 1}
}

test_sibling_dir if {
	snyk.test.matches_snapshot([1, "two"], "../shared/list.json")
}
"""


@pytest.fixture()
def snapshot_tree(tmp_path: Path) -> Path:
    write(tmp_path / "tests" / "snap_test.rego", SNAPSHOT_TEST)
    return tmp_path


def test_a_missing_snapshot_fails_and_says_how_to_create_it(snapshot_tree: Path) -> None:
    code, report = json_report(snapshot_tree, "--run", "test_snapshot")
    assert code == 2
    assert report["test_snapshot"]["fail"] is True
    output = base64.b64decode(report["test_snapshot"]["output"]).decode()
    assert "does not exist (run with --update-snapshots to create it)" in output
    assert not (snapshot_tree / "tests" / "snapshots").exists()


def test_update_creates_then_compare_passes(snapshot_tree: Path) -> None:
    code, report = json_report(snapshot_tree, "--run", "test_snapshot", "--update-snapshots")
    assert code == 0, report
    stored = snapshot_tree / "tests" / "snapshots" / "value.json"
    assert json.loads(stored.read_text()) == {"a": ["x", "y"], "b": [1, 2], "n": 1}
    code, report = json_report(snapshot_tree, "--run", "test_snapshot")
    assert code == 0
    assert "output" not in report["test_snapshot"]
    stored.write_text(json.dumps(json.loads(stored.read_text())))  # reformatted by hand
    assert json_report(snapshot_tree, "--run", "test_snapshot")[0] == 0


def test_a_mismatch_fails_with_a_readable_diff(snapshot_tree: Path) -> None:
    json_report(snapshot_tree, "--run", "test_snapshot", "--update-snapshots")
    stored = snapshot_tree / "tests" / "snapshots" / "value.json"
    stored.write_text(stored.read_text().replace('"n": 1', '"n": 2'))
    result = run_cli(snapshot_tree, ".", "--run", "test_snapshot")
    assert result.exit_code == 2
    assert "data.snap_test.test_snapshot: FAIL" in result.stdout
    assert "tests/snapshots/value.json does not match" in result.stdout
    assert '-  "n": 2' in result.stdout and '+  "n": 1' in result.stdout


def test_update_overwrites_a_stale_snapshot(snapshot_tree: Path) -> None:
    stored = snapshot_tree / "tests" / "snapshots" / "value.json"
    write(stored, '{"old": true}\n')
    code, _ = json_report(snapshot_tree, "--run", "test_snapshot", "--update-snapshots")
    assert code == 0
    assert json.loads(stored.read_text())["n"] == 1
    assert json_report(snapshot_tree, "--run", "test_snapshot")[0] == 0


def test_snapshot_paths_may_not_climb_out(snapshot_tree: Path) -> None:
    code, report = json_report(snapshot_tree, "--run", "test_sibling_dir", "--update-snapshots")
    assert code == 2
    error = report["test_sibling_dir"]["error"]
    assert error["code"] == "eval_builtin_error"
    assert "must not contain '..'" in error["message"]
    assert not (snapshot_tree / "shared").exists()


@pytest.mark.parametrize(
    ("path", "why"),
    [("/tmp/x.json", "must be relative"), ("link/escape.json", "outside the test tree")],
)
def test_absolute_paths_and_escaping_symlinks_are_refused(
    tmp_path: Path, path: str, why: str
) -> None:
    tree = tmp_path / "tree"
    outside = tmp_path / "outside"
    outside.mkdir()
    write(
        tree / "t_test.rego",
        "package t\nimport data.snyk\nimport rego.v1\n"
        f'test_x if snyk.test.matches_snapshot(1, "{path}")\n',
    )
    os.symlink(outside, tree / "link")
    code, report = json_report(tree, "--update-snapshots")
    assert code == 2
    assert why in report["test_x"]["error"]["message"]
    assert list(outside.iterdir()) == []


def test_scan_refuses_the_snapshot_builtin(tmp_path: Path) -> None:
    write(
        tmp_path / "rules" / "r.rego",
        "package rules.r\nimport rego.v1\n"
        'deny contains {"message": "x"} if __snyk_test_snapshot(1, "a.json")\n',
    )
    write_json(tmp_path / "in" / "s.json", state({"a": {}}))
    report = scan([tmp_path / "in"], [tmp_path / "rules"])
    (rule,) = report.inputs[0].rule_results
    assert any("snapshots are only available under rego-engine test" in e for e in rule.errors)
    assert not (tmp_path / "rules" / "a.json").exists()


def test_scan_does_not_ship_the_snapshot_library(tmp_path: Path) -> None:
    write(
        tmp_path / "rules" / "r.rego",
        "package rules.r\nimport data.snyk\nimport rego.v1\n"
        'deny contains {"message": "x"} if snyk.test.matches_snapshot(1, "a.json")\n',
    )
    write_json(tmp_path / "in" / "s.json", state({"a": {}}))
    report = scan([tmp_path / "in"], [tmp_path / "rules"])
    assert any("matches_snapshot" in e for e in report.errors)


# ---------------------------------------------------------------- bounds and errors


def test_a_test_over_the_time_bound_errors(tmp_path: Path) -> None:
    write(
        tmp_path / "slow_test.rego",
        "package slow\nimport rego.v1\n"
        "test_slow if count([x | some x in numbers.range(1, 100000000)]) > 0\n"
        "test_fast if true\n",
    )
    code, report = json_report(tmp_path, "--timeout", "0.3")
    assert code == 2
    assert report["test_slow"]["error"]["code"] == "eval_cancel_error"
    assert "time limit of 0.3s" in report["test_slow"]["error"]["message"]
    assert "error" not in report["test_fast"] and "fail" not in report["test_fast"]


def test_a_test_over_the_memory_bound_errors(tmp_path: Path) -> None:
    write(
        tmp_path / "big_test.rego",
        "package big\nimport rego.v1\n"
        'parts := [sprintf("%d", [i]) | some i in numbers.range(1, 3000000)]\n'
        'test_big if count(concat("", parts)) > 0\n'
        "test_after if true\n",
    )
    code, report = json_report(tmp_path, "--max-memory", "64")
    assert code == 2
    assert "memory limit of 64 MiB" in report["test_big"]["error"]["message"]
    assert "error" not in report["test_after"]


def test_refused_builtins_error(tmp_path: Path) -> None:
    write(
        tmp_path / "net_test.rego",
        'package net\nimport rego.v1\ntest_http if http.send({"method": "get", "url": "http://x"})\n',
    )
    _, report = json_report(tmp_path)
    error = report["test_http"]["error"]
    assert error["code"] == "eval_builtin_error"
    assert "http.send is refused" in error["message"]


def test_a_file_that_does_not_compile_is_set_aside(tmp_path: Path) -> None:
    write(tmp_path / "good_test.rego", "package good\nimport rego.v1\ntest_ok if true\n")
    write(tmp_path / "bad_test.rego", "package bad\nimport rego.v1\ntest_bad if undefined_fn(1)\n")
    result = run_cli(tmp_path, ".", "-v")
    assert result.exit_code == 1
    assert "data.good.test_ok: PASS" in result.stdout
    assert "bad_test.rego:3" in result.stderr and "undefined_fn" in result.stderr


def test_all_passing_exits_zero_and_prints_the_summary(tmp_path: Path) -> None:
    write(tmp_path / "a_test.rego", "package a\nimport rego.v1\ntest_a if true\ntest_b if 1 < 2\n")
    result = run_cli(tmp_path, ".")
    assert result.exit_code == 0
    assert result.stdout == "PASS: 2/2\n"


# ---------------------------------------------------------------- test mode


def assert_all_pass(tree: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        write(tree / name, text)
    code, report = json_report(tree)
    assert code == 0, report


def test_test_mode_snyk_reads_input(tmp_path: Path) -> None:
    rule = (
        "package rules.r\nimport data.snyk\nimport rego.v1\n"
        'deny contains {"resource": b} if {\n'
        '  some b in snyk.resources("bucket")\n  not b.encrypted\n}\n'
    )
    test = (
        "package rules.r_test\nimport data.rules.r\nimport rego.v1\n"
        "test_deny if count(r.deny) == 1 with input as "
        '{"resources": {"bucket": {"a": {"attributes": {"encrypted": false}}, '
        '"b": {"attributes": {"encrypted": true}}}}}\n'
    )
    assert_all_pass(tmp_path, {"rules/r.rego": rule, "rules/r_test.rego": test})


def test_a_tree_shipping_its_own_snyk_and_fugue_uses_them(tmp_path: Path) -> None:
    """Older corpora carry test-time copies of the libraries, reading their own fixtures."""
    test = (
        "package t\nimport data.snyk\nimport data.fugue\nimport rego.v1\n"
        'test_own_snyk if snyk.resources("x") == [1, 2] with input as {"mock": {"x": [1, 2]}}\n'
        'test_own_fugue if fugue.marker == "theirs"\n'
    )
    assert_all_pass(
        tmp_path,
        {
            "lib/snyk.rego": "package snyk\nimport rego.v1\nresources(t) := input.mock[t]\n",
            "lib/fugue.rego": 'package fugue\nimport rego.v1\nmarker := "theirs"\n',
            "t_test.rego": test,
        },
    )


def test_a_tree_shipping_only_snyk_gets_the_shipped_fugue(tmp_path: Path) -> None:
    snyk = (
        "package snyk\nimport rego.v1\nresources(t) := [r | some r in input.mock[t]]\n"
        'input_type := "tf"\n'
    )
    test = (
        "package t\nimport data.fugue\nimport rego.v1\n"
        'test_fugue_over_their_snyk if fugue.resources("x") == {"a": {"id": "a"}} '
        'with input as {"mock": {"x": [{"id": "a"}]}}\n'
    )
    assert_all_pass(tmp_path, {"lib/snyk.rego": snyk, "t_test.rego": test})


# ---------------------------------------------------------------- compile once, cached


def test_the_second_run_compiles_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "a_test.rego", "package a\nimport rego.v1\ntest_a if true\n")
    first = run_tests([tmp_path])
    calls: list[Any] = []
    original = compiler._run_build
    monkeypatch.setattr(compiler, "_run_build", lambda *a: calls.append(a) or original(*a))
    second = run_tests([tmp_path])
    assert first.policy_key == second.policy_key
    assert calls == []
    assert [o.verdict for o in second.outcomes] == ["PASS"]


def test_one_module_holds_every_test_of_the_tree(tmp_path: Path) -> None:
    for i in range(3):
        write(tmp_path / f"t{i}_test.rego", f"package t{i}\nimport rego.v1\ntest_{i} if true\n")
    run = run_tests([tmp_path], TestOptions(run="t1|t2"))
    assert [o.test.name for o in run.outcomes] == ["test_1", "test_2"]


def test_go_durations() -> None:
    assert go_duration(83_634) == "83.634µs"
    assert go_duration(1_600_163) == "1.600163ms"
    assert go_duration(5_033_863_614) == "5.033863614s"
    assert go_duration(512) == "512ns"


def test_test_mode_resolves_supertypes_as_the_scan_does(tmp_path: Path) -> None:
    """snyk.resources("workload") returns every workload kind in a test too (the
    type hierarchy is test mode's data, as the host's in a scan)."""
    write(
        tmp_path / "workload_test.rego",
        """package rules.workload_test
import rego.v1
import data.snyk

fixture := {"input_type": "k8s", "resources": {
	"Deployment": {"default.web": {"id": "web", "resource_type": "Deployment",
		"namespace": "default", "meta": {}, "attributes": {}}},
	"CronJob": {"default.nightly": {"id": "nightly", "resource_type": "CronJob",
		"namespace": "default", "meta": {}, "attributes": {}}},
}}

test_workloads if {
	ids := [r.id | some r in snyk.resources("workload")] with input as fixture
	ids == ["nightly", "web"]
}
""",
    )
    code, report = json_report(tmp_path)
    assert code == 0, report
