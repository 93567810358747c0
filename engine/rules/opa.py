"""Locating the OPA compiler.

Search order: ``$REGO_ENGINE_OPA``; the ``opa`` an installed wheel carries,
when its bytes have the sha256 recorded at build time; the pinned build in the
cache (``~/.cache/rego-engine/opa-<version>/opa``, made by ``make opa``), when
its sha256 is the one the build signed (:mod:`engine.rules.opa_records`); then
``opa`` on PATH when its version is in the supported range: the pinned
version's minor release or a later 1.x (``v1.22.0`` up to, not including, ``v2``).
A binary found in the wheel or the cache that fails its check is never run.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from engine.core.child_processes import NEUTRAL_DIRECTORY
from engine.core.paths import OPA_GO_MOD, SHIPPED_DIR, cache_dir
from engine.rules.opa_records import build_holds, read_shipped, shipped_holds


class OpaNotFound(RuntimeError):
    """No usable OPA binary could be found."""


@dataclass(frozen=True)
class Opa:
    """An OPA binary and its version (``v1.22.2``)."""

    path: Path
    version: str


@functools.cache
def pinned_version() -> str:
    """The OPA version required by ``wasm/go.mod``."""
    text = OPA_GO_MOD.read_text()
    match = re.search(r"github\.com/open-policy-agent/opa\s+(v[0-9][^\s]*)", text)
    if not match:
        raise OpaNotFound("wasm/go.mod does not pin github.com/open-policy-agent/opa")
    return match.group(1)


def cached_opa_path(version: str | None = None) -> Path:
    """Where the project's setup builds the pinned OPA."""
    return cache_dir() / f"opa-{version or pinned_version()}" / "opa"


def binary_version(path: Path) -> str | None:
    """The version an OPA binary reports (``v1.22.2``), or None when it does not run."""
    import subprocess

    try:
        out = subprocess.run(
            [str(path), "version"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
            cwd=NEUTRAL_DIRECTORY,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"^Version:\s*(\S+)", out, re.M)
    if not match:
        return None
    version = match.group(1)
    return version if version.startswith("v") else f"v{version}"


_VERSION = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)")


def _release(version: str) -> tuple[int, int, int] | None:
    match = _VERSION.match(version)
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def supported_range() -> tuple[str, str]:
    """The OPA versions an ``opa`` found on PATH may have: (lowest, first refused).

    From the pinned version's minor release (``v1.22.0``) up to the next major
    (``v2.0.0``): OPA keeps the Wasm target and its ABI stable within a major.
    """
    release = _release(pinned_version())
    if release is None:
        raise OpaNotFound(f"wasm/go.mod pins an unreadable OPA version {pinned_version()}")
    major, minor, _ = release
    return f"v{major}.{minor}.0", f"v{major + 1}.0.0"


def is_supported(version: str) -> bool:
    """Whether an OPA of ``version`` can build what the engine needs."""
    release = _release(version)
    low, high = (_release(v) for v in supported_range())
    return release is not None and low is not None and high is not None and low <= release < high


def install_hint() -> str:
    """What to install when no usable ``opa`` was found."""
    wanted = pinned_version()
    low, high = supported_range()
    return (
        f"Install OPA {wanted} (any version from {low} up to, not including, {high} works): "
        f"download it from https://github.com/open-policy-agent/opa/releases/tag/{wanted} "
        "and put it on PATH as `opa`, or set REGO_ENGINE_OPA to its path "
        "(in a source checkout, `make opa` builds it with Go)."
    )


def _shipped_opa(wanted: str, refused: list[str]) -> Opa | None:
    """The wheel's ``opa`` when it is there and its sha256 holds."""
    shipped = read_shipped(SHIPPED_DIR / "opa")
    if shipped is None:
        return None
    if shipped.version != wanted:
        refused.append(f"{shipped.path} is opa {shipped.version}, not the pinned {wanted}")
        return None
    if not shipped_holds(shipped):
        refused.append(
            f"{shipped.path} does not have the sha256 recorded when the wheel was built "
            "(reinstall rego-engine)"
        )
        return None
    return Opa(shipped.path, wanted)


def _built_opa(wanted: str, refused: list[str]) -> Opa | None:
    """The build script's ``opa`` in the cache when its signed sha256 holds."""
    cached = cached_opa_path(wanted)
    if not (cached.exists() or cached.is_symlink()):
        return None
    if not build_holds(cached):
        refused.append(
            f"{cached} was not run: it has no valid signed build record (`make opa` rebuilds it)"
        )
        return None
    return Opa(cached, wanted)


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
    refused: list[str] = []
    found = _shipped_opa(wanted, refused) or _built_opa(wanted, refused)
    if found is not None:
        return found
    on_path = shutil.which("opa")
    if on_path:
        version = binary_version(Path(on_path))
        if version is not None and is_supported(version):
            return Opa(Path(on_path), version)
        refused.append(f"found {on_path}: {version or 'does not run'}, outside the supported range")
    why = f" ({'; '.join(refused)})" if refused else ""
    raise OpaNotFound(f"no usable opa to compile Rego{why}. {install_hint()}")
