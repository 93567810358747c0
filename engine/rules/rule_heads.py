"""Rule heads of Rego modules from a light scan, not a parser: the package and
every top-level rule definition (where it starts, what its head names).

Comments and strings are skipped, bracket depth is tracked, and a rule starts
with the first token of a line at depth zero; the compiler remains the judge
of syntax.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import NamedTuple

from engine.rules.rego_outline import _PACKAGE_REF, _TOKEN, package_path
from engine.rules.rego_version import detect_rego_version

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


_NOT_RULES = frozenset({"package", "import", "else"})


class Token(NamedTuple):
    """One token with its 1-based position and offset in the text."""

    kind: str
    text: str
    row: int
    col: int
    offset: int


@dataclass(frozen=True)
class RuleHead:
    """A top-level rule definition: where it starts and what its head names."""

    row: int
    col: int
    ref: tuple[str | None, ...]
    """The head reference; None for a term that is not a constant string."""
    ref_tokens: tuple[Token, ...]
    """The token of each ground leading term (identifier or string)."""
    is_function: bool
    is_set: bool
    """``contains``, or a v0 ``p[x]`` head without a value."""
    is_default: bool = False
    """A ``default`` definition (its value applies only when no other does)."""


def ref_string(parts: list[str]) -> str:
    """``["test_a", "x-y"]`` → ``test_a["x-y"]``: a reference as Rego writes it."""
    out = parts[0]
    for part in parts[1:]:
        out += f".{part}" if _IDENT.fullmatch(part) else f"[{json.dumps(part)}]"
    return out


_HEAD_TOKENS = 256
"""Tokens kept per statement: enough for any rule head."""


@dataclass(frozen=True)
class ModuleOutline:
    """A module's package and its top-level rule definitions."""

    package: str | None
    heads: list[RuleHead]


def _statements(text: str) -> list[list[Token]]:
    """Top-level statements (their first tokens): token runs starting at a
    line start at depth zero; comments and spaces are skipped."""
    statements: list[list[Token]] = []
    current: list[Token] = []
    depth = 0
    at_line_start = True
    row, line_start = 1, 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "space" or kind == "comment":
            continue
        if kind == "newline":
            row += 1
            line_start = match.end()
            if depth == 0:
                at_line_start = True
            continue
        tok_text = match.group()
        if at_line_start and depth == 0 and tok_text != "else":
            current = []
            statements.append(current)
        at_line_start = False
        if len(current) < _HEAD_TOKENS:
            start = match.start()
            current.append(Token(kind or "other", tok_text, row, start - line_start + 1, start))
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "raw" and "\n" in tok_text:
            row += tok_text.count("\n")
            line_start = match.start() + tok_text.rfind("\n") + 1
    return statements


def module_outline(text: str, rego_version: int | None = None) -> ModuleOutline:
    """The package and rule definitions of the module ``text`` (one scan)."""
    version = detect_rego_version(text) if rego_version is None else rego_version
    package: str | None = None
    heads: list[RuleHead] = []
    for statement in _statements(text):
        if statement[0].text == "package":
            if package is None:
                found = _PACKAGE_REF.match(text, statement[0].offset)
                package = package_path(found.group(1)) if found else None
            continue
        head = _head(statement, version)
        if head is not None:
            heads.append(head)
    return ModuleOutline(package, heads)


def _string_value(tok: Token) -> str | None:
    if tok.kind == "string":
        try:
            return json.loads(tok.text)
        except json.JSONDecodeError:
            return None
    if tok.kind == "raw":
        return tok.text[1:-1]
    return None


def _head(statement: list[Token], rego_version: int) -> RuleHead | None:
    first = statement[0]
    toks = statement[1:] if first.text == "default" else statement
    if not toks or toks[0].kind != "name" or toks[0].text in _NOT_RULES:
        return None
    ref: list[str | None] = [toks[0].text]
    ref_tokens = [toks[0]]
    ground = True
    i = 1
    while i < len(toks):
        tok = toks[i]
        if tok.text == "." and i + 1 < len(toks) and toks[i + 1].kind == "name":
            ref.append(toks[i + 1].text)
            if ground:
                ref_tokens.append(toks[i + 1])
            i += 2
        elif tok.text == "[":
            close = _matching(toks, i)
            inner = toks[i + 1 : close]
            value = _string_value(inner[0]) if len(inner) == 1 else None
            ref.append(value)
            if value is None:
                ground = False
            elif ground:
                ref_tokens.append(inner[0])
            i = close + 1
        else:
            break
    rest = toks[i:]
    is_function = bool(rest) and rest[0].text == "("
    after = rest[0].text if rest else ""
    # v0 ``p[x] { ... }`` / ``p[x] if { ... }`` are partial sets; in v1 a head
    # without a value (``p[x] if``) has the value true.
    bracketed = len(ref) > 1 and toks[i - 1].text == "]"
    is_set = after == "contains" or (rego_version == 0 and bracketed and after in ("{", "if", ""))
    return RuleHead(
        first.row,
        first.col,
        tuple(ref),
        tuple(ref_tokens),
        is_function,
        is_set,
        is_default=first.text == "default",
    )


def _matching(toks: list[Token], start: int) -> int:
    depth = 0
    for j in range(start, len(toks)):
        if toks[j].kind == "open":
            depth += 1
        elif toks[j].kind == "close":
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def rule_at(shape: ModuleOutline, row: int) -> RuleHead | None:
    """The rule definition that starts on line ``row`` or encloses it."""
    found = None
    for head in shape.heads:
        if head.row > row:
            break
        found = head
    return found
