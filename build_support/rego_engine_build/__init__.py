"""The build backend: setuptools, plus what building the precompiled rule pack needs.

A wheel build runs ``rego-engine build`` from the source tree (see
:mod:`rego_engine_build.shipped_files`), so the engine's own dependencies are
build requirements of the wheel; they are read from ``pyproject.toml``, which
stays their one list.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]


def runtime_dependencies(pyproject: Path = Path("pyproject.toml")) -> list[str]:
    """``project.dependencies`` of the project being built (hooks run in its root)."""
    return list(tomllib.loads(pyproject.read_text())["project"]["dependencies"])


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements and the engine's dependencies (to build the rule pack)."""
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *runtime_dependencies()]
