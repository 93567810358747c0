"""Finding the test rules of Rego modules, the way ``opa test`` does.

A test is a top-level rule whose head reference reaches a name starting with
``test_`` (``todo_test_`` marks a skipped test). Each rule definition is its
own test: when a package defines the same test name more than once, the
second definition is reported as ``name#01``, the third as ``name#02`` and so
on, in file order (``opa test`` numbers them the same way). To make every
definition a separate Wasm entrypoint, the renamed definitions get a unique
identifier in the staged source (:func:`find_tests`).

This is a light scan, not a parser (the compiler remains the judge of
syntax): comments and strings are skipped, bracket depth is tracked, and a
rule starts with the first token of a line at depth zero.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import NamedTuple

from engine.rules.rego_outline import _PACKAGE_REF, _TOKEN, package_path
from engine.rules.rego_version import detect_rego_version

TEST_PREFIX = "test_"
SKIP_PREFIX = "todo_test_"
RENAMED_INFIX = "__rego_engine_dup"

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


@dataclass(frozen=True)
class TestRule:
    """One test: its package, the name ``opa test`` reports, and where it is."""

    __test__ = False  # not a pytest test class

    package: str
    """``rules.x_test`` (without ``data.``)."""
    name: str
    """The reported name: ``test_a``, ``test_a#01``, ``group.test_b``."""
    query_ref: tuple[str, ...]
    """The rule reference below the package, as staged (renamed duplicates)."""
    file: str
    row: int
    col: int
    skip: bool
    is_function: bool
    partial_object: bool
    """The head has terms after the test name (``test_x[k] := v``): sub-results."""
    tail: tuple[str | None, ...] = ()
    """The head terms after the test name (None where not a constant string)."""

    @property
    def full_name(self) -> str:
        """``data.pkg.test_a``: what ``--run`` matches, as ``opa test`` does."""
        return "data." + ref_string([*self.package.split("."), *_reported_ref(self)])

    @property
    def entrypoint(self) -> str:
        """The ``opa build -e`` name of the rule."""
        return "/".join([*self.package.split("."), *self.query_ref])


def _reported_ref(test: TestRule) -> list[str]:
    return [*test.query_ref[:-1], test.name.rsplit(".", 1)[-1]] if test.query_ref else []


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
    is_set = after == "contains" or (
        rego_version == 0 and bracketed and after in ("{", "if", "")
    )
    return RuleHead(first.row, first.col, tuple(ref), tuple(ref_tokens), is_function, is_set)


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


def _test_name_index(ref: tuple[str | None, ...]) -> int | None:
    """Index of the first head term naming a test (``opa test``'s ``ruleName``)."""
    for i, part in enumerate(ref):
        if part is None:
            return None
        if part.startswith(TEST_PREFIX) or part.startswith(SKIP_PREFIX):
            return i
    return None


@dataclass(frozen=True)
class ModuleTests:
    """The package and tests of one module, and the text to compile in its place."""

    package: str | None
    tests: list[TestRule]
    staged_text: str


def find_tests(modules: list[tuple[str, str, int | None]]) -> list[ModuleTests]:
    """Tests of each ``(display path, text, rego version)`` module, duplicates
    numbered in module order; each module's text comes back with duplicates renamed."""
    counts: dict[tuple[str, tuple[str, ...]], int] = {}
    out = []
    for display, text, version in modules:
        shape = module_outline(text, version)
        package = shape.package
        tests: list[TestRule] = []
        edits: list[tuple[Token, str]] = []
        for head in shape.heads if package else []:
            at = _test_name_index(head.ref)
            if at is None:
                continue
            ref = tuple(p for p in head.ref[: at + 1] if p is not None)
            name = ref[-1]
            skip = name.startswith(SKIP_PREFIX)
            query = ref
            reported = name
            if not skip:
                seen = counts.get((package, ref), 0)
                counts[(package, ref)] = seen + 1
                if seen:
                    reported = f"{name}#{seen:02d}"
                    renamed = f"{name}{RENAMED_INFIX}{seen:02d}"
                    query = (*ref[:-1], renamed)
                    edits.append((head.ref_tokens[at], renamed))
            tests.append(
                TestRule(
                    package=package or "",
                    name=ref_string([*ref[:-1], reported]) if len(ref) > 1 else reported,
                    query_ref=query,
                    file=display,
                    row=head.row,
                    col=head.col,
                    skip=skip,
                    is_function=head.is_function,
                    partial_object=len(head.ref) > at + 1 and not head.is_set,
                    tail=head.ref[at + 1 :],
                )
            )
        out.append(ModuleTests(package, tests, _apply(text, edits)))
    return out


def _apply(text: str, edits: list[tuple[Token, str]]) -> str:
    for tok, new_name in sorted(edits, key=lambda e: -e[0].offset):
        replacement = new_name if tok.kind == "name" else json.dumps(new_name)
        text = text[: tok.offset] + replacement + text[tok.offset + len(tok.text) :]
    return text


def rule_at(shape: ModuleOutline, row: int) -> RuleHead | None:
    """The rule definition that starts on line ``row`` or encloses it."""
    found = None
    for head in shape.heads:
        if head.row > row:
            break
        found = head
    return found
