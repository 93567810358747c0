"""The conformance report: per-folder counts, the Markdown page, the terminal summary."""

from __future__ import annotations

import collections
from dataclasses import dataclass

from conformance_runner import Outcome
from conformance_suite import ROOT, SKIP_FILE, Case

REPORT = ROOT / "docs" / "conformance.md"
UPDATE_ENV = "REGO_ENGINE_UPDATE_CONFORMANCE"
"""Set (to anything) to let the run rewrite ``docs/conformance.md``."""


@dataclass
class SuiteRun:
    """Every case with its outcome, or the reason it was skipped."""

    cases: list[Case]
    skipped: dict[int, tuple[str, str]]  # index in cases → (section, reason)
    outcomes: dict[int, Outcome]  # index in cases → outcome
    seconds: float


LAST_RUN: list[SuiteRun] = []
"""The run of this session, for the terminal summary."""


def per_folder(run: SuiteRun) -> dict[str, tuple[int, int, int]]:
    """``v1/folder`` → (cases, skipped, passed)."""
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for index, case in enumerate(run.cases):
        row = counts[case.group]
        row[0] += 1
        if index in run.skipped:
            row[1] += 1
        elif run.outcomes[index].passed:
            row[2] += 1
    return {group: (r[0], r[1], r[2]) for group, r in sorted(counts.items())}


def render_report(run: SuiteRun) -> str:
    """The Markdown page ``docs/conformance.md``: totals, skips by reason, per folder."""
    rows = per_folder(run)
    total = len(run.cases)
    skipped = len(run.skipped)
    passed = sum(r[2] for r in rows.values())
    by_section = collections.Counter(section for section, _ in run.skipped.values())
    lines = [
        "# Rego conformance",
        "",
        "OPA's compliance suite (`v1/test/cases/testdata/{v0,v1}` of the OPA module",
        "that `wasm/go.mod` pins), run through the engine by `make conformance`",
        "(and by `make test`). Cases skipped, each with its reason:",
        f"[`tests/conformance/skip_list.yaml`](../{SKIP_FILE.relative_to(ROOT)}) and",
        "OPA's own Wasm exceptions.",
        "",
        f"**{passed} of {total - skipped} cases pass** ({total} in the suite, {skipped} skipped).",
        "",
        "| skipped because | cases |",
        "|---|---:|",
        *(f"| {section} | {n} |" for section, n in sorted(by_section.items())),
        "",
        "| folder | cases | skipped | passed |",
        "|---|---:|---:|---:|",
        *(f"| {g} | {n} | {s} | {p} |" for g, (n, s, p) in rows.items()),
        "",
    ]
    return "\n".join(lines)


def summary_lines(run: SuiteRun) -> list[str]:
    """The terminal report: one line per folder, then totals by outcome and skip reason."""
    rows = per_folder(run)
    width = max(len(g) for g in rows)
    lines = [
        f"{g:<{width}}  {p:>4}/{n - s:<4} passed  ({s} skipped)" for g, (n, s, p) in rows.items()
    ]
    failed = sum(1 for o in run.outcomes.values() if not o.passed)
    passed = len(run.outcomes) - failed
    by_reason = collections.Counter(section for section, _ in run.skipped.values())
    lines.append(
        f"conformance: {len(run.cases)} cases, {len(run.skipped)} skipped, "
        f"{passed} passed, {failed} failed in {run.seconds:.1f}s"
    )
    lines += [f"  skipped ({section}): {n}" for section, n in sorted(by_reason.items())]
    return lines
