"""Finding an opa: the pinned build, or one on PATH in the supported range."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from oracle import needs_opa

from engine.rules import compiler, opa
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
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
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
