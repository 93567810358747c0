"""Terraform's ``fileset(path, pattern)``: the regular files below ``path`` whose
path matches a glob, listed only inside the scanned tree.

The pattern is joined to ``path`` and cleaned, then matched as Terraform's
glob matches it (:data:`~engine.core.glob_patterns.TERRAFORM`); the glob is an
RE2 program, so matching takes linear time whatever the pattern. The result
is the matching paths relative to ``path``, with ``/`` separators, sorted.
Directories are walked from the pattern's literal leading segments; a
symbolic link is followed while its target lies inside ``root``. A start
outside ``root``, an invalid pattern, or a link leading out of ``root`` where
the pattern could match through it has no value (:class:`FunctionError`):
the call is null, so that an input learns nothing about the runner's files.

The work is charged to the evaluation budget before it is done: the
pattern's length for each call, and for each directory entry visited
:data:`_ENTRY_UNITS` plus one unit per 16 characters of its path and of the
pattern.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.confined_files import is_inside
from engine.core.glob_patterns import META, TERRAFORM, GlobError, compile_glob
from engine.inputs.loaders.evaluation_budget import spend
from engine.inputs.loaders.hcl_functions import FunctionError

_ENTRY_UNITS = 25
"""Budget units charged for each directory entry visited (listing it, its type,
a match, resolving a match's real path), before the pattern's share. Measured:
about 100 µs an entry against 4 µs a unit of Terraform expression evaluation."""


def glob_pattern(pattern: str) -> Any:
    """The RE2 program whose ``fullmatch`` matches the ``/``-separated paths
    ``pattern`` matches, in Terraform's dialect; the pattern's length is charged
    to the evaluation budget before it is compiled (once per call: a cached
    program is charged as a new one)."""
    spend(len(pattern))
    try:
        return compile_glob(pattern, TERRAFORM)
    except GlobError as exc:
        raise FunctionError(str(exc)) from None


def _split(cleaned: str) -> tuple[str, list[str]]:
    """A cleaned pattern as its literal leading directory and the segments after it."""
    segments = cleaned.split("/")
    literal = next(
        (i for i, segment in enumerate(segments) if META & set(segment)), len(segments) - 1
    )
    start = "/".join(segments[:literal]) or ("/" if cleaned.startswith("/") else ".")
    return start, segments[literal:]


@dataclass(frozen=True)
class _Walk:
    """Which paths below the start a pattern can reach."""

    whole: Any
    segments: list[Any] | None
    """One pattern per directory level, when the glob has neither ``**`` nor braces."""

    def file(self, path: str) -> bool:
        return self.whole.fullmatch(path) is not None

    def directory(self, path: str, depth: int) -> bool:
        if self.segments is None:
            return True
        return (
            depth < len(self.segments) - 1
            and self.segments[depth].fullmatch(path.rsplit("/", 1)[-1]) is not None
        )


def _by_level(glob: str, segments: list[str]) -> list[Any] | None:
    """One program per directory level, when each segment is a glob of its own."""
    if "**" in glob or "{" in glob:
        return None
    try:
        return [glob_pattern(segment) for segment in segments]
    except FunctionError:  # a "/" inside a class: match whole paths only
        return None


def fileset(directory: Path, pattern: str, root: Path) -> list[str]:
    """The regular files below ``directory`` matching ``pattern``, relative to
    ``directory``; only inside ``root``."""
    root_real = os.path.realpath(root)
    cleaned = posixpath.normpath(posixpath.join(directory.as_posix(), pattern))
    start, segments = _split(cleaned)
    glob = "/".join(segments)
    walk = _Walk(glob_pattern(glob), _by_level(glob, segments))
    entry_units = _ENTRY_UNITS + len(glob) // 16  # matching costs the pattern's length
    if not is_inside(os.path.realpath(start), root_real):
        raise FunctionError(f"{pattern!r} is outside the scanned directory")
    found: list[str] = []
    pending: list[tuple[str, str, tuple[str, ...]]] = [(start, "", ())]
    while pending:
        current, relative, above = pending.pop()
        real = os.path.realpath(current)
        if real in above:  # a link back to a directory being walked
            continue
        try:
            with os.scandir(current) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            path = f"{relative}{entry.name}"
            spend(entry_units + len(path) // 16)
            try:
                is_dir, is_file = entry.is_dir(), entry.is_file()
            except OSError:
                is_dir = is_file = False
            if is_dir and walk.directory(path, len(above)):
                _check_inside(entry.path, path, root_real)
                pending.append((entry.path, f"{path}/", (*above, real)))
            elif not is_dir and walk.file(path):
                _check_inside(entry.path, path, root_real)
                if is_file:
                    found.append(posixpath.relpath(entry.path, directory))
                elif not os.path.exists(entry.path):
                    raise FunctionError(f"{path!r} is a broken symbolic link")
    return sorted(set(found))


def _check_inside(path: str, shown: str, root_real: str) -> None:
    if not is_inside(os.path.realpath(path), root_real):
        raise FunctionError(f"{shown!r} leads outside the scanned directory")
