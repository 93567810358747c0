"""One odd test, data file or option never loses the rest of a ``rego-engine test``
run; each tree is compared with the pinned ``opa test``."""

from __future__ import annotations

from pathlib import Path

from opa_test_parity import engine_verdicts, opa_verdicts, write_tree
from oracle import needs_opa

pytestmark = needs_opa


def test_a_partial_object_test_with_boolean_and_composite_keys_reports_like_opa(
    tmp_path: Path,
) -> None:
    tree = write_tree(
        tmp_path,
        {
            "p_test.rego": (
                "package p\n"
                "test_bool[x] := true if { some x in [true, false] }\n"
                'test_keys[x] := x != 2 if { some x in [{"a": true}, [1, true], 2] }\n'
                "test_ok if true\n"
            )
        },
    )
    code, ours, _ = engine_verdicts(tree)
    assert ours == opa_verdicts(tree)
    assert ours["data.p.test_bool"][1] == {"false": {"name": "false"}, "true": {"name": "true"}}
    assert code == 2  # test_keys fails on its key 2


def test_an_empty_yaml_data_document_loads_as_null(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path,
        {
            "q/doc/data.yaml": "",
            "r_test.rego": (
                "package r\n"
                "test_null if data.q.doc == null\n"
                'test_key if "doc" in object.keys(data.q)\n'
            ),
        },
    )
    code, ours, _ = engine_verdicts(tree)
    assert ours == opa_verdicts(tree)
    assert code == 0 and len(ours) == 2


def test_an_empty_yaml_document_at_the_root_of_data_is_an_error_naming_it(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path, {"data.yaml": "", "r_test.rego": "package r\ntest_ok if true\n"})
    code, ours, stderr = engine_verdicts(tree)
    assert code == 1 and "data.yaml" in stderr and "must be an object" in stderr
    assert ours == {"data.r.test_ok": ("pass", None)}


def test_a_number_beyond_float64_in_data_json_is_kept_exact(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path,
        {
            "big/data.json": '{"n": 1e1000, "m": -1.5E+400}',
            "b_test.rego": (
                "package b\n"
                "test_big if data.big.n > 1e999\n"
                "test_neg if data.big.m < -1e399\n"
                "test_exact if data.big.n == 1e1000\n"
            ),
        },
    )
    code, ours, stderr = engine_verdicts(tree)
    assert ours == opa_verdicts(tree)
    assert code == 0, stderr
    assert set(ours) == {"data.b.test_big", "data.b.test_neg", "data.b.test_exact"}


def test_a_number_too_large_to_write_exactly_is_refused_naming_the_file(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path,
        {"big/data.json": '{"n": 1e5000}', "b_test.rego": "package b\ntest_ok if true\n"},
    )
    code, ours, stderr = engine_verdicts(tree)
    assert code == 1
    assert "big/data.json" in stderr and "1e5000" in stderr
    assert ours == {"data.b.test_ok": ("pass", None)}


def test_ignore_skips_file_and_directory_names_as_opa_test_does(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path,
        {
            "a_test.rego": "package i\ntest_a if true\n",
            "sub/b_test.rego": "package j\ntest_b if false\n",
            "broken.json": "{bad",
            "fixtures/c_test.yaml": "{also bad",
        },
    )
    assert engine_verdicts(tree)[0] == 1  # without --ignore the bad JSON is a problem
    for args in (["--ignore", "*.json", "--ignore", "sub"], ["--ignore", "*.json,sub"]):
        code, ours, _ = engine_verdicts(tree, *args, "--ignore", "*.yaml")
        assert ours == opa_verdicts(tree, "--ignore", "*.json,sub,*.yaml")
        assert code == 0 and set(ours) == {"data.i.test_a"}


def test_the_time_bound_error_names_the_option_test_accepts(tmp_path: Path) -> None:
    tree = write_tree(
        tmp_path,
        {
            "h_test.rego": (
                "package h\n"
                "test_slow if count([x | some x in numbers.range(1, 100000000)]) > 0\n"
                "test_ok if true\n"
            )
        },
    )
    from engine.testing.runner import TestOptions, run_tests

    run = run_tests([tree], TestOptions(timeout_seconds=0.2))
    by_name = {o.test.name: o for o in run.outcomes}
    assert by_name["test_ok"].passed
    error = by_name["test_slow"].error
    assert error is not None and "(raise --timeout)" in str(error)


def test_the_summary_counts_each_case_of_a_partial_object_test_as_opa_test(
    tmp_path: Path,
) -> None:
    import contextlib
    import subprocess

    from click.testing import CliRunner

    from engine.cli.main import app
    from engine.rules.opa import find_opa

    tree = write_tree(
        tmp_path,
        {
            "c_test.rego": (
                "package c\n"
                "test_ok if true\n"
                "test_obj[x] := x != 2 if { some x in [1, 2, 3] }\n"
                'test_nested[x][y] := y != "b" if { some x in ["p", "q"]; some y in ["a", "b"] }\n'
                "test_bad if false\n"
            )
        },
    )
    proc = subprocess.run(
        [str(find_opa().path), "test", "."], cwd=tree, capture_output=True, text=True
    )
    with contextlib.chdir(tree):
        ours = CliRunner().invoke(app, ["test", "."])
    summary = [line for line in proc.stdout.splitlines() if line[:5] in ("PASS:", "FAIL:")]
    assert summary == ["PASS: 5/9", "FAIL: 4/9"]
    assert [line for line in ours.stdout.splitlines() if line[:5] in ("PASS:", "FAIL:")] == summary


def test_a_golden_scan_over_the_time_bound_names_the_test_option(tmp_path: Path) -> None:
    from scan_fixtures import state, write_json

    from engine.scanning.scanner import ScanOptions, scan

    write_tree(
        tmp_path / "rules",
        {
            "r.rego": (
                "package rules.slow\n"
                "import rego.v1\n"
                'deny contains {"message": "m"} if {\n'
                "  count([x | some x in numbers.range(1, 100000000)]) > 0\n"
                "}\n"
            )
        },
    )
    write_json(tmp_path / "in" / "s.json", state({"a": {}}))
    options = ScanOptions(rule_timeout=0.2, timeout_option="--timeout")
    report = scan([tmp_path / "in"], [tmp_path / "rules"], options)
    errors = [e for i in report.inputs for r in i.rule_results for e in r.errors]
    assert errors and all("(raise --timeout)" in e for e in errors)
