"""Where the engine finds its shipped files and keeps its cache, and how paths are shown.

The shipped files (``rego/``, ``builtins/``, ``wasm/go.mod``) live at the top of a
source checkout. A wheel carries copies of them in ``engine/shipped/``, together with
the precompiled rule pack, made when the wheel is built; an installed engine reads
them from there.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""The ``engine`` package directory."""

REPO_ROOT = PACKAGE_DIR.parent
"""The source checkout: ``rego/``, ``builtins/`` and ``wasm/`` live beside ``engine/``."""

SHIPPED_DIR = PACKAGE_DIR / "shipped"
"""Where a wheel holds the shipped files; absent in a source checkout."""


def shipped_root(package_dir: Path = PACKAGE_DIR) -> Path:
    """The directory holding ``rego/``, ``builtins/`` and ``wasm/``: ``engine/shipped``
    of an installed wheel when it has them, else the source checkout."""
    installed = package_dir / "shipped"
    return installed if (installed / "rego").is_dir() else package_dir.parent


SHIPPED_ROOT = shipped_root()
BUILTINS_DIR = SHIPPED_ROOT / "builtins"
REGO_LIB_DIR = SHIPPED_ROOT / "rego" / "lib"
REGO_RELATIONS_DIR = SHIPPED_ROOT / "rego" / "relations"
REGO_RULES_DIR = SHIPPED_ROOT / "rego" / "rules"
OPA_GO_MOD = SHIPPED_ROOT / "wasm" / "go.mod"
"""The Go module pinning the OPA compiler version."""

PRECOMPILED_PACK = SHIPPED_DIR / "rule-pack.tar.gz"
"""The shipped rule pack compiled when the wheel was built (only in a wheel)."""


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
