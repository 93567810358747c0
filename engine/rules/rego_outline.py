"""The outline of a Rego module: its package and the names of its top-level rules.

A light scan, not a parser (the OPA compiler remains the judge of syntax): it
skips comments and strings, tracks bracket depth, and reads the first name of
every statement that starts a line at depth zero. That is enough to know
which packages are rules (``deny``, ``allow``, ``policy``) and which optional
rules (``resources``, ``metadata``, ...) they define, in v0 and v1 syntax.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(
    r"""
    (?P<comment>\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<raw>`[^`]*`)
  | (?P<newline>\n)
  | (?P<open>[\[{(])
  | (?P<close>[\]})])
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<space>[ \t\r]+)
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)

_PACKAGE_REF = re.compile(
    r"""package\s+((?:[A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\])*)"""
)

_NOT_RULES = frozenset({"package", "import", "else"})


@dataclass(frozen=True)
class RegoOutline:
    """A module's package path (``rules.x.tf``, without ``data.``) and rule names."""

    package: str | None
    rules: frozenset[str]


def package_path(ref: str) -> str:
    """``rules["a-b"].c`` → ``rules.a-b.c`` (segments joined with dots)."""
    parts = re.findall(r'([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\]', ref)
    return ".".join(a or b for a, b in parts)


_MODULES_CACHED = 4096
"""Modules whose scans are kept: a scan reads each file several times."""


@lru_cache(maxsize=_MODULES_CACHED)
def string_literals(text: str) -> frozenset[str]:
    """Every string literal of the module (quoted and raw), decoded."""
    found = set()
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "raw":
            found.add(match.group()[1:-1])
        elif match.lastgroup == "string":
            try:
                found.add(json.loads(match.group()))
            except json.JSONDecodeError:
                continue
    return frozenset(found)


_TYPE_ARGUMENT = ("snyk", ".", "resources", "(")


@lru_cache(maxsize=_MODULES_CACHED)
def relation_name_candidates(text: str) -> frozenset[str]:
    """The string literals of the module that could reach a relation query:
    every literal except one written as the whole argument of
    ``snyk.resources("type")``, which the call consumes as a resource type."""
    tokens = [
        m for m in _TOKEN.finditer(text) if m.lastgroup not in ("space", "newline", "comment")
    ]
    found: set[str] = set()
    for i, match in enumerate(tokens):
        if match.lastgroup not in ("string", "raw"):
            continue
        before = tuple(t.group() for t in tokens[max(0, i - 4) : i])
        if before == _TYPE_ARGUMENT and i + 1 < len(tokens) and tokens[i + 1].group() == ")":
            continue
        found |= string_literals(match.group())
    return frozenset(found)


@lru_cache(maxsize=_MODULES_CACHED)
def mentions_input(text: str) -> bool:
    """Whether the module names ``input`` anywhere outside comments and strings."""
    return any(m.lastgroup == "name" and m.group() == "input" for m in _TOKEN.finditer(text))


@lru_cache(maxsize=_MODULES_CACHED)
def outline(text: str) -> RegoOutline:
    """The package and top-level rule names of the module ``text``."""
    package: str | None = None
    rules: set[str] = set()
    depth = 0
    at_line_start = True
    expect_default_name = False
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("comment", "space"):
            continue
        if kind == "newline":
            if depth == 0:
                at_line_start = True
            continue
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        starts_statement = at_line_start and depth == 0
        at_line_start = False
        if kind != "name":
            expect_default_name = False
            continue
        word = match.group()
        if expect_default_name:
            rules.add(word)
            expect_default_name = False
            continue
        if not starts_statement:
            continue
        if word == "package" and package is None:
            found = _PACKAGE_REF.match(text, match.start())
            if found:
                package = package_path(found.group(1))
        elif word == "default":
            expect_default_name = True
        elif word not in _NOT_RULES:
            rules.add(word)
    return RegoOutline(package, frozenset(rules))


@dataclass(frozen=True)
class Call:
    """A call written in a module: the dotted name called and its arguments' text."""

    name: str
    args: tuple[str, ...]


@lru_cache(maxsize=_MODULES_CACHED)
def _code_tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(kind, text) of every token but comments and white space (newlines included)."""
    return tuple(
        (m.lastgroup or "", m.group())
        for m in _TOKEN.finditer(text)
        if m.lastgroup not in ("comment", "space", "newline")
    )


def _dotted(tokens: tuple[tuple[str, str], ...], start: int) -> tuple[str, int]:
    """The dotted name (``a.b.c``) starting at ``tokens[start]`` and the index after it."""
    parts = [tokens[start][1]]
    i = start + 1
    while i + 1 < len(tokens) and tokens[i] == ("other", ".") and tokens[i + 1][0] == "name":
        parts.append(tokens[i + 1][1])
        i += 2
    return ".".join(parts), i


def calls(text: str) -> list[Call]:
    """Every call of a plain or dotted name in the module, with its top-level arguments."""
    tokens = _code_tokens(text)
    found: list[Call] = []
    i = 0
    while i < len(tokens):
        kind, _ = tokens[i]
        if kind != "name" or (i and tokens[i - 1] == ("other", ".")):
            i += 1
            continue
        name, after = _dotted(tokens, i)
        if after < len(tokens) and tokens[after] == ("open", "("):
            args: list[str] = []
            current: list[str] = []
            depth = 0
            for kind, value in tokens[after + 1 :]:
                if kind == "close" and depth == 0:
                    break
                if kind == "open":
                    depth += 1
                elif kind == "close":
                    depth -= 1
                if value == "," and depth == 0:
                    args.append(" ".join(current))
                    current = []
                else:
                    current.append(value)
            if current:
                args.append(" ".join(current))
            found.append(Call(name, tuple(args)))
        i = max(after, i + 1)
    return found


def name_counts(text: str) -> Counter[str]:
    """How often each name token (``a`` and ``b`` of ``a.b``) is written in the
    module's code, strings and comments aside."""
    return Counter(value for kind, value in _code_tokens(text) if kind == "name")


def data_references(text: str) -> set[str]:
    """Every dotted reference below ``data`` (``data.lib.x`` → ``lib.x``), imports included."""
    tokens = _code_tokens(text)
    refs = set()
    for i, (kind, value) in enumerate(tokens):
        if kind == "name" and value == "data" and not (i and tokens[i - 1] == ("other", ".")):
            name, _ = _dotted(tokens, i)
            if name != "data":
                refs.add(name.removeprefix("data."))
    return refs
