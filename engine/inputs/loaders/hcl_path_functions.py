"""Terraform's path functions ``basename``, ``dirname``, ``abspath``, ``pathexpand``,
with the rules of Go's ``path/filepath`` on a Unix system.

A scan's working directory is the root module's directory, written ``.`` (as
``path.cwd``): ``abspath`` of a relative path is that path cleaned, relative to
it, and an absolute path is cleaned. ``pathexpand`` of a path starting with
``~`` would read the runner's home directory, which is no part of the
configuration: it has no value (see :mod:`hcl_functions`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.inputs.loaders.hcl_conversions import as_string


def clean(path: str) -> str:
    """Go's ``filepath.Clean``: ``.`` and ``..`` resolved lexically, slashes collapsed."""
    if not path:
        return "."
    rooted = path.startswith("/")
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts and parts[-1] != "..":
                parts.pop()
            elif not rooted:
                parts.append("..")
            continue
        parts.append(part)
    text = "/".join(parts)
    return ("/" + text) if rooted else (text or ".")


def basename(path: Any) -> str:
    """Go's ``filepath.Base``: the last element, trailing slashes ignored."""
    text = as_string(path)
    if not text:
        return "."
    text = text.rstrip("/")
    if not text:
        return "/"
    return text.rsplit("/", 1)[-1]


def dirname(path: Any) -> str:
    """Go's ``filepath.Dir``: all but the last element, cleaned."""
    text = as_string(path)
    return clean(text[: text.rfind("/") + 1])


def abspath(path: Any) -> str:
    """The path cleaned, relative ones staying relative to the root module's directory."""
    return clean(as_string(path))


PATH_FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "abspath": abspath,
    "basename": basename,
    "dirname": dirname,
}
"""The path functions whose value the configuration decides."""
