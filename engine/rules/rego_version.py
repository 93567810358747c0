"""Detecting whether a Rego file is written in v0 or v1 syntax.

OPA 1.x parses every file as v1 unless told otherwise; a v0 file must be
marked in the bundle manifest (``file_rego_versions``). The decision per file
follows OPA's: a file is v1 unless it cannot be v1.

* ``import rego.v1`` (or ``rego.v2``) → v1;
* a rule body opened with ``{`` straight after the rule head (``deny[x] {``,
  ``allow {``, ``f(x) = y {``) → v0, since v1 requires ``if`` there;
* otherwise v1. ``import future.keywords...`` decides nothing: v1 accepts it
  (as a no-op for ``if``/``contains``/``in``/``every``, and to enable ``and``,
  ``or`` and ``not { ... }``), so a file that parses as v1 is v1 whatever it
  imports, as ``opa`` reads it.

A file these rules call v1 that does not parse as v1 is compiled once more
as v0 (``opa``'s ``--v0-compatible``) before its parse error is reported
(:func:`engine.rules.compiler.compile_policy`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<raw>`[^`]*`)
  | (?P<assign>:=)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9][0-9.eE+-]*)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)

_KEYWORDS = frozenset(
    {
        "if",
        "else",
        "contains",
        "in",
        "some",
        "every",
        "not",
        "with",
        "as",
        "default",
        "import",
        "package",
    }
)
_OPEN = {"{": "}", "[": "]", "(": ")"}
_CLOSE = frozenset(_OPEN.values())


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("ws", "comment") or kind is None:
            continue
        yield kind, match.group()


def _import_path(tokens: list[tuple[str, str]], i: int) -> str:
    parts: list[str] = []
    for kind, tok in tokens[i + 1 :]:
        if kind == "ident" or tok == ".":
            parts.append(tok)
        else:
            break
    return "".join(parts)


def detect_rego_version(text: str) -> int:
    """0 or 1: the Rego syntax version ``text`` is written in."""
    tokens = list(_tokens(text))
    depth = 0
    v0_body = False
    for i, (_kind, tok) in enumerate(tokens):
        if depth == 0 and tok == "import":
            path = _import_path(tokens, i)
            if path in ("rego.v1", "rego.v2"):
                return 1
        if depth == 0 and tok == "{" and i > 0:
            pkind, ptok = tokens[i - 1]
            if ptok in ("]", ")") or (
                pkind in ("ident", "number", "string", "raw") and ptok not in _KEYWORDS
            ):
                v0_body = True
        if tok in _OPEN:
            depth += 1
        elif tok in _CLOSE and depth > 0:
            depth -= 1
    return 0 if v0_body else 1
