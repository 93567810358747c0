"""Terraform's ``fileset(path, pattern)``: the regular files below ``path`` whose
path matches a glob, listed only inside the scanned tree.

The pattern is joined to ``path`` and cleaned, then matched as Terraform's glob
matches it: ``*`` and ``?`` within one path segment, ``**`` as a whole segment
for any number of directories, ``[abc]``/``[!abc]`` classes, ``{a,b}``
alternatives and ``\\`` escapes; the glob is an RE2 program, so matching takes
linear time whatever the pattern. The result is the matching paths relative to
``path``, with ``/`` separators, sorted. Directories are walked from the
pattern's literal leading segments; a symbolic link is followed while its
target lies inside ``root``. A start outside ``root``, an invalid pattern, or a
link leading out of ``root`` where the pattern could match through it has no
value (:class:`FunctionError`): the call is null, so that an input learns nothing
about the runner's files. Each directory entry visited is charged to the
evaluation budget.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.confined_files import is_inside
from engine.inputs.loaders.evaluation_budget import spend
from engine.inputs.loaders.hcl_functions import FunctionError, re2_options

_META = frozenset("*?[{\\")


def glob_pattern(pattern: str) -> Any:
    """The RE2 program whose ``fullmatch`` matches the ``/``-separated paths
    ``pattern`` matches."""
    out: list[str] = []
    braces = 0
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if char == "*":
            end = position
            while end < len(pattern) and pattern[end] == "*":
                end += 1
            whole = (position == 0 or pattern[position - 1] == "/") and (
                end == len(pattern) or pattern[end] == "/"
            )
            if end - position >= 2 and whole:
                out.append(".*" if end == len(pattern) else "(?:[^/]*/)*")
                end += 0 if end == len(pattern) else 1
            else:
                out.append("[^/]*")
            position = end
            continue
        if char == "?":
            out.append("[^/]")
        elif char == "[":
            klass, position = _character_class(pattern, position)
            out.append(klass)
            continue
        elif char == "{":
            braces += 1
            out.append("(?:")
        elif char == "," and braces:
            out.append("|")
        elif char == "}" and braces:
            braces -= 1
            out.append(")")
        elif char == "\\":
            if position + 1 == len(pattern):
                raise FunctionError(f"invalid pattern {pattern!r}: it ends with an escape")
            position += 1
            out.append(re.escape(pattern[position]))
        else:
            out.append(re.escape(char))
        position += 1
    if braces:
        raise FunctionError(f"invalid pattern {pattern!r}: a '{{' is not closed")
    import re2

    try:
        return re2.compile("(?s)" + "".join(out), re2_options())
    except re2.error as exc:
        raise FunctionError(f"invalid pattern {pattern!r}: {exc}") from None


def _character_class(pattern: str, start: int) -> tuple[str, int]:
    """The regular expression of the ``[...]`` at ``start`` and the position after it."""
    position = start + 1
    negated = position < len(pattern) and pattern[position] in "!^"
    position += negated
    first = position
    members: list[str] = []
    while position < len(pattern) and (pattern[position] != "]" or position == first):
        char = pattern[position]
        if char == "\\" and position + 1 < len(pattern):
            position += 1
            char = pattern[position]
        if (
            char == "-"
            and position > first
            and position + 1 < len(pattern)
            and pattern[position + 1] != "]"
        ):
            members.append("-")
        elif char != "/":  # a class never matches the separator
            members.append(re.escape(char))
        position += 1
    if position == len(pattern):
        raise FunctionError(f"invalid pattern {pattern!r}: a '[' is not closed")
    body = "".join(members)
    if not body and not negated:
        return "[^\\x00-\\x{10FFFF}]", position + 1  # matches nothing
    return (f"[^/{body}]" if negated else f"[{body}]"), position + 1


def _split(cleaned: str) -> tuple[str, list[str]]:
    """A cleaned pattern as its literal leading directory and the segments after it."""
    segments = cleaned.split("/")
    literal = next(
        (i for i, segment in enumerate(segments) if _META & set(segment)), len(segments) - 1
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
            spend(1)
            path = f"{relative}{entry.name}"
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
