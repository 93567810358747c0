"""The wheel: it carries the shipped files, the pinned static ``opa`` and the
precompiled rule pack, and an install of it scans and compiles rules with no Go
and no ``opa`` anywhere; a build that can neither find nor build ``opa`` fails.

The build backend's parts are checked directly; the slow test uses the wheel
built once per session from the sdist (``built_wheel``) and installed in a
fresh venv (``wheel_venv``), and runs the installed command line there.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from oracle import needs_opa
from wheel_build import BuiltWheel, build, isolated_env, tools_without_go_or_opa

from engine.rules.rule_pack import shipped_rule_files

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "build_support"))

import rego_engine_build  # noqa: E402
from rego_engine_build import bundled_opa, platform_wheel, shipped_files  # noqa: E402


def test_a_wheel_build_requires_the_engine_dependencies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    assert rego_engine_build.runtime_dependencies() == deps
    requires = rego_engine_build.get_requires_for_build_wheel()
    assert set(deps) <= set(requires)
    assert not set(deps) & set(rego_engine_build.get_requires_for_build_editable())


def test_the_pack_is_built_from_the_files_a_source_scan_compiles() -> None:
    assert [REPO / p for p in shipped_files.pack_rule_files(REPO)] == shipped_rule_files()


def test_the_shipped_files_are_copied_from_the_top_level_tree(tmp_path: Path) -> None:
    target = tmp_path / "engine" / "shipped"
    target.mkdir(parents=True)
    (target / "stale.txt").write_text("from an earlier build")
    shipped_files.copy_shipped_files(REPO, target)
    assert not (target / "stale.txt").exists()
    assert (target / "rego" / "lib" / "type_hierarchy.json").read_bytes() == (
        REPO / "rego" / "lib" / "type_hierarchy.json"
    ).read_bytes()
    assert sorted(p.name for p in (target / "builtins").iterdir()) == sorted(
        p.name for p in (REPO / "builtins").glob("*.json")
    )
    assert [p.name for p in (target / "wasm").iterdir()] == ["go.mod"]


def _expected_failures() -> list[tuple[str, str, str]]:
    spec = importlib.util.spec_from_file_location(
        "examples_expectation", REPO / "tests" / "cli" / "test_examples.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return sorted((rule, resource, tag) for _, rule, resource, tag in module.EXPECTED_FAILURES)


@pytest.mark.slow
@needs_opa
def test_the_installed_wheel_scans_and_compiles_rules_with_no_go_and_no_opa(
    built_wheel: BuiltWheel, wheel_venv: Path, tmp_path: Path
) -> None:
    started = time.monotonic()
    for needed in [
        "pyproject.toml",
        "engine/__main__.py",
        "rego/lib/type_hierarchy.json",
        "rego/rules/cloudformation/cloudtrail.rego",
        "rego/relations/aws/s3.rego",
        "builtins/snyk.json",
        "wasm/go.mod",
        "wasm/go.sum",
        "wasm/build-opa.sh",
        "build_support/rego_engine_build/__init__.py",
        "build_support/rego_engine_build/shipped_files.py",
        "build_support/rego_engine_build/bundled_opa.py",
        "build_support/rego_engine_build/platform_wheel.py",
    ]:
        # The wheel is built from the unpacked sdist, as pip builds it, so every
        # file the build and the engine read must be in the sdist.
        assert needed in built_wheel.sdist_members, f"the sdist lacks {needed}"
    wheel = built_wheel.wheel
    machine = platform.machine()
    assert wheel.name.startswith("rego_engine-0.1.0-py3-none-")
    assert f"manylinux_2_17_{machine}" in wheel.name and not wheel.name.endswith("-any.whl")
    with zipfile.ZipFile(wheel) as zipped:
        names = set(zipped.namelist())
        manifest = json.loads(zipped.read("engine/shipped/opa/opa.json"))
        carried = zipped.read("engine/shipped/opa/opa")
        opa_mode = zipped.getinfo("engine/shipped/opa/opa").external_attr >> 16
        notice = zipped.read("engine/shipped/opa/NOTICE").decode()
        licence = zipped.read("engine/shipped/opa/LICENSE").decode()
    for shipped in [
        "engine/shipped/rule-pack.tar.gz",
        "engine/shipped/rego/lib/type_hierarchy.json",
        "engine/shipped/builtins/snyk.json",
        "engine/shipped/wasm/go.mod",
    ]:
        assert shipped in names
    assert manifest == {"version": "v1.22.2", "sha256": hashlib.sha256(carried).hexdigest()}
    assert opa_mode & 0o111
    assert "Apache License" in licence and manifest["sha256"] in notice

    work = tmp_path / "work"
    shutil.copytree(REPO / "examples", work / "examples")
    path = f"{wheel_venv}:{tools_without_go_or_opa(tmp_path / 'tools')}"
    assert shutil.which("opa", path=path) is None and shutil.which("go", path=path) is None
    env = isolated_env(tmp_path / "home", path)

    def installed(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(wheel_venv / "rego-engine"), *args],
            capture_output=True,
            text=True,
            cwd=work,
            env=env,
        )

    scan = installed("scan", "examples/", "-f", "json")
    assert scan.returncode == 1, scan.stderr
    doc = json.loads(scan.stdout)
    assert doc["errors"] == [] and doc["warnings"] == []
    failing = sorted(
        (rules["id"], result["resource_id"], result["result_tag"])
        for scanned in doc["results"]
        for rules in scanned["rule_results"]
        for result in rules["results"]
        if not result["passed"]
    )
    assert len(failing) == 62
    assert failing == _expected_failures()

    version = installed("version")
    assert version.returncode == 0, version.stderr
    assert "rego-engine 0.1.0" in version.stdout
    assert "opa         v1.22.2 (" in version.stdout
    assert "engine/shipped/opa/opa" in version.stdout

    custom = installed("scan", "-d", "examples/custom-rules", "examples/", "-f", "json")
    assert custom.returncode == 1, custom.stderr
    custom_doc = json.loads(custom.stdout)
    assert custom_doc["errors"] == []
    custom_ids = {
        rules["id"]
        for scanned in custom_doc["results"]
        for rules in scanned["rule_results"]
        if any(not r["passed"] for r in rules["results"])
    }
    assert custom_ids and not custom_ids & {rule for rule, _, _ in failing}
    print(f"install checks and scans: {time.monotonic() - started:.1f}s")


def test_building_a_wheel_with_neither_go_nor_opa_fails_naming_both_fixes(tmp_path: Path) -> None:
    path = f"{Path(sys.executable).parent}:{tools_without_go_or_opa(tmp_path / 'tools')}"
    env = isolated_env(tmp_path / "home", path)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", "dist", str(REPO)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "this wheel must carry opa v1.22.2 and none could be found or built" in output
    assert "install Go (https://go.dev/dl/)" in output
    assert "put opa v1.22.2 on PATH or set REGO_ENGINE_OPA" in output
    assert "set REGO_ENGINE_WHEEL_WITHOUT_OPA=1" in output
    assert not list((tmp_path / "dist").glob("*.whl"))


def test_the_explicit_opt_out_builds_a_pure_wheel_without_opa(tmp_path: Path) -> None:
    path = f"{Path(sys.executable).parent}:{tools_without_go_or_opa(tmp_path / 'tools')}"
    env = {**isolated_env(tmp_path / "home", path), "REGO_ENGINE_WHEEL_WITHOUT_OPA": "1"}
    wheel = build(REPO, tmp_path / "dist", "--wheel", env=env)
    assert wheel.name == "rego_engine-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zipped:
        names = set(zipped.namelist())
    assert "engine/shipped/rego/lib/type_hierarchy.json" in names
    assert not {n for n in names if n.startswith("engine/shipped/opa/")}
    assert "engine/shipped/rule-pack.tar.gz" not in names


def test_a_linux_wheel_is_tagged_for_glibc_and_musl() -> None:
    assert platform_wheel.platform_tag("linux-x86_64") == (
        "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"
    )
    assert platform_wheel.platform_tag("linux-aarch64").startswith("manylinux_2_17_aarch64.")
    assert platform_wheel.platform_tag("macosx-11.0-arm64") == "macosx_12_0_arm64"
    # A universal2 Python still gets the one architecture its opa was built for.
    assert platform_wheel.platform_tag("macosx-10.9-universal2", "x86_64") == "macosx_12_0_x86_64"


def test_a_dynamically_linked_opa_is_not_put_in_a_wheel(tmp_path: Path) -> None:
    assert bundled_opa.elf_interpreter(Path(sys.executable).resolve()) is True
    assert bundled_opa.elf_interpreter(REPO / "pyproject.toml") is None


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=hook@example.com", "-c", "user.name=hook", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


NO_IAC_FILES = {
    "package.json": '{"name": "site", "version": "1.0.0"}\n',
    ".pre-commit-config.yaml": "repos: []\n",
    "docs/mkdocs.yml": "site_name: docs\nnav:\n  - index.md\n",
    "README.md": "# a site\n",
}


def _repository(directory: Path, files: dict[str, str] | Path) -> Path:
    """A git repository at ``directory`` of ``files`` (names and texts, or a tree to copy)."""
    if isinstance(files, Path):
        shutil.copytree(files, directory)
    else:
        for name, text in files.items():
            (directory / name).parent.mkdir(parents=True, exist_ok=True)
            (directory / name).write_text(text)
    _git(directory, "init", "-q")
    _git(directory, "add", "-A")
    _git(directory, "commit", "-qm", "files")
    return directory


def _try_repo(project: Path, hook: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    pre_commit = Path(sys.executable).parent / "pre-commit"
    return subprocess.run(
        [str(pre_commit), "try-repo", str(REPO), hook, "--all-files", "--verbose"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )


def test_the_hooks_match_only_files_the_engine_may_load() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["rego-engine-scan", "rego-engine-scan-system"]
    assert [h["language"] for h in hooks] == ["python", "system"]
    for hook in hooks:
        assert "--no-input-ok" in hook["entry"]

        def matched(name: str, hook: dict[str, Any] = hook) -> bool:
            return bool(re.search(hook["files"], name)) and not re.search(hook["exclude"], name)

        for name in [
            "main.tf",
            "envs/prod.tfvars",
            "terraform.tfstate",
            "plan.json",
            "k8s/deploy.yaml",
            "cfn/stack.template",
            "arm/azuredeploy.json",
        ]:
            assert matched(name), name
        for name in [
            ".pre-commit-config.yaml",
            ".github/workflows/ci.yml",
            "package.json",
            "web/package-lock.json",
            "tsconfig.json",
            "node_modules/x/data.json",
            "README.md",
            "setup.py",
        ]:
            assert not matched(name), name


def test_no_input_ok_turns_no_input_into_a_pass_with_one_note(tmp_path: Path) -> None:
    for name, text in NO_IAC_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    cli = [sys.executable, "-m", "engine", "scan", "-f", "table", str(tmp_path)]
    plain = subprocess.run(cli, capture_output=True, text=True)
    assert plain.returncode == 3, plain.stderr
    passed = subprocess.run([*cli, "--no-input-ok"], capture_output=True, text=True)
    assert passed.returncode == 0, passed.stderr
    assert passed.stderr == f"note: no supported input found in {tmp_path}: nothing to scan\n"


@pytest.mark.slow
@needs_opa
def test_the_source_hook_installs_from_this_checkout_and_scans(tmp_path: Path) -> None:
    """Installing from source builds the wheel (here with the cached signed opa
    the build script made; with Go on PATH it would build one)."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit")}
    env.pop("REGO_ENGINE_OPA", None)
    findings = _repository(tmp_path / "k8s", REPO / "examples" / "kubernetes")
    proc = _try_repo(findings, "rego-engine-scan", env)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "rego-engine scan" in proc.stdout and "Failed" in proc.stdout
    assert "RE-K8S-001  Containers do not run privileged" in proc.stdout
    assert "22 rules, 9 resources: 69 passed, 17 failed, 0 ignored, 0 errors" in proc.stdout
    clean = _try_repo(_repository(tmp_path / "site", NO_IAC_FILES), "rego-engine-scan", env)
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-3000:]
    assert "Passed" in clean.stdout and "nothing to scan" in clean.stdout


@pytest.mark.slow
@needs_opa
def test_the_system_hook_runs_the_installed_wheel_with_no_go_and_no_opa(
    wheel_venv: Path, tmp_path: Path
) -> None:
    path = f"{wheel_venv}:{tools_without_go_or_opa(tmp_path / 'tools')}"
    assert shutil.which("opa", path=path) is None and shutil.which("go", path=path) is None
    env = {**isolated_env(tmp_path / "home", path), "PRE_COMMIT_HOME": str(tmp_path / "pc")}
    findings = _repository(tmp_path / "k8s", REPO / "examples" / "kubernetes")
    proc = _try_repo(findings, "rego-engine-scan-system", env)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "RE-K8S-001  Containers do not run privileged" in proc.stdout
    assert "22 rules, 9 resources: 69 passed, 17 failed, 0 ignored, 0 errors" in proc.stdout
    clean = _try_repo(_repository(tmp_path / "site", NO_IAC_FILES), "rego-engine-scan-system", env)
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-3000:]
    assert "Passed" in clean.stdout
    assert "note: no supported input found in .: nothing to scan" in clean.stdout
