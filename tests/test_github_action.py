"""The composite GitHub Action (``action.yml``): its shell steps, run as GitHub runs
them (``bash --noprofile --norc -eo pipefail``) with the inputs substituted, scan
the examples, write SARIF and fail the job on the scan's exit code.

The slow test runs every ``run:`` step whose condition holds, in order, in a
fresh venv with neither ``go`` nor ``opa`` on PATH, installing the session's
wheel as a released one (``package``); the step building a wheel with Go runs
only when ``package`` is empty. The quick tests run the scan steps with the
engine of this interpreter. GitHub's own actions (``setup-python``,
``setup-go``, ``upload-sarif``) are checked by reference, not run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from oracle import needs_opa
from sarif_schema import validate_sarif
from wheel_build import BuiltWheel, fresh_venv, isolated_env, tools_without_go_or_opa

REPO = Path(__file__).resolve().parent.parent
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _action() -> dict[str, Any]:
    return yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def _step(name: str) -> dict[str, Any]:
    return next(s for s in _action()["runs"]["steps"] if s["name"] == name)


def _substitute(
    text: str, inputs: dict[str, str], outputs: dict[str, str], runner_temp: Path | None = None
) -> str:
    """``text`` with the ``${{ ... }}`` expressions a step's env uses replaced."""

    def value(match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression.startswith("inputs."):
            return inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(REPO)
        if expression == "runner.temp" and runner_temp is not None:
            return str(runner_temp)
        if expression.startswith("steps.scan.outputs."):
            return outputs[expression.removeprefix("steps.scan.outputs.")]
        raise AssertionError(f"the test does not know the expression {expression!r}")

    return EXPRESSION.sub(value, text)


def _condition_holds(condition: str | None, inputs: dict[str, str]) -> bool:
    """A step's ``if:`` of the one form the ``run:`` steps use: ``inputs.NAME == 'VALUE'``."""
    if condition is None:
        return True
    match = re.fullmatch(r"\$\{\{\s*inputs\.([\w-]+) == '([^']*)'\s*\}\}", condition)
    assert match, f"the test does not know the condition {condition!r}"
    return inputs[match.group(1)] == match.group(2)


def _run_step(
    name: str,
    inputs: dict[str, str],
    outputs: dict[str, str],
    workspace: Path,
    base_env: dict[str, str] | None = None,
    github_env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run one ``run:`` step as the runner does; its GITHUB_OUTPUT lines go into
    ``outputs``, its GITHUB_ENV lines into ``github_env`` (given to later steps)."""
    step = _step(name)
    assert step["shell"] == "bash"
    output_file = workspace / f"github-output-{len(outputs)}"
    output_file.write_text("")
    env_file = workspace / "github-env"
    env_file.write_text("")
    if base_env is None:
        base_env = {
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        }
    runner_temp = workspace / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    env = {
        **base_env,
        **(github_env or {}),
        "GITHUB_OUTPUT": str(output_file),
        "GITHUB_ENV": str(env_file),
        "RUNNER_TEMP": str(runner_temp),
    }
    env.update(
        {
            k: _substitute(str(v), inputs, outputs, runner_temp)
            for k, v in step.get("env", {}).items()
        }
    )
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
    )
    for line in output_file.read_text().splitlines():
        key, _, val = line.partition("=")
        outputs[key] = val
    for line in env_file.read_text().splitlines():
        key, _, val = line.partition("=")
        if github_env is not None:
            github_env[key] = val
    return proc


def _inputs(**given: str) -> dict[str, str]:
    defaults = {k: str(v.get("default", "")) for k, v in _action()["inputs"].items()}
    unknown = set(given) - set(defaults)
    assert not unknown, unknown
    return {**defaults, **given}


def test_the_action_is_composite_and_installs_a_wheel() -> None:
    action = _action()
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert uses[0].startswith("actions/setup-python@v")
    assert any(u.startswith("github/codeql-action/upload-sarif@v") for u in uses)
    setup_go = next(s for s in steps if s.get("uses", "").startswith("actions/setup-go@v"))
    build = _step("Build the wheel")
    # Go is set up, and the wheel built from the action's checkout, only without `package`.
    assert setup_go["if"] == build["if"] == "${{ inputs.package == '' }}"
    assert setup_go["with"]["go-version-file"] == "${{ github.action_path }}/wasm/go.mod"
    assert build["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert "pip wheel" in build["run"] and '"$ACTION_PATH"' in build["run"]
    install = _step("Install rego-engine")
    assert install["env"]["PACKAGE"] == "${{ inputs.package }}"
    assert '"${PACKAGE:-$REGO_ENGINE_PACKAGE}"' in install["run"]
    upload = _step("Upload SARIF")
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"
    assert "always()" in upload["if"]  # uploaded when the scan found something, too
    names = [s["name"] for s in steps]
    assert (
        names.index("Scan")
        < names.index("Upload SARIF")
        < names.index("Fail on the scan's exit code")
    )
    # Inputs reach the shell through env only, never pasted into the script.
    for step in steps:
        assert not EXPRESSION.search(step.get("run", "")), step["name"]


@needs_opa
def test_the_steps_scan_the_examples_write_sarif_and_fail_on_findings(tmp_path: Path) -> None:
    inputs = _inputs(paths=f"{REPO / 'examples' / 'kubernetes'} {REPO / 'examples' / 'terraform'}")
    outputs: dict[str, str] = {}
    scan = _run_step("Scan", inputs, outputs, tmp_path)
    assert scan.returncode == 0, scan.stderr  # the scan step records the code, never fails
    assert outputs["exit-code"] == "1"
    log = validate_sarif((tmp_path / "rego-engine.sarif").read_bytes())
    rule_ids = {r["ruleId"] for r in log["runs"][0]["results"]}
    assert "RE-K8S-001" in rule_ids and any(i.startswith("RE-AWS-") for i in rule_ids)
    failed = _run_step("Fail on the scan's exit code", inputs, outputs, tmp_path)
    assert failed.returncode == 1
    assert "::error::rego-engine scan exited with 1" in failed.stdout


@needs_opa
def test_rules_fail_on_and_extra_args_reach_the_scan(tmp_path: Path) -> None:
    inputs = _inputs(
        paths=str(REPO / "examples" / "kubernetes"),
        rules=str(REPO / "examples" / "custom-rules"),
        **{"sarif-file": "out/scan.sarif", "fail-on": "none", "args": "--input-type k8s --jobs 1"},
    )
    outputs: dict[str, str] = {}
    scan = _run_step("Scan", inputs, outputs, tmp_path)
    assert scan.returncode == 0, scan.stderr
    assert outputs["exit-code"] == "0"  # failing results, but --fail-on none
    log = validate_sarif((tmp_path / "out" / "scan.sarif").read_bytes())
    rules = {r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules and not any(r.startswith("RE-") for r in rules)  # only the -d rules ran
    assert log["runs"][0]["results"]
    assert _run_step("Fail on the scan's exit code", inputs, outputs, tmp_path).returncode == 0


@needs_opa
def test_a_scan_error_fails_the_job_with_exit_code_2(tmp_path: Path) -> None:
    inputs = _inputs(paths=str(REPO / "examples" / "kubernetes"), args="--rule NO-SUCH-RULE")
    outputs: dict[str, str] = {}
    assert _run_step("Scan", inputs, outputs, tmp_path).returncode == 0
    assert outputs["exit-code"] == "2"
    assert _run_step("Fail on the scan's exit code", inputs, outputs, tmp_path).returncode == 2


@pytest.mark.slow
@needs_opa
def test_every_run_step_works_in_a_fresh_venv_with_no_go_and_no_opa(
    built_wheel: BuiltWheel, tmp_path: Path
) -> None:
    venv_bin = fresh_venv(tmp_path / "venv")  # what setup-python gives the steps
    path = f"{venv_bin}{os.pathsep}{tools_without_go_or_opa(tmp_path / 'tools')}"
    env = isolated_env(tmp_path / "home", path)
    assert all(
        subprocess.run(["bash", "-c", f"! command -v {tool}"], env=env).returncode == 0
        for tool in ["go", "opa", "rego-engine"]
    )
    workspace = tmp_path / "workspace"
    (workspace / "examples").parent.mkdir()
    shutil.copytree(REPO / "examples", workspace / "examples")
    inputs = _inputs(package=str(built_wheel.wheel), paths="examples")
    outputs: dict[str, str] = {}
    github_env: dict[str, str] = {}
    ran: list[tuple[str, int]] = []
    skipped: list[str] = []
    for step in _action()["runs"]["steps"]:
        if "run" not in step:
            continue
        if not _condition_holds(step.get("if"), inputs):
            skipped.append(step["name"])
            continue
        proc = _run_step(step["name"], inputs, outputs, workspace, env, github_env)
        ran.append((step["name"], proc.returncode))
        if step["name"] == "Install rego-engine":
            assert proc.returncode == 0, proc.stderr[-3000:]
            assert f"{venv_bin.parent}" in proc.stdout  # `rego-engine version`: its own opa
            assert "engine/shipped/opa/opa" in proc.stdout
        if step["name"] == "Fail on the scan's exit code":
            assert "::error::rego-engine scan exited with 1" in proc.stdout
    assert skipped == ["Build the wheel"]
    assert ran == [("Install rego-engine", 0), ("Scan", 0), ("Fail on the scan's exit code", 1)]
    assert outputs["exit-code"] == "1"
    log = validate_sarif((workspace / "rego-engine.sarif").read_bytes())
    assert len(log["runs"][0]["results"]) == 62
