"""Which rego-engine this is: the installed distribution's version, else the checkout's."""

from __future__ import annotations

import functools

from engine.core.distribution_version import installed_version
from engine.core.paths import REPO_ROOT


@functools.cache
def engine_version() -> str:
    """The installed rego-engine version; run from a source tree that is not installed
    (as when a wheel is being built), the version in its ``pyproject.toml``."""
    return installed_version("rego-engine") or checkout_version()


def checkout_version(pyproject: str | None = None) -> str:
    """``project.version`` of the checkout's ``pyproject.toml`` (or of the text given)."""
    import tomllib  # only for a tree that is not installed

    text = pyproject if pyproject is not None else (REPO_ROOT / "pyproject.toml").read_text()
    return str(tomllib.loads(text)["project"]["version"])
