"""Which rego-engine this is: the installed distribution's version, else the checkout's.

``importlib.metadata`` and ``tomllib`` are imported when a version is first asked
for, not with this module: a command that never prints or records the version
does not pay for them.
"""

from __future__ import annotations

import functools

from engine.core.paths import REPO_ROOT


@functools.cache
def engine_version() -> str:
    """The installed rego-engine version; run from a source tree that is not installed
    (as when a wheel is being built), the version in its ``pyproject.toml``."""
    import importlib.metadata

    try:
        return importlib.metadata.version("rego-engine")
    except importlib.metadata.PackageNotFoundError:
        return checkout_version()


def checkout_version(pyproject: str | None = None) -> str:
    """``project.version`` of the checkout's ``pyproject.toml`` (or of the text given)."""
    import tomllib

    text = pyproject if pyproject is not None else (REPO_ROOT / "pyproject.toml").read_text()
    return str(tomllib.loads(text)["project"]["version"])
