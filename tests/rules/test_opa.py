"""Finding an opa: the wheel's or the build script's when its recorded sha256
holds, or one on PATH in the supported range. An opa planted where the engine
looks for its own is never run."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from oracle import needs_opa

from engine.rules import compiler, opa, opa_records
from engine.rules.compiler import compile_policy
from engine.rules.sources import PolicySources, RegoFile


def _fake_opa(directory: Path, reported: str, delegate: Path | None = None) -> Path:
    """An ``opa`` that reports ``reported`` and hands every other command to ``delegate``."""
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "opa"
    rest = f'exec "{delegate}" "$@"' if delegate else "exit 1"
    script.write_text(
        f'#!/bin/sh\nif [ "$1" = version ]; then echo "Version: {reported}"; exit 0; fi\n{rest}\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.fixture
def no_pinned_opa(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """No REGO_ENGINE_OPA, an empty cache and a PATH holding only ``bin/`` (returned)."""
    real = opa.find_opa() if _have_opa() else None
    monkeypatch.delenv("REGO_ENGINE_OPA", raising=False)
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(tmp_path / "config" / "cache.key"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setattr(opa, "SHIPPED_DIR", tmp_path / "no-wheel")
    opa.find_opa.cache_clear()
    yield real.path if real else tmp_path / "missing"
    opa.find_opa.cache_clear()


def _have_opa() -> bool:
    try:
        opa.find_opa()
    except opa.OpaNotFound:
        return False
    return True


def test_the_supported_range_runs_from_the_pinned_minor_to_the_next_major() -> None:
    assert opa.pinned_version() == "v1.22.2"
    assert opa.supported_range() == ("v1.22.0", "v2.0.0")
    assert [opa.is_supported(v) for v in ["v1.22.0", "1.22.2", "v1.40.1", "v1.99.0-dev"]] == [
        True,
        True,
        True,
        True,
    ]
    assert [opa.is_supported(v) for v in ["v1.21.9", "v0.70.0", "v2.0.0", "edge", ""]] == [
        False,
        False,
        False,
        False,
        False,
    ]


def test_an_opa_on_path_in_the_range_is_used(no_pinned_opa: Path, tmp_path: Path) -> None:
    fake = _fake_opa(tmp_path / "bin", "1.30.0")
    assert opa.find_opa() == opa.Opa(fake, "v1.30.0")


@pytest.mark.parametrize("reported", ["0.70.0", "2.1.0", "1.21.0"])
def test_an_opa_on_path_outside_the_range_is_refused_with_what_to_install(
    no_pinned_opa: Path, tmp_path: Path, reported: str
) -> None:
    fake = _fake_opa(tmp_path / "bin", reported)
    with pytest.raises(opa.OpaNotFound) as caught:
        opa.find_opa()
    message = str(caught.value)
    assert f"found {fake}: v{reported}, outside the supported range" in message
    assert "Install OPA v1.22.2 (any version from v1.22.0 up to, not including, v2.0.0" in message
    assert "https://github.com/open-policy-agent/opa/releases/tag/v1.22.2" in message


def test_no_opa_at_all_says_what_to_install(no_pinned_opa: Path) -> None:
    with pytest.raises(opa.OpaNotFound, match=r"no usable opa to compile Rego\. Install OPA"):
        opa.find_opa()


@needs_opa
def test_rules_compile_with_an_opa_of_another_version_from_path(
    no_pinned_opa: Path, tmp_path: Path
) -> None:
    fake = _fake_opa(tmp_path / "bin", "1.22.1", delegate=no_pinned_opa)
    rule = RegoFile(Path("p.rego"), "p.rego", "package p\nx := 1\n", 1)
    sources = PolicySources(rego_files=[rule])
    assert opa.find_opa() == opa.Opa(fake, "v1.22.1")
    # Modules are cached per compiler version: this one is not the pinned compiler's.
    assert compiler.opa_identity() == "opa:v1.22.1"
    policy = compile_policy(sources, ["p/x"])
    assert policy.wasm.startswith(b"\0asm")
    assert list((tmp_path / "cache" / "modules").rglob("*"))


def _planted_opa(path: Path, marker: Path) -> Path:
    """An ``opa`` at ``path`` that leaves ``marker`` behind whenever it is run."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho ran "$@" >> "{marker}"\necho "Version: 1.22.2"\n')
    path.chmod(0o755)
    return path


def test_an_opa_planted_in_the_cache_is_never_run(no_pinned_opa: Path, tmp_path: Path) -> None:
    marker = tmp_path / "planted-ran"
    planted = _planted_opa(opa.cached_opa_path(), marker)
    with pytest.raises(opa.OpaNotFound) as caught:
        opa.find_opa()
    assert f"{planted} was not run: it has no valid signed build record" in str(caught.value)
    # A record signed for another binary, or copied from another path, does not help.
    other = _planted_opa(tmp_path / "elsewhere" / "opa", marker)
    opa_records.record_build(other)
    os.replace(opa_records.build_record_path(other), opa_records.build_record_path(planted))
    opa.find_opa.cache_clear()
    with pytest.raises(opa.OpaNotFound, match="no valid signed build record"):
        opa.find_opa()
    assert not marker.exists()


def test_a_scan_with_rules_does_not_run_an_opa_planted_in_the_cache(
    no_pinned_opa: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "planted-ran"
    _planted_opa(opa.cached_opa_path(), marker)
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.rego").write_text("package rules.r\ndeny contains 1 if { false }\n")
    (tmp_path / "main.tf").write_text('resource "aws_s3_bucket" "b" {}\n')
    scan = subprocess.run(
        [sys.executable, "-m", "engine", "scan", "-d", str(rules), str(tmp_path / "main.tf")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=dict(os.environ),
    )
    assert scan.returncode == 2, scan.stderr
    assert "no valid signed build record" in scan.stderr
    assert not marker.exists()


def test_the_build_scripts_recorded_opa_is_used_until_its_bytes_change(
    no_pinned_opa: Path, tmp_path: Path
) -> None:
    built = _fake_opa(opa.cached_opa_path().parent, "1.22.2")
    opa_records.record_build(built)
    assert opa.find_opa() == opa.Opa(built, "v1.22.2")
    built.write_text(built.read_text() + "# changed\n")
    opa.find_opa.cache_clear()
    with pytest.raises(opa.OpaNotFound, match="no valid signed build record"):
        opa.find_opa()


def test_a_record_whose_file_was_only_touched_is_checked_by_its_bytes(
    no_pinned_opa: Path, tmp_path: Path
) -> None:
    built = _fake_opa(opa.cached_opa_path().parent, "1.22.2")
    opa_records.record_build(built)
    os.utime(built, ns=(1, 1))  # a new identity, the same bytes
    assert opa_records.build_holds(built)
    assert opa_records.build_holds(built)  # the record now names the new identity


def _wheel_opa(directory: Path, marker: Path, recorded: str | None = None) -> Path:
    binary = _planted_opa(directory / "opa", marker)
    digest = recorded or hashlib.sha256(binary.read_bytes()).hexdigest()
    manifest = {"version": "v1.22.2", "sha256": digest}
    (directory / opa_records.SHIPPED_MANIFEST).write_text(json.dumps(manifest))
    return binary


def test_the_wheels_opa_is_used_when_its_recorded_sha256_holds(
    no_pinned_opa: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "wheel" / "engine" / "shipped"
    monkeypatch.setattr(opa, "SHIPPED_DIR", shipped)
    binary = _wheel_opa(shipped / "opa", tmp_path / "ran")
    assert opa.find_opa() == opa.Opa(binary, "v1.22.2")
    assert not (tmp_path / "ran").exists()  # its version comes from the manifest


def test_a_wheels_opa_that_does_not_match_its_record_is_refused(
    no_pinned_opa: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "wheel" / "engine" / "shipped"
    monkeypatch.setattr(opa, "SHIPPED_DIR", shipped)
    binary = _wheel_opa(shipped / "opa", tmp_path / "ran", recorded="0" * 64)
    with pytest.raises(opa.OpaNotFound) as caught:
        opa.find_opa()
    assert f"{binary} does not have the sha256 recorded when the wheel was built" in str(
        caught.value
    )
    assert not (tmp_path / "ran").exists()
