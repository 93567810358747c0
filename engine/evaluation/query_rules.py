"""Rego queries compiled as generated rules that collect their bindings.

``eval`` of a data reference compiles ``result := <ref>``; a query such as
``data.test.p[i].s = x`` or ``uri.parse(u, x)`` has bindings instead. Each
query becomes a rule ``bindings contains {"i": i, "x": x} if { <query> }``
in a package of its own, so any number of queries compile into one module
and each is one entrypoint. Evaluating the entrypoint gives the set of
binding objects, as ``opa eval`` reports a query's result set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.rules.sources import RegoFile
from engine.wasm.host import PolicyInstance
from engine.wasm.values import Set

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*(\s*\()?")

_NOT_VARIABLES = frozenset(
    {
        "data",
        "input",
        "true",
        "false",
        "null",
        "some",
        "not",
        "with",
        "as",
        "in",
        "every",
        "if",
        "contains",
        "else",
        "default",
        "_",
    }
)


class QueryError(ValueError):
    """A query the generated rule cannot hold (it has no bindings form)."""


def blank_literals(text: str) -> str:
    """``text`` with the inside of strings, raw strings, template strings and
    comments replaced by spaces (same length), so only code remains."""
    out = list(text)
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char == "#":
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
        elif char == "`" or text.startswith("$`", pos):
            end = text.find("`", pos + (2 if char == "$" else 1)) + 1 or len(text)
        elif char == '"' or text.startswith('$"', pos):
            end = _string_end(text, pos + (2 if char == "$" else 1), template=char == "$")
        else:
            pos += 1
            continue
        for i in range(pos, end):
            if out[i] != "\n":
                out[i] = " "
        pos = end
    return "".join(out)


def _string_end(text: str, pos: int, *, template: bool) -> int:
    """The position after the closing quote of a string whose text starts at ``pos``."""
    depth = 0
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            pos += 2
            continue
        if template and char == "{":
            depth += 1
        elif template and char == "}" and depth:
            depth -= 1
        elif char == '"' and depth:
            pos = _string_end(text, pos + 1, template=False) - 1
        elif char == '"':
            return pos + 1
        pos += 1
    return len(text)


def query_variables(query: str) -> list[str]:
    """The variables a query binds, in order of first appearance.

    Names inside strings, template strings and comprehensions, field names
    after ``.``, called functions, keywords, ``data``/``input`` and ``_`` are
    not variables.
    """
    code = _without_comprehensions(blank_literals(query))
    found: dict[str, None] = {}
    for match in _NAME.finditer(code):
        start = match.start()
        if match.group(1) or (start and code[start - 1] == "."):
            continue  # a function call, or a field name after ``x.``
        head = re.split(r"\s*\.", match.group())[0]
        if head not in _NOT_VARIABLES:
            found.setdefault(head, None)
    return list(found)


def _without_comprehensions(code: str) -> str:
    """``code`` with every bracket holding a top-level ``|`` blanked."""
    out = list(code)
    stack: list[tuple[int, bool]] = []
    for pos, char in enumerate(code):
        if char in "[{(":
            stack.append((pos, False))
        elif char == "|" and stack:
            stack[-1] = (stack[-1][0], True)
        elif char in "]})" and stack:
            start, bar = stack.pop()
            if bar:
                out[start : pos + 1] = " " * (pos + 1 - start)
    return "".join(out)


@dataclass(frozen=True)
class QueryRule:
    """One query as a generated rule: its module and the entrypoint to evaluate."""

    module: RegoFile
    entrypoint: str
    variables: tuple[str, ...]


def query_rule(query: str, package: str, rego_version: int, display: str) -> QueryRule:
    """The generated rule collecting the bindings of ``query`` in ``package``."""
    if "\n" in query.strip() and "{" not in query:
        query = "; ".join(line for line in query.splitlines() if line.strip())
    variables = tuple(query_variables(query))
    head = "{" + ", ".join(f'"{name}": {name}' for name in variables) + "}"
    if rego_version == 0:
        rule = f"bindings[{head}] {{\n{query}\n}}"
    else:
        rule = f"bindings contains {head} if {{\n{query}\n}}"
    text = f"package {package}\n\n{rule}\n"
    entrypoint = package.replace(".", "/") + "/bindings"
    return QueryRule(RegoFile(Path(display), display, text, rego_version), entrypoint, variables)


def query_bindings(
    instance: PolicyInstance,
    rule: QueryRule,
    *,
    input_text: bytes | None = None,
    rego_input: bool = False,
    data_text: bytes | None = None,
) -> list[dict[str, Any]]:
    """The binding objects of ``rule`` over one input and data document (Rego order).

    ``data_text`` (JSON) replaces the module's data document for this evaluation;
    ``rego_input`` reads ``input_text`` as Rego value text instead of JSON.
    """
    resident = [data_text] if data_text is not None else []
    addrs = instance.set_input(input_text, resident=resident, rego_syntax=rego_input)
    if addrs:
        instance.set_data(addrs[0])
    results = instance.evaluate(rule.entrypoint)
    if not results:
        return []
    found = results[0]
    if not isinstance(found, Set):
        raise QueryError(f"{rule.entrypoint} did not produce a set of bindings")
    return [dict(b) for b in found]
