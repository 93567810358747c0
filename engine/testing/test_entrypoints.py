"""Wasm entrypoints for Rego tests: one generated rule per test.

``opa build -t wasm`` type-checks its entrypoints more strictly than
``opa test`` evaluates test rules (a test rule naming a library function as a
reference, for one, fails the build while ``opa test`` runs it). So the
tests are not entrypoints themselves: a generated module holds one rule
``tN := data.<package>.<test>`` per test, and those rules are the
entrypoints, the way ``rego-engine eval`` wraps its reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.rules.rule_heads import ref_string
from engine.rules.sources import RegoFile
from engine.testing.rego_tests import TestRule

WRAPPER_PACKAGE = "__rego_engine.tests"
WRAPPER_FILE = "<test entrypoints>"


@dataclass(frozen=True)
class TestEntrypoints:
    """The generated module and the entrypoint that evaluates each test."""

    __test__ = False  # not a pytest test class

    module: RegoFile
    by_test: dict[TestRule, str]


def wrap_tests(tests: Sequence[TestRule]) -> TestEntrypoints:
    """One rule per runnable test (not skipped, not a function), in order."""
    lines = [f"package {WRAPPER_PACKAGE}", ""]
    by_test: dict[TestRule, str] = {}
    prefix = WRAPPER_PACKAGE.replace(".", "/")
    for test in tests:
        if test.skip or test.is_function or test in by_test:
            continue
        name = f"t{len(by_test)}"
        target = ref_string(["data", *test.package.split("."), *test.query_ref])
        lines.append(f"{name} := {target}")
        by_test[test] = f"{prefix}/{name}"
    text = "\n".join(lines) + "\n"
    return TestEntrypoints(RegoFile(Path(WRAPPER_FILE), WRAPPER_FILE, text, 1), by_test)
