"""The composite GitHub Action (``action.yml``): its shell steps, run as GitHub runs
them (``bash --noprofile --norc -eo pipefail``) with the inputs substituted, scan
the examples, write SARIF and fail the job on the scan's exit code.

The install step is not run here (it would install into this venv): the
engine of this interpreter stands in for it, and ``test_packaging`` installs
the wheel in a fresh venv. GitHub's own actions (``setup-python``,
``upload-sarif``) are checked by reference, not run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from oracle import needs_opa
from sarif_schema import validate_sarif

REPO = Path(__file__).resolve().parent.parent
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _action() -> dict[str, Any]:
    return yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def _step(name: str) -> dict[str, Any]:
    return next(s for s in _action()["runs"]["steps"] if s["name"] == name)


def _substitute(text: str, inputs: dict[str, str], outputs: dict[str, str]) -> str:
    """``text`` with the ``${{ ... }}`` expressions a step's env uses replaced."""

    def value(match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression.startswith("inputs."):
            return inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(REPO)
        if expression.startswith("steps.scan.outputs."):
            return outputs[expression.removeprefix("steps.scan.outputs.")]
        raise AssertionError(f"the test does not know the expression {expression!r}")

    return EXPRESSION.sub(value, text)


def _run_step(
    name: str, inputs: dict[str, str], outputs: dict[str, str], workspace: Path
) -> subprocess.CompletedProcess[str]:
    """Run one ``run:`` step as the runner does; its GITHUB_OUTPUT lines go into ``outputs``."""
    step = _step(name)
    assert step["shell"] == "bash"
    output_file = workspace / f"github-output-{len(outputs)}"
    output_file.write_text("")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_OUTPUT": str(output_file),
    }
    env.update({k: _substitute(str(v), inputs, outputs) for k, v in step.get("env", {}).items()})
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
    return proc


def _inputs(**given: str) -> dict[str, str]:
    defaults = {k: str(v.get("default", "")) for k, v in _action()["inputs"].items()}
    unknown = set(given) - set(defaults)
    assert not unknown, unknown
    return {**defaults, **given}


def test_the_action_is_composite_and_installs_the_engine_from_its_own_checkout() -> None:
    action = _action()
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert uses[0].startswith("actions/setup-python@v")
    assert any(u.startswith("github/codeql-action/upload-sarif@v") for u in uses)
    install = _step("Install rego-engine")
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert 'pip install --disable-pip-version-check "$ACTION_PATH"' in install["run"]
    upload = _step("Upload SARIF")
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"
    assert "always()" in upload["if"]  # uploaded when the scan found something, too
    names = [s["name"] for s in steps]
    assert names.index("Scan") < names.index("Upload SARIF") < names.index(
        "Fail on the scan's exit code"
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
