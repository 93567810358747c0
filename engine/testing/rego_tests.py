"""Finding the test rules of Rego modules, the way ``opa test`` does.

A test is a top-level rule whose head reference reaches a name starting with
``test_`` (``todo_test_`` marks a skipped test). Each rule definition is its
own test: when a package defines the same test name more than once, the
second definition is reported as ``name#01``, the third as ``name#02`` and so
on, in file order (``opa test`` numbers them the same way). To make every
definition a separate Wasm entrypoint, the renamed definitions get a unique
identifier in the staged source (:func:`find_tests`).

The rules come from :mod:`engine.rules.rule_heads` (a light scan, not a parser).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.rules.rule_heads import (
    Token,
    module_outline,
    ref_string,
)

TEST_PREFIX = "test_"
SKIP_PREFIX = "todo_test_"
RENAMED_INFIX = "__rego_engine_dup"


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
    counts: dict[tuple[str | None, tuple[str, ...]], int] = {}
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
