"""Where the engine finds its shipped files and keeps its cache, and how paths are shown."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
"""The source tree: ``rego/``, ``builtins/`` and ``wasm/`` live beside ``engine/``."""

BUILTINS_DIR = REPO_ROOT / "builtins"
REGO_LIB_DIR = REPO_ROOT / "rego" / "lib"
REGO_RELATIONS_DIR = REPO_ROOT / "rego" / "relations"
REGO_RULES_DIR = REPO_ROOT / "rego" / "rules"


def cache_dir() -> Path:
    """The cache directory (``$REGO_ENGINE_CACHE``, else under ``$XDG_CACHE_HOME`` or ``~/.cache``).

    The pinned OPA build, compiled modules and native code all live here.
    """
    override = os.environ.get("REGO_ENGINE_CACHE")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "rego-engine"


def cache_key_path() -> Path:
    """The per-user key that signs the native-code cache, kept outside the cache
    (``$REGO_ENGINE_CACHE_KEY``, else under ``$XDG_CONFIG_HOME`` or ``~/.config``)."""
    override = os.environ.get("REGO_ENGINE_CACHE_KEY")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = Path(xdg) if xdg else Path.home() / ".config"
    return base / "rego-engine" / "native-cache.key"


def display_path(path: Path) -> str:
    """A path as users see it: relative to the working directory when below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
