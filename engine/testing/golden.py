"""Golden regression tests of whole scans: ``rego-engine test --golden DIR``.

A case is a directory holding ``inputs/`` (IaC files or States, scanned as
``rego-engine scan inputs`` would), optionally ``rules/``, and
``expected.json``: the results document the scan must produce. Without
``rules/`` the case runs the rules given with ``-d``, and without those the
shipped rule pack (``rego/rules/``). ``DIR`` is a case itself when it holds
``inputs/``; otherwise every directory below it that does is a case.

The scan runs from the case directory, so every path in the document is
relative to the case (absolute paths that still name the case are made
relative too): the same case gives the same document wherever it lives.
A mismatch is shown as a unified diff of the two documents; ``update``
rewrites ``expected.json``.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.atomic_files import write_atomically
from engine.core.paths import REGO_RULES_DIR, display_path
from engine.scanning.scanner import ScanOptions, scan
from engine.testing.rego_tests import TestRule
from engine.testing.runner import TestError, TestOutcome

EXPECTED = "expected.json"
INPUTS = "inputs"
RULES = "rules"
SHIPPED_RULES = REGO_RULES_DIR


@dataclass(frozen=True)
class GoldenCase:
    """One case directory and the name it is reported under."""

    directory: Path
    name: str

    @property
    def expected(self) -> Path:
        """The case's ``expected.json``."""
        return self.directory / EXPECTED


@dataclass
class GoldenOutcome:
    """The verdict on one case."""

    case: GoldenCase
    passed: bool = False
    error: str | None = None
    """The case could not be run (no inputs, no rules, no expected.json)."""
    messages: list[str] = field(default_factory=list)
    """The diff on a mismatch, or a note that expected.json was written."""
    duration_ns: int = 0


def find_cases(root: Path) -> list[GoldenCase]:
    """The cases at or below ``root``, sorted by path."""
    if (root / INPUTS).is_dir():
        return [GoldenCase(root, root.name)]
    cases = []
    for dirpath, dirnames, _ in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        here = Path(dirpath)
        if (here / INPUTS).is_dir():
            cases.append(GoldenCase(here, here.relative_to(root).as_posix()))
            dirnames[:] = []
    return sorted(cases, key=lambda c: c.name)


def case_rules(case: GoldenCase, default_rules: list[Path]) -> list[Path]:
    """The rule paths of a case: its ``rules/``, else ``default_rules``, else the
    shipped rule pack."""
    if (case.directory / RULES).is_dir():
        return [Path(RULES)]
    if default_rules:
        return [p.resolve() for p in default_rules]
    if SHIPPED_RULES.is_dir():
        return [SHIPPED_RULES]
    return []


def _relative_strings(value: Any, prefix: str) -> Any:
    if isinstance(value, str):
        return value[len(prefix) :] if value.startswith(prefix) else value
    if isinstance(value, list):
        return [_relative_strings(v, prefix) for v in value]
    if isinstance(value, dict):
        return {k: _relative_strings(v, prefix) for k, v in value.items()}
    return value


def scan_case(case: GoldenCase, rules: list[Path], options: ScanOptions) -> dict[str, Any]:
    """The results document of the case's scan, paths relative to the case."""
    with contextlib.chdir(case.directory):
        report = scan([Path(INPUTS)], rules, options)
        document = json.loads(report.to_json())
    return _relative_strings(document, str(case.directory.resolve()) + os.sep)


def document_text(document: dict[str, Any]) -> str:
    """How expected.json is written: indented, keys sorted, final newline."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def run_case(
    case: GoldenCase,
    default_rules: list[Path],
    options: ScanOptions | None = None,
    *,
    update: bool = False,
) -> GoldenOutcome:
    """Scan one case and compare (or, with ``update``, store) its results document."""
    outcome = GoldenOutcome(case)
    rules = case_rules(case, default_rules)
    if not rules:
        outcome.error = f"{case.directory}: no rules: add {RULES}/ to the case or pass -d"
        return outcome
    start = time.perf_counter_ns()
    actual = document_text(scan_case(case, rules, options or ScanOptions()))
    outcome.duration_ns = time.perf_counter_ns() - start
    shown = f"{case.name}/{EXPECTED}"
    if update:
        try:
            current = case.expected.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != actual:
            write_atomically(case.expected, actual.encode("utf-8"))
            outcome.messages.append(f"{shown} written")
        outcome.passed = True
        return outcome
    try:
        expected = document_text(json.loads(case.expected.read_text(encoding="utf-8")))
    except FileNotFoundError:
        outcome.error = f"{shown} does not exist (run with --update-snapshots to create it)"
        return outcome
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        outcome.error = f"{shown} is not readable JSON: {exc}"
        return outcome
    if expected == actual:
        outcome.passed = True
        return outcome
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=f"{shown} (expected)",
        tofile=f"{shown} (actual)",
    )
    outcome.messages.append("results differ:\n" + "".join(diff).rstrip("\n"))
    return outcome


def run_golden(
    roots: list[Path],
    default_rules: list[Path],
    options: ScanOptions | None = None,
    *,
    update: bool = False,
) -> list[GoldenOutcome]:
    """Every case below ``roots``, in order."""
    return [
        run_case(case, default_rules, options, update=update)
        for root in roots
        for case in find_cases(root)
    ]


def as_test_outcome(outcome: GoldenOutcome) -> TestOutcome:
    """A case's verdict as a test outcome, reported beside the Rego tests
    (package ``golden``, named by the case, located at its expected.json)."""
    test = TestRule(
        package="golden",
        name=outcome.case.name,
        query_ref=(),
        file=display_path(outcome.case.expected),
        row=1,
        col=1,
        skip=False,
        is_function=False,
        partial_object=False,
    )
    return TestOutcome(
        test,
        fail=not outcome.passed and outcome.error is None,
        error=TestError("golden_error", outcome.error) if outcome.error else None,
        duration_ns=outcome.duration_ns,
        output=list(outcome.messages),
    )
