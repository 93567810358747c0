"""Shared pytest setup: the tests directory is importable (for ``oracle``), and
the wheel is built (and installed in a fresh venv) at most once per session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from wheel_build import BuiltWheel, build_from_sdist, fresh_venv, pip_install


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> BuiltWheel:
    """The wheel, built once per session from this checkout's sdist."""
    return build_from_sdist(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def wheel_venv(built_wheel: BuiltWheel, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed; its ``bin`` directory."""
    bin_dir = fresh_venv(tmp_path_factory.mktemp("wheel-venv") / "venv")
    pip_install(bin_dir, str(built_wheel.wheel))
    return bin_dir
