"""Reporting test outcomes the way ``opa test`` does (pretty and JSON)."""

from __future__ import annotations

import base64
import json
from typing import Any

from engine.rules.rule_heads import ref_string
from engine.testing.rego_tests import TestRule
from engine.testing.runner import TestOutcome, TestRun

RULE = "-" * 80


def go_duration(ns: int) -> str:
    """A duration as Go's ``time.Duration.String`` writes it (``83.634µs``)."""
    if ns == 0:
        return "0s"
    if ns < 1_000:
        return f"{ns}ns"
    for unit, size in (("µs", 1_000), ("ms", 1_000_000)):
        if ns < size * 1_000:
            return _trim(ns / size, unit)
    seconds = ns / 1_000_000_000
    if seconds < 60:
        return _trim(seconds, "s")
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}m{_trim(rest, 's')}"


def _trim(value: float, unit: str) -> str:
    text = f"{value:.9f}".rstrip("0").rstrip(".")
    return f"{text}{unit}"


def package_ref(package: str) -> str:
    """``rules.x`` → ``data.rules.x`` (special segments bracketed)."""
    return ref_string(["data", *package.split(".")])


def _package_label(test: TestRule) -> str:
    """``data.pkg`` for a Rego test; golden cases keep their plain label."""
    return package_ref(test.package) if test.query_ref else test.package


def outcome_json(outcome: TestOutcome) -> dict[str, Any]:
    """One entry of ``opa test --format json``."""
    test = outcome.test
    doc: dict[str, Any] = {
        "location": {"file": test.file, "row": test.row, "col": test.col},
        "package": _package_label(test),
        "name": test.name,
    }
    if outcome.fail:
        doc["fail"] = True
    if outcome.error is not None:
        doc["error"] = outcome.error.to_json()
    if outcome.skip:
        doc["skip"] = True
    doc["duration"] = outcome.duration_ns
    if outcome.sub_results:
        doc["sub_results"] = outcome.sub_results
    if outcome.output or outcome.printed:
        # opa reports print output as bytes, which Go's JSON writes as base64.
        text = "\n".join([*outcome.output, *outcome.printed]) + "\n"
        doc["output"] = base64.b64encode(text.encode()).decode()
    return doc


def to_json(run: TestRun) -> str:
    """The JSON report: an array with one object per test, in source order."""
    return json.dumps([outcome_json(o) for o in run.outcomes], indent=2, ensure_ascii=False)


def _title(outcome: TestOutcome) -> str:
    name = f"{_package_label(outcome.test)}.{outcome.test.name}"
    if outcome.skip:
        return f"{name}: SKIPPED"
    return f"{name}: {outcome.verdict} ({go_duration(outcome.duration_ns)})"


def _sub_lines(subs: dict[str, Any], depth: int = 1) -> list[str]:
    lines = []
    for name in sorted(subs):
        entry = subs[name]
        lines.append(f"{'  ' * depth}{name}: {'FAIL' if entry.get('fail') else 'PASS'}")
        lines += _sub_lines(entry.get("sub_results", {}), depth + 1)
    return lines


def _details(outcome: TestOutcome) -> list[str]:
    lines: list[str] = []
    if outcome.error is not None:
        lines += ["  " + line for line in str(outcome.error).splitlines()]
    if outcome.sub_results:
        lines += _sub_lines(outcome.sub_results)
    for message in outcome.output:
        lines += ["  " + line for line in message.splitlines()]
    if outcome.printed:  # as opa test shows print output: set off by blank lines
        lines += ["", *("  " + line for line in outcome.printed), ""]
    return lines


def outcome_lines(outcome: TestOutcome) -> list[str]:
    """A test's verdict line and its details (error, sub-results, output)."""
    return [_title(outcome), *_details(outcome)]


def pretty(run: TestRun, *, verbose: bool = False) -> str:
    """The text report: failing tests (every test with ``verbose``) and a summary."""
    out: list[str] = []
    shown = [o for o in run.outcomes if verbose or not o.passed or o.output]
    for outcome in shown:
        out.append(f"{outcome.test.file}:{outcome.test.row}:")
        out += outcome_lines(outcome)
    failures = [o for o in run.outcomes if o.fail]
    if verbose and failures:
        out += [RULE, "FAILURES", RULE]
        for outcome in failures:
            out += [*outcome_lines(outcome), ""]
    if not run.outcomes:
        return "\n".join(out) + ("\n" if out else "")
    if shown:
        out.append(RULE)
    counts = {"PASS": 0, "FAIL": 0, "SKIPPED": 0, "ERROR": 0}
    for outcome in run.outcomes:
        if outcome.sub_results and not outcome.error:
            leaves = _leaf_failures(outcome.sub_results)
            counts["FAIL"] += sum(leaves)
            counts["PASS"] += len(leaves) - sum(leaves)
        else:
            counts[outcome.verdict] += 1
    total = sum(counts.values())
    out += [f"{word}: {n}/{total}" for word, n in counts.items() if n]
    return "\n".join(out) + "\n"


def _leaf_failures(subs: dict[str, Any]) -> list[bool]:
    """Whether each innermost case of a partial-object test failed: ``opa
    test`` counts every case in its summary, not the test."""
    found: list[bool] = []
    for entry in subs.values():
        inner = entry.get("sub_results")
        found += _leaf_failures(inner) if inner else [bool(entry.get("fail"))]
    return found
