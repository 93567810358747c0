"""Locating the pinned OPA compiler.

Search order: ``$REGO_ENGINE_OPA``, the pinned build in the cache
(``~/.cache/rego-engine/opa-<version>/opa``, made by ``make opa``), then
``opa`` on PATH when its version is the pinned one.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from engine.core.paths import REPO_ROOT, cache_dir


class OpaNotFound(RuntimeError):
    """No OPA binary of the pinned version could be found."""


@dataclass(frozen=True)
class Opa:
    """An OPA binary and its version (``v1.22.2``)."""

    path: Path
    version: str


@functools.cache
def pinned_version() -> str:
    """The OPA version required by ``wasm/go.mod``."""
    text = (REPO_ROOT / "wasm" / "go.mod").read_text()
    match = re.search(r"github\.com/open-policy-agent/opa\s+(v[0-9][^\s]*)", text)
    if not match:
        raise OpaNotFound("wasm/go.mod does not pin github.com/open-policy-agent/opa")
    return match.group(1)


def cached_opa_path(version: str | None = None) -> Path:
    """Where the project's setup builds the pinned OPA."""
    return cache_dir() / f"opa-{version or pinned_version()}" / "opa"


def binary_version(path: Path) -> str | None:
    """The version an OPA binary reports (``v1.22.2``), or None when it does not run."""
    try:
        out = subprocess.run(
            [str(path), "version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"^Version:\s*(\S+)", out, re.M)
    if not match:
        return None
    version = match.group(1)
    return version if version.startswith("v") else f"v{version}"


@functools.cache
def find_opa() -> Opa:
    """The OPA binary to compile with; raises :class:`OpaNotFound` with a hint."""
    wanted = pinned_version()
    override = os.environ.get("REGO_ENGINE_OPA")
    if override:
        path = Path(override)
        version = binary_version(path)
        if version is None:
            raise OpaNotFound(f"REGO_ENGINE_OPA={override} is not a runnable opa binary")
        return Opa(path, version)
    cached = cached_opa_path(wanted)
    if cached.is_file() and os.access(cached, os.X_OK):
        return Opa(cached, wanted)
    on_path = shutil.which("opa")
    if on_path and binary_version(Path(on_path)) == wanted:
        return Opa(Path(on_path), wanted)
    raise OpaNotFound(
        f"OPA {wanted} not found. Run `make opa` (builds it with Go into {cached.parent}), "
        "put opa " + wanted + " on PATH, or set REGO_ENGINE_OPA to its path."
    )
