"""A second real OPA: the newest supported 1.x release, pinned in
``wasm/compat/go.mod`` and built by ``make opa-compat``, gives the same results
as the pinned OPA when it is the ``opa`` on PATH.

The second OPA's runs share an empty cache of their own, so it compiles every
module itself; the pinned OPA's runs use the usual cache (modules are cached
per compiler version, so they are the pinned compiler's). The build script's
own choices are checked with stand-in binaries.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from oracle import needs_opa, skip_without_oracle

from engine.rules import opa, opa_records

REPO = Path(__file__).resolve().parents[2]
COMPAT_GO_MOD = REPO / "wasm" / "compat" / "go.mod"
CLI = Path(sys.executable).parent / "rego-engine"
BASH = shutil.which("bash") or "/bin/bash"

Run = Callable[..., subprocess.CompletedProcess[str]]


def _script(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``wasm/build-opa.sh`` run with ``args`` in ``env``."""
    return subprocess.run(
        [BASH, str(REPO / "wasm" / "build-opa.sh"), *args],
        capture_output=True,
        text=True,
        env=env,
    )


def compat_version() -> str:
    """The OPA version ``wasm/compat/go.mod`` pins."""
    match = re.search(
        r"^require github\.com/open-policy-agent/opa (v\S+)", COMPAT_GO_MOD.read_text(), re.M
    )
    assert match, f"{COMPAT_GO_MOD} does not pin github.com/open-policy-agent/opa"
    return match.group(1)


@pytest.fixture(scope="module")
def compat_opa() -> Path:
    """The second OPA binary, from ``wasm/build-opa.sh --compat``: the cached build
    when its signed record holds, else built now (only this module needs it)."""
    version = compat_version()
    path = opa.cached_opa_path(version)
    if shutil.which("go") is None and not opa_records.build_holds(path):
        skip_without_oracle(
            f"Go is not installed to build the second opa {version} (make opa-compat)"
        )
    build = _script("--compat", "--print-path", env=dict(os.environ))
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert Path(build.stdout.strip()) == path
    assert opa.binary_version(path) == version
    return path


@pytest.fixture(scope="module")
def pinned_opa() -> Path:
    """The pinned OPA binary the second one is compared with."""
    found = opa.find_opa()
    assert found.version == opa.pinned_version(), f"{found.path} is not the pinned opa"
    return found.path


def _runner(env: dict[str, str]) -> Run:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(CLI), *args], capture_output=True, text=True, cwd=REPO, env=env)

    return run


@pytest.fixture(scope="module")
def with_compat(compat_opa: Path, tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The command line with the second OPA first on PATH, REGO_ENGINE_OPA unset
    and an empty cache of its own (so no pinned build is found there)."""
    env = {k: v for k, v in os.environ.items() if k != "REGO_ENGINE_OPA"}
    env["PATH"] = f"{compat_opa.parent}{os.pathsep}{env.get('PATH', '')}"
    env["REGO_ENGINE_CACHE"] = str(tmp_path_factory.mktemp("compat-cache"))
    return _runner(env)


@pytest.fixture(scope="module")
def with_pinned(pinned_opa: Path) -> Run:
    """The command line with the pinned OPA."""
    return _runner({**os.environ, "REGO_ENGINE_OPA": str(pinned_opa)})


def test_the_second_opa_is_another_supported_release() -> None:
    version = compat_version()
    assert version != opa.pinned_version()
    assert opa.is_supported(version)


def _tools_only(directory: Path) -> str:
    """A PATH holding only the tools the script needs besides Go (no go, no opa)."""
    directory.mkdir(parents=True, exist_ok=True)
    for tool in ["dirname", "sed", "mkdir", "mv"]:
        found = shutil.which(tool)
        assert found, tool
        (directory / tool).symlink_to(found)
    return str(directory)


def _reporting(path: Path, version: str) -> Path:
    """An executable at ``path`` that reports ``version`` as ``opa version`` does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho "Version: {version[1:]}"\n')
    path.chmod(0o755)
    return path


def test_the_build_script_finds_the_cached_second_opa_and_ignores_the_override(
    tmp_path: Path,
) -> None:
    version = compat_version()
    cached = _reporting(tmp_path / "cache" / f"opa-{version}" / "opa", version)
    override = _reporting(tmp_path / "elsewhere" / "opa", opa.pinned_version())
    env = {
        "PATH": _tools_only(tmp_path / "bin"),
        "HOME": str(tmp_path),
        "REGO_ENGINE_CACHE": str(tmp_path / "cache"),
        "REGO_ENGINE_CACHE_KEY": str(tmp_path / "config" / "cache.key"),
        "REGO_ENGINE_PYTHON": sys.executable,
        "REGO_ENGINE_OPA": str(override),
    }
    recorded = subprocess.run(
        [sys.executable, "-m", "engine.rules.opa_records", "record", str(cached)],
        env={**env, "PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
    )
    assert recorded.returncode == 0, recorded.stderr
    compat = _script("--compat", env=env)
    assert compat.returncode == 0, compat.stderr
    assert compat.stdout == f"opa {version}: {cached}\n"
    pinned = _script(env=env)
    assert pinned.stdout.startswith(f"using REGO_ENGINE_OPA={override} ")


def test_the_build_script_says_when_go_is_missing_to_build_the_second_opa(
    tmp_path: Path,
) -> None:
    env = {
        "PATH": _tools_only(tmp_path / "bin"),
        "HOME": str(tmp_path),
        "REGO_ENGINE_CACHE": str(tmp_path / "cache"),
    }
    proc = _script("--compat", env=env)
    assert proc.returncode == 1
    assert f"opa {compat_version()} not found and Go is not installed" in proc.stderr
    assert "install Go" in proc.stderr and "or put opa" in proc.stderr
    usage = _script("--other", env=env)
    assert usage.returncode == 2 and "usage:" in usage.stderr


def test_the_build_script_never_runs_a_cached_opa_without_its_signed_record(
    tmp_path: Path,
) -> None:
    version = compat_version()
    ran = tmp_path / "ran"
    planted = tmp_path / "cache" / f"opa-{version}" / "opa"
    planted.parent.mkdir(parents=True)
    planted.write_text(f'#!/bin/sh\necho ran >> "{ran}"\necho "Version: {version[1:]}"\n')
    planted.chmod(0o755)
    env = {
        "PATH": _tools_only(tmp_path / "bin"),
        "HOME": str(tmp_path),
        "REGO_ENGINE_CACHE": str(tmp_path / "cache"),
        "REGO_ENGINE_CACHE_KEY": str(tmp_path / "config" / "cache.key"),
        "REGO_ENGINE_PYTHON": sys.executable,
    }
    proc = _script("--compat", env=env)
    assert proc.returncode == 1, proc.stdout
    assert f"{planted} has no valid signed build record: it is not run, but rebuilt" in (
        proc.stdout
    )
    assert "Go is not installed" in proc.stderr
    assert not ran.exists()


@needs_opa
def test_version_reports_the_second_opa_found_on_path(with_compat: Run, compat_opa: Path) -> None:
    proc = with_compat("version", "--json")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["opa"] == {"version": compat_version(), "path": str(compat_opa)}
    assert info["abi"] is not None and info["abi"].startswith("1.")
    text = with_compat("version")
    assert f"opa         {compat_version()} ({compat_opa})" in text.stdout


@needs_opa
def test_the_shipped_pack_from_source_scans_the_examples_alike(
    with_compat: Run, with_pinned: Run
) -> None:
    compat = with_compat("scan", "examples/", "-f", "json")
    pinned = with_pinned("scan", "examples/", "-f", "json")
    assert compat.returncode == pinned.returncode == 1, compat.stderr + pinned.stderr
    doc = json.loads(compat.stdout)
    assert doc["errors"] == [] and doc["warnings"] == []
    failing = [
        result
        for scanned in doc["results"]
        for rules in scanned["rule_results"]
        for result in rules["results"]
        if not result["passed"]
    ]
    assert len(failing) == 62
    assert compat.stdout == pinned.stdout


@needs_opa
def test_custom_rules_scan_alike(with_compat: Run, with_pinned: Run) -> None:
    args = ("scan", "examples/", "-d", "examples/custom-rules", "-f", "json")
    compat = with_compat(*args)
    pinned = with_pinned(*args)
    assert compat.returncode == pinned.returncode == 1, compat.stderr + pinned.stderr
    doc = json.loads(compat.stdout)
    assert doc["errors"] == [] and doc["warnings"] == []
    rule_ids = {rules["id"] for scanned in doc["results"] for rules in scanned["rule_results"]}
    assert len(rule_ids) == len(list((REPO / "examples" / "custom-rules").glob("*.rego")))
    assert compat.stdout == pinned.stdout


def _verdicts(report: str) -> list[tuple[object, ...]]:
    """Each test's place, name and verdict, without its duration."""
    return sorted(
        (
            t["location"]["file"],
            t["location"]["row"],
            t["package"],
            t["name"],
            bool(t.get("fail")),
            json.dumps(t.get("error")),
            bool(t.get("skip")),
        )
        for t in json.loads(report)
    )


@needs_opa
def test_the_shipped_packs_rego_tests_pass_alike(with_compat: Run, with_pinned: Run) -> None:
    compat = with_compat("test", "rego/", "--format", "json")
    pinned = with_pinned("test", "rego/", "--format", "json")
    assert compat.returncode == pinned.returncode == 0, compat.stderr + pinned.stderr
    verdicts = _verdicts(compat.stdout)
    assert len(verdicts) > 50
    assert not any(fail or error != "null" for *_, fail, error, _ in verdicts)
    assert verdicts == _verdicts(pinned.stdout)
