"""The pytest plugin, run through `pytester`: Rego tests and golden cases as items."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from oracle import needs_opa

pytest_plugins = ["pytester"]
pytestmark = needs_opa

GOLDEN_CASE = Path(__file__).parent.parent / "golden_cases" / "s3_own_rules"

POLICY_TEST = """package policy_test

import rego.v1

test_passes if true

test_fails if 1 > 2

test_errors if conflict == 1

conflict := 1 if true

conflict := 2 if true

todo_test_later if true
"""


def _project(pytester: pytest.Pytester, ini: str) -> None:
    pytester.makepyprojecttoml(f"[tool.pytest.ini_options]\n{ini}\n")
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_python.py").write_text("def test_python():\n    assert True\n")
    (pytester.path / "policies").mkdir()
    (pytester.path / "policies" / "policy_test.rego").write_text(POLICY_TEST)


def test_each_rego_test_is_an_item_with_its_own_verdict(pytester: pytest.Pytester) -> None:
    _project(pytester, 'testpaths = ["tests"]\nrego_paths = ["policies"]')
    result = pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*tests/test_python.py::test_python PASSED*",
            "*policies/policy_test.rego::test_passes PASSED*",
            "*policies/policy_test.rego::test_fails FAILED*",
            "*policies/policy_test.rego::test_errors FAILED*",
            "*policies/policy_test.rego::todo_test_later SKIPPED*",
            "*eval_conflict_error: rule data.policy_test.conflict produced conflicting values*",
        ]
    )


def test_selecting_one_rego_test(pytester: pytest.Pytester) -> None:
    _project(pytester, 'rego_paths = ["policies"]')
    result = pytester.runpytest("policies/policy_test.rego::test_passes")
    result.assert_outcomes(passed=1)


def test_golden_cases_are_items(pytester: pytest.Pytester) -> None:
    _project(pytester, 'rego_paths = ["policies"]\nrego_golden = ["golden"]')
    shutil.copytree(GOLDEN_CASE, pytester.path / "golden" / "s3")
    result = pytester.runpytest("-v", "-k", "s3 or passes")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*golden/s3/expected.json::s3 PASSED*"])
    expected = pytester.path / "golden" / "s3" / "expected.json"
    expected.write_text(expected.read_text().replace("golden-scratch", "renamed"))
    failed = pytester.runpytest("-k", "s3")
    failed.assert_outcomes(failed=1)
    failed.stdout.fnmatch_lines(["*results differ:*"])
    assert pytester.runpytest("-k", "s3", "--rego-update-snapshots").ret == 0
    pytester.runpytest("-k", "s3").assert_outcomes(passed=1)


def test_without_configuration_no_rego_file_is_collected(pytester: pytest.Pytester) -> None:
    """The plugin is installed for every pytest run (this project's own suite
    holds many .rego fixtures): unconfigured, it collects nothing."""
    _project(pytester, "")
    result = pytester.runpytest("-v", ".")
    result.assert_outcomes(passed=1)
    assert "policy_test.rego" not in result.stdout.str()


def test_a_file_that_does_not_compile_is_a_collection_error(pytester: pytest.Pytester) -> None:
    _project(pytester, 'rego_paths = ["policies"]')
    (pytester.path / "policies" / "broken_test.rego").write_text(
        "package broken\nimport rego.v1\ntest_b if nope(1)\n"
    )
    result = pytester.runpytest("policies", "--continue-on-collection-errors")
    result.assert_outcomes(passed=1, failed=2, skipped=1, errors=1)
    result.stdout.fnmatch_lines(["*undefined function nope*"])


def test_a_configured_path_that_does_not_exist_is_an_error(pytester: pytest.Pytester) -> None:
    """A misspelt directory must not make the run collect nothing and pass."""
    _project(pytester, 'rego_paths = ["policies", "polices"]')
    result = pytester.runpytest(".")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*rego_paths names what does not exist: *polices*"])
