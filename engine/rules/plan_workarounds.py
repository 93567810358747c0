"""Rego rewritten before ``opa build -t wasm`` where OPA's Wasm plan differs
from its interpreter, into forms both evaluate alike.

Each rewrite keeps every line where it was (only columns inside a rewritten
line move), so errors and coverage still name the user's lines:

- A negation of a body (``not { ... }``, with ``future.keywords.not``)
  becomes ``count({1 | ...}) == 0``: the plan never clears the negation's
  success flag, so once the body held in one iteration of the enclosing
  rule it counted as holding in every later one.
- A negated reference into ``data`` with a key that is not a constant
  (``not data.pkgs[name]``, ``not data.pkgs[input.name]``) becomes the
  same count: the plan falls from the first matching package into the next
  alternative, so the negation always held.
- ``with`` modifiers mocking a function come after those replacing ``input``
  or ``data``: the plan pairs the remaining targets with the wrong modifiers
  otherwise (``with f as 1 with input.x as 2`` replaced ``data.x``).

- Where iteration over a set builds an ordered value, the set is iterated
  sorted, as the interpreter does (the Wasm runtime iterates sets in hash
  order): the second argument of ``concat``, and in array comprehensions the
  collection of ``some x in E`` and ``E[_]``, pass through
  :data:`ORDER_FUNCTION` (``sort`` for a set, the value itself otherwise).

The text is scanned, not parsed (:mod:`engine.rules.rego_outline`'s tokens);
``opa`` stays the judge of syntax.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from engine.rules.rego_outline import _TOKEN

_BLOCK_IMPORTS = re.compile(r"^[ \t]*import[ \t]+future\.keywords(?:\.not)?[ \t]*(?:#.*)?$", re.M)
_IMPORT = re.compile(
    r"^[ \t]*import[ \t]+((?:data|input)(?:\.[A-Za-z_]\w*)*)(?:[ \t]+as[ \t]+([A-Za-z_]\w*))?",
    re.M,
)
_DATA_VAR_KEY = re.compile(r"data(?:\s*\.\s*[A-Za-z_]\w*)*\s*\[\s*[^\s\"`]")
"""A reference into ``data`` whose first bracketed key is not a string constant."""


ORDER_PACKAGE = "__rego_engine.set_order"
ORDER_FUNCTION = f"data.{ORDER_PACKAGE}.ordered"
ORDER_MODULE = f"package {ORDER_PACKAGE}\n\nordered(x) := sort(x) if is_set(x)\n\nelse := x\n"
"""The module defining :data:`ORDER_FUNCTION`, compiled with sources that call it."""


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int


def _tokens(text: str) -> list[_Tok]:
    return [
        _Tok(m.lastgroup or "other", m.group(), m.start(), m.end())
        for m in _TOKEN.finditer(text)
        if m.lastgroup not in ("space", "comment")
    ]


def _expression_end(toks: list[_Tok], start: int) -> int:
    """Index of the first token after the expression starting at ``start``: a
    newline, ``;`` or ``with`` at depth zero, or the bracket closing its body."""
    depth = 0
    i = start
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "open":
            depth += 1
        elif tok.kind == "close":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (tok.kind == "newline" or tok.text in (";", "with")):
            return i
        i += 1
    return i


def _matching_close(toks: list[_Tok], open_index: int) -> int | None:
    depth = 0
    for i in range(open_index, len(toks)):
        if toks[i].kind == "open":
            depth += 1
        elif toks[i].kind == "close":
            depth -= 1
            if depth == 0:
                return i
    return None


def _is_keyword_position(toks: list[_Tok], i: int) -> bool:
    """``not`` as the keyword, not a field name (``x.not``) or a rule named ``not``."""
    return not (i > 0 and toks[i - 1].text == ".")


def _negation_edits(text: str, toks: list[_Tok]) -> list[tuple[int, int, str]]:
    blocks = bool(_BLOCK_IMPORTS.search(text))
    edits: list[tuple[int, int, str]] = []
    for i, tok in enumerate(toks):
        if tok.kind != "name" or tok.text != "not" or i + 1 >= len(toks):
            continue
        if not _is_keyword_position(toks, i):
            continue
        nxt = toks[i + 1]
        if blocks and nxt.text == "{":
            close = _matching_close(toks, i + 1)
            if close is None:
                continue
            edits.append((tok.start, nxt.end, "count({1 |"))
            edits.append((toks[close].start, toks[close].end, "}) == 0"))
        elif nxt.text == "data":
            end = _expression_end(toks, i + 1)
            last = toks[end - 1]
            if not _DATA_VAR_KEY.match(text, nxt.start, last.end):
                continue
            edits.append((tok.start, nxt.start, "count({1 | "))
            edits.append((last.end, last.end, "}) == 0"))
    return edits


def _data_aliases(text: str) -> dict[str, str]:
    """Import alias → the ``data``/``input`` reference it stands for."""
    aliases: dict[str, str] = {}
    for m in _IMPORT.finditer(text):
        ref = m.group(1)
        aliases[m.group(2) or ref.rsplit(".", 1)[-1]] = ref
    return aliases


def _target_ref(toks: list[_Tok], start: int, end: int) -> str:
    return "".join(t.text for t in toks[start:end])


def _with_edits(
    text: str, toks: list[_Tok], functions: Collection[str]
) -> list[tuple[int, int, str]]:
    aliases = _data_aliases(text)
    edits: list[tuple[int, int, str]] = []
    i = 0
    while i < len(toks):
        if toks[i].text != "with" or toks[i].kind != "name" or not _is_keyword_position(toks, i):
            i += 1
            continue
        # modifiers: with T as V [with T as V]... up to the expression's end
        mods: list[tuple[int, int, bool]] = []  # (first token, end token, is a function mock)
        j = i
        while j < len(toks) and toks[j].text == "with":
            as_at = j + 1
            while as_at < len(toks) and toks[as_at].text != "as":
                as_at += 1
            end = _expression_end(toks, as_at + 1)
            target = _target_ref(toks, j + 1, as_at)
            mods.append((j, end, _mocks_function(target, aliases, functions)))
            j = end
        i = max(j, i + 1)
        order = sorted(range(len(mods)), key=lambda k: mods[k][2])
        if order == list(range(len(mods))):
            continue
        first, last = toks[mods[0][0]].start, toks[mods[-1][1] - 1].end
        pieces = [text[toks[a].start : toks[b - 1].end] for a, b, _ in mods]
        edits.append((first, last, " ".join(pieces[k] for k in order)))
    return edits


def _mocks_function(target: str, aliases: dict[str, str], functions: Collection[str]) -> bool:
    """Whether a ``with`` target replaces a function or builtin (not ``input``/``data``)."""
    root, _, rest = target.partition(".")
    if root in aliases:
        target = aliases[root] + ("." + rest if rest else "")
        root = target.split(".", 1)[0]
    if root not in ("data", "input"):
        return True
    return target in functions


def _matching_open(toks: list[_Tok], close_index: int) -> int | None:
    depth = 0
    for i in range(close_index, -1, -1):
        if toks[i].kind == "close":
            depth += 1
        elif toks[i].kind == "open":
            depth -= 1
            if depth == 0:
                return i
    return None


def _ref_start(toks: list[_Tok], bracket: int) -> int | None:
    """Index of the first token of the reference ending just before ``bracket``
    (``a.b["c"]`` of ``a.b["c"][_]``); None when it is not a plain reference."""
    j = bracket - 1
    start = None
    while j >= 0:
        tok = toks[j]
        if tok.text == "]":
            opened = _matching_open(toks, j)
            if opened is None:
                return None
            j = opened - 1
            continue
        if tok.kind != "name" or tok.text in ("some", "in", "not", "with", "as", "if"):
            return None
        start = j
        if j > 0 and toks[j - 1].text == ".":
            j -= 2
            continue
        return start
    return start


def _array_comprehension_bodies(toks: list[_Tok]) -> list[tuple[int, int]]:
    """(first, end) token ranges of the bodies of array comprehensions."""
    stack: list[int] = []
    bodies: list[tuple[int, int]] = []
    opened_body: dict[int, int] = {}
    for i, tok in enumerate(toks):
        if tok.kind == "open":
            stack.append(i)
        elif tok.kind == "close":
            if stack:
                opened = stack.pop()
                if opened in opened_body:
                    bodies.append((opened_body.pop(opened), i))
        elif tok.text == "|" and stack and toks[stack[-1]].text == "[":
            opened_body.setdefault(stack[-1], i + 1)
    return bodies


def _order_edits(text: str, toks: list[_Tok]) -> list[tuple[int, int, str]]:
    wrap_open = f"{ORDER_FUNCTION}("
    edits: list[tuple[int, int, str]] = []
    wrapped: set[tuple[int, int]] = set()

    def wrap(first: int, last: int) -> None:
        if (first, last) in wrapped or first > last:
            return
        wrapped.add((first, last))
        edits.append((toks[first].start, toks[first].start, wrap_open))
        edits.append((toks[last].end, toks[last].end, ")"))

    for i, tok in enumerate(toks):
        if tok.text != "concat" or tok.kind != "name" or i + 1 >= len(toks):
            continue
        if (i > 0 and toks[i - 1].text == ".") or toks[i + 1].text != "(":
            continue
        close = _matching_close(toks, i + 1)
        if close is None:
            continue
        commas = []  # the argument list's own commas
        depth = 0
        for j in range(i + 2, close):
            if toks[j].kind == "open":
                depth += 1
            elif toks[j].kind == "close":
                depth -= 1
            elif depth == 0 and toks[j].text == ",":
                commas.append(j)
        if commas:  # the second argument: up to the next comma (an output) or the end
            first, last = commas[0] + 1, (commas[1] if len(commas) > 1 else close) - 1
            while first < last and toks[first].kind == "newline":
                first += 1
            while last > first and toks[last].kind == "newline":
                last -= 1
            wrap(first, last)
    for first, end in _array_comprehension_bodies(toks):
        for i in range(first, end):
            tok = toks[i]
            if (
                tok.text == "some"
                and i + 3 < end
                and toks[i + 1].kind == "name"
                and toks[i + 2].text == "in"
            ):
                stop = min(_expression_end(toks, i + 3), end)
                if stop > i + 3:
                    wrap(i + 3, stop - 1)
            elif (
                tok.text == "["
                and i + 2 < end
                and toks[i + 1].text == "_"
                and toks[i + 2].text == "]"
            ):
                start = _ref_start(toks, i)
                if start is not None and start >= first:
                    wrap(start, i - 1)
    return edits


def rewrite_module(text: str, functions: Collection[str] = ()) -> str:
    """``text`` with the rewrites above; ``functions`` holds the ``data.pkg.f``
    references of every function the compiled modules define. A text calling
    :data:`ORDER_FUNCTION` needs :data:`ORDER_MODULE` beside it."""
    if not any(word in text for word in ("not", "with", "concat", "|")):
        return text
    toks = _tokens(text)
    edits = (
        _negation_edits(text, toks) + _with_edits(text, toks, functions) + _order_edits(text, toks)
    )
    if not edits:
        return text
    out = text
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        out = out[:start] + replacement + out[end:]
    return out
