"""Installed distributions' versions, read from their METADATA files."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import distribution_version
from engine.core.distribution_version import installed_version, metadata_version


@pytest.mark.parametrize("name", ["rego-engine", "wasmtime", "orjson", "PyYAML", "google-re2"])
def test_the_version_is_the_one_importlib_metadata_finds(name: str) -> None:
    assert installed_version(name) == importlib.metadata.version(name)


def test_a_distribution_that_is_not_installed_has_no_version() -> None:
    assert installed_version("no-such-distribution-here") is None


def test_the_first_directory_on_the_path_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for where, version in (("first", "2.0"), ("second", "1.0")):
        info = tmp_path / where / f"some_dist-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: Some.Dist\nVersion: {version}\n"
        )
    monkeypatch.setattr(
        sys, "path", [str(tmp_path / "missing"), str(tmp_path / "first"), str(tmp_path / "second")]
    )
    distribution_version.installed_version.cache_clear()
    try:
        assert installed_version("some-dist") == "2.0"
    finally:
        distribution_version.installed_version.cache_clear()


def test_only_the_named_distributions_metadata_is_read(tmp_path: Path) -> None:
    metadata = tmp_path / "METADATA"
    metadata.write_text("Metadata-Version: 2.4\nName: wasmtime\nVersion: 9.8.7\n\nVersion: 1\n")
    assert metadata_version(metadata, "wasmtime") == "9.8.7"
    assert metadata_version(metadata, "orjson") is None
    metadata.write_text("Metadata-Version: 2.4\nName: wasmtime\n")
    assert metadata_version(metadata, "wasmtime") is None
    assert metadata_version(tmp_path / "absent", "wasmtime") is None


def test_reading_a_version_imports_no_importlib_metadata() -> None:
    code = (
        "import sys\nfrom engine.core.distribution_version import installed_version\n"
        "assert installed_version('rego-engine') and installed_version('wasmtime')\n"
        "print('importlib.metadata' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
