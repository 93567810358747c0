"""The wheel: it carries the shipped files and the precompiled rule pack, and an
install of it scans with no Go and no opa anywhere.

The build backend's parts are checked directly; the slow test builds the sdist
and the wheel (from the sdist) with ``python -m build``, installs the wheel in
one fresh venv and runs the installed command line there.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

import pytest
from oracle import needs_opa

from engine.rules.rule_pack import shipped_rule_files

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "build_support"))

import rego_engine_build  # noqa: E402
from rego_engine_build import shipped_files  # noqa: E402


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


def _build(source: Path, outdir: Path, kind: str) -> Path:
    """``python -m build`` of one distribution ``kind`` (``--sdist``, ``--wheel``) of ``source``."""
    command = [sys.executable, "-m", "build", "--no-isolation", kind, "--outdir", str(outdir)]
    build = subprocess.run(
        [*command, str(source)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (built,) = outdir.glob("*.tar.gz" if kind == "--sdist" else "*.whl")
    return built


@pytest.mark.slow
@needs_opa
def test_the_installed_wheel_scans_the_examples_with_no_go_and_no_opa(tmp_path: Path) -> None:
    started = time.monotonic()
    dist = tmp_path / "dist"
    sdist = _build(REPO, dist, "--sdist")
    with tarfile.open(sdist) as tar:
        carried = {str(Path(*Path(n).parts[1:])) for n in tar.getnames()}
        # The wheel is built from the unpacked sdist, as pip builds it, so every
        # file the build and the engine read must be in the sdist.
        tar.extractall(tmp_path / "unpacked", filter="data")
    for needed in [
        "pyproject.toml",
        "engine/__main__.py",
        "rego/lib/type_hierarchy.json",
        "rego/rules/cloudformation/cloudtrail.rego",
        "rego/relations/aws/s3.rego",
        "builtins/snyk.json",
        "wasm/go.mod",
        "wasm/go.sum",
        "build_support/rego_engine_build/__init__.py",
        "build_support/rego_engine_build/shipped_files.py",
    ]:
        assert needed in carried, f"the sdist lacks {needed}"
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    wheel = _build(unpacked, dist, "--wheel")
    with zipfile.ZipFile(wheel) as zipped:
        names = set(zipped.namelist())
    for shipped in [
        "engine/shipped/rule-pack.tar.gz",
        "engine/shipped/rego/lib/type_hierarchy.json",
        "engine/shipped/builtins/snyk.json",
        "engine/shipped/wasm/go.mod",
    ]:
        assert shipped in names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", wheel],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-3000:]

    work = tmp_path / "work"
    shutil.copytree(REPO / "examples", work / "examples")
    path = str(venv / "bin")
    assert shutil.which("opa", path=path) is None and shutil.which("go", path=path) is None
    env = {
        "HOME": str(tmp_path / "home"),
        "PATH": path,
        "REGO_ENGINE_CACHE": str(tmp_path / "cache"),
        "LANG": os.environ.get("LANG", "C.UTF-8"),
    }

    def installed(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / "rego-engine"), *args],
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
    assert "opa         v1.22.2 (not found)" in version.stdout
    assert "wasm abi    1." in version.stdout  # read from the precompiled pack
    assert "Install OPA v1.22.2" in version.stderr

    custom = installed("scan", "examples/terraform", "-d", "examples/custom-rules")
    assert custom.returncode == 2
    assert "no usable opa to compile Rego. Install OPA v1.22.2" in custom.stderr
    print(f"wheel build, venv, install and scans: {time.monotonic() - started:.1f}s")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=hook@example.com", "-c", "user.name=hook", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.mark.slow
@needs_opa
def test_the_pre_commit_hook_installs_from_this_checkout_and_fails_on_findings(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    shutil.copytree(REPO / "examples" / "kubernetes", project / "kubernetes")
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "manifests")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit")}
    pre_commit = Path(sys.executable).parent / "pre-commit"
    proc = subprocess.run(
        [str(pre_commit), "try-repo", str(REPO), "rego-engine-scan", "--all-files"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "rego-engine scan" in proc.stdout and "Failed" in proc.stdout
    assert "RE-K8S-001  Containers do not run privileged" in proc.stdout
    assert "9 rules, 9 resources: 29 passed, 8 failed, 0 ignored, 0 errors" in proc.stdout
