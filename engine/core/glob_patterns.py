"""Globs over ``/``-separated paths, in the two dialects the engine reads.

One translator turns a glob into an RE2 program (matching takes linear time
whatever the pattern), in one of two named dialects:

* :data:`TERRAFORM` — Terraform's ``fileset`` (doublestar): ``*`` and ``?``
  within one path segment, ``**`` as a whole segment for any number of
  directories (elsewhere it is ``*``), ``{a,b}`` alternatives, ``\\`` escapes.
* :data:`SKIP_PATH` — ``--skip-path``: ``*`` and ``?`` within one path
  segment, ``**`` anywhere crossing segments, ``**/`` also matching no
  directory; no alternatives or escapes (``{``, ``}``, ``,`` and ``\\`` are
  literal).

Both read ``[abc]``, ranges ``[a-z]`` and negated classes ``[!abc]`` /
``[^abc]``; a class never matches ``/``. An invalid Terraform glob (an
unclosed ``[`` or ``{``, a trailing escape) raises :class:`GlobError`; in
``--skip-path`` an unclosed ``[`` is a literal ``[``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any


class GlobError(ValueError):
    """A glob that cannot be read; the message says why."""


@dataclass(frozen=True)
class Dialect:
    """What a glob dialect reads beyond ``*``, ``?`` and classes."""

    name: str
    doublestar_anywhere: bool
    """``**`` crosses segments wherever it stands (else only as a whole segment)."""
    alternatives: bool
    """``{a,b}`` alternatives."""
    escapes: bool
    """``\\`` makes the next character literal."""
    strict: bool
    """An unclosed ``[`` is an error (else a literal ``[``)."""


TERRAFORM = Dialect(
    "terraform", doublestar_anywhere=False, alternatives=True, escapes=True, strict=True
)
SKIP_PATH = Dialect(
    "skip-path", doublestar_anywhere=True, alternatives=False, escapes=False, strict=False
)

META = frozenset("*?[{\\")
"""Characters that may make a segment a pattern rather than a literal name."""


def translate(glob: str, dialect: Dialect) -> str:
    """The regular expression (RE2 syntax) matching the paths ``glob`` matches."""
    out: list[str] = []
    braces = 0
    position = 0
    while position < len(glob):
        char = glob[position]
        if char == "*":
            position = _stars(glob, position, dialect, out)
            continue
        if char == "?":
            out.append("[^/]")
        elif char == "[":
            klass, position = _character_class(glob, position, dialect)
            out.append(klass)
            continue
        elif char == "{" and dialect.alternatives:
            braces += 1
            out.append("(?:")
        elif char == "," and braces:
            out.append("|")
        elif char == "}" and braces:
            braces -= 1
            out.append(")")
        elif char == "\\" and dialect.escapes:
            if position + 1 == len(glob):
                raise GlobError(f"invalid pattern {glob!r}: it ends with an escape")
            position += 1
            out.append(re.escape(glob[position]))
        else:
            out.append(re.escape(char))
        position += 1
    if braces:
        raise GlobError(f"invalid pattern {glob!r}: a '{{' is not closed")
    return "(?s)" + "".join(out)


def _stars(glob: str, position: int, dialect: Dialect, out: list[str]) -> int:
    """Translate the run of ``*`` at ``position`` into ``out``; the position after it."""
    end = position
    while end < len(glob) and glob[end] == "*":
        end += 1
    if end - position < 2:
        out.append("[^/]*")
        return end
    followed = end < len(glob) and glob[end] == "/"
    if dialect.doublestar_anywhere:
        out.append("(?:.*/)?" if followed else ".*")
        return end + 1 if followed else end
    whole = (position == 0 or glob[position - 1] == "/") and (end == len(glob) or followed)
    if not whole:
        out.append("[^/]*")
        return end
    if not followed:
        out.append(".*")
        return end
    out.append("(?:[^/]*/)*")
    return end + 1


def _character_class(glob: str, start: int, dialect: Dialect) -> tuple[str, int]:
    """The regular expression of the ``[...]`` at ``start`` and the position after it."""
    position = start + 1
    negated = position < len(glob) and glob[position] in "!^"
    position += negated
    first = position
    members: list[str] = []
    while position < len(glob) and (glob[position] != "]" or position == first):
        char = glob[position]
        if char == "\\" and dialect.escapes and position + 1 < len(glob):
            position += 1
            char = glob[position]
        elif (
            char == "-"
            and position > first
            and position + 1 < len(glob)
            and glob[position + 1] != "]"
        ):
            members.append("-")  # a range between the members either side
            position += 1
            continue
        if char != "/":  # a class never matches the separator
            members.append(re.escape(char))
        position += 1
    if position >= len(glob):
        if not dialect.strict:
            return re.escape("["), start + 1
        raise GlobError(f"invalid pattern {glob!r}: a '[' is not closed")
    body = "".join(members)
    if not body:
        return ("[^/]" if negated else "[^\\x00-\\x{10FFFF}]"), position + 1
    return (f"[^/{body}]" if negated else f"[{body}]"), position + 1


@functools.lru_cache(maxsize=256)
def compile_glob(glob: str, dialect: Dialect) -> Any:
    """The RE2 program whose ``fullmatch`` matches the paths ``glob`` matches;
    raises :class:`GlobError` when it is invalid."""
    import re2

    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(translate(glob, dialect), options)
    except re2.error as exc:
        raise GlobError(f"invalid pattern {glob!r}: {exc}") from None
