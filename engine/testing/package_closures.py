"""Which Rego files each test package needs, so a large tree's tests compile
in parts and an edit recompiles only the parts whose files it touched.

A module needs the packages its ``data`` references can reach: ``data.a.b.c``
reaches package ``a.b`` (a prefix), ``a.b.c`` and every package below it; a
reference with a computed key (``data.a[x]``) reaches every package below
``a``, and ``data`` alone (or ``data[x]``) every package. A package needs its
own files and, transitively, what they reach. The text is scanned, not
parsed (comments and strings are left out): a construct the scan misreads
can only add a package, which costs compile time, never a wrong answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules.rego_outline import _TOKEN

_DATA_REF = re.compile(
    r"(?<![\w.\"-])data(?!\w)((?:\s*\.\s*[A-Za-z_]\w*|\[\s*\"(?:[^\"\\]|\\.)*\"\s*\])*)"
)
"""``data`` and its constant path; a computed key ends the path (all below it)."""
_PART = re.compile(r"\.\s*([A-Za-z_]\w*)|\[\s*(\"(?:[^\"\\]|\\.)*\")\s*\]")

PACKAGES_PER_PART = 24
"""Test packages compiled together into one module."""
_MAX_OVERLAP = 1.5
"""Parts are kept while their files add up to at most this many times the
tree's; where most parts need most files (a framework reading every rule
package), the tree compiles as one module."""


@dataclass(frozen=True)
class SourceModule:
    """One module: its display path, package (``a.b``) and text."""

    display: str
    package: str | None
    text: str


def _code(text: str) -> str:
    """``text`` without comments, and with strings emptied but those that are
    keys of a reference (``data["a-b"]``)."""
    out: list[str] = []
    significant = ["", ""]  # the last two tokens that are not spaces
    for match in _TOKEN.finditer(text):
        kind, token = match.lastgroup, match.group()
        if kind == "comment":
            continue
        if kind in ("string", "raw"):
            is_key = significant[-1] == "[" and (
                significant[-2] in ("]", ")") or significant[-2][:1].isidentifier()
            )
            if not is_key:
                token = '""'
        out.append(token)
        if kind not in ("space", "newline"):
            significant = [significant[-1], token]
    return "".join(out)


def _reached(text: str, packages: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for match in _DATA_REF.finditer(_code(text)):
        parts = []
        for part in _PART.finditer(match.group(1)):
            parts.append(part.group(1) or json.loads(part.group(2)))
        path = ".".join(parts)
        for package in packages:
            # data.a.b reaches package a (rule b), a.b itself and every package below
            if (
                not path
                or package == path
                or package.startswith(path + ".")
                or path.startswith(package + ".")
            ):
                found.add(package)
    return found


def package_needs(modules: Sequence[SourceModule]) -> dict[str, set[str]]:
    """Package → every package it needs (itself included), transitively."""
    packages = sorted({m.package for m in modules if m.package})
    direct: dict[str, set[str]] = {p: {p} for p in packages}
    for module in modules:
        if module.package:
            direct[module.package] |= _reached(module.text, packages)
    closed: dict[str, set[str]] = {}
    for package in packages:
        seen = {package}
        stack = [package]
        while stack:
            for needed in direct[stack.pop()]:
                if needed not in seen:
                    seen.add(needed)
                    stack.append(needed)
        closed[package] = seen
    return closed


def parts(
    modules: Sequence[SourceModule],
    test_packages: Sequence[str],
    library: Sequence[str] = (),
    size: int = PACKAGES_PER_PART,
) -> list[tuple[list[str], list[str]]]:
    """The test packages in sorted runs of ``size``, each with the display paths
    of the modules it needs (in ``modules`` order), and in every part what the
    ``library`` texts (compiled with each part) reach; modules no part needs go
    with the first. One part, with every module, when they fit in one or when
    the parts would overlap too much."""
    ordered = sorted(set(test_packages))
    if len(ordered) <= size:
        return [(ordered, [m.display for m in modules])]
    needs = package_needs(modules)
    packages = sorted(needs)
    shared: set[str] = set()
    for text in library:
        for package in _reached(text, packages):
            shared |= needs[package]
    groups: list[tuple[list[str], set[str]]] = []
    for start in range(0, len(ordered), size):
        group = ordered[start : start + size]
        wanted: set[str] = set(shared)
        for package in group:
            wanted |= needs.get(package, {package})
        groups.append((group, wanted))
    # a module no part needs still compiles (in the first part), so its errors are reported
    needed_somewhere = set().union(*(wanted for _, wanted in groups))
    first = groups[0][1]
    out = [
        (
            group,
            [
                m.display
                for m in modules
                if m.package in wanted or (wanted is first and m.package not in needed_somewhere)
            ],
        )
        for group, wanted in groups
    ]
    if sum(len(files) for _, files in out) > _MAX_OVERLAP * len(modules):
        return [(ordered, [m.display for m in modules])]  # parts would compile most files again
    return out
