"""The engine version: the installed distribution's, else the checkout's pyproject.toml."""

from __future__ import annotations

import importlib.metadata
import tomllib

import pytest

from engine.core import engine_version as version_module
from engine.core.paths import REPO_ROOT


def test_the_checkout_version_is_the_pyproject_one() -> None:
    assert version_module.checkout_version('[project]\nversion = "3.1.4"\n') == "3.1.4"
    expected = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version_module.checkout_version() == expected


def test_an_installed_engine_reports_its_distribution_version() -> None:
    version_module.engine_version.cache_clear()
    assert version_module.engine_version() == importlib.metadata.version("rego-engine")


def test_an_uninstalled_tree_reports_its_pyproject_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(version_module, "installed_version", lambda name: None)
    version_module.engine_version.cache_clear()
    try:
        assert version_module.engine_version() == version_module.checkout_version()
    finally:
        version_module.engine_version.cache_clear()
