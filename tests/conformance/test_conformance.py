"""OPA's compliance suite through the engine, one test per folder (v0 and v1).

Every case runs except those in ``skip_list.yaml`` (and OPA's own Wasm
exceptions); a folder's test fails naming each case that fails. The
per-folder counts are printed at the end of the run and must match
``docs/conformance.md`` (``make conformance`` rewrites it).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conformance_report import LAST_RUN, REPORT, UPDATE_ENV, SuiteRun, render_report
from conformance_runner import run_cases
from conformance_suite import (
    CASES_DIR,
    OPA_SECTION,
    ROOT,
    SkipList,
    SuiteUnavailable,
    load_cases,
    load_skip_list,
    module_dir,
)
from oracle import skip_without_oracle


def _locate() -> Path:
    try:
        return module_dir()
    except SuiteUnavailable as exc:
        if "not installed" in str(exc):
            skip_without_oracle(f"OPA's compliance suite needs Go: {exc}")
        raise


def _run_suite(in_module: str) -> SuiteRun:
    """Every case the skip list keeps, evaluated in ``in_module`` (``plain`` or
    ``instrumented``, the copy a scan runs)."""
    module = _locate()
    cases = load_cases(module / CASES_DIR)
    skips = load_skip_list(module)
    skipped: dict[int, tuple[str, str]] = {}
    run: list[int] = []
    for index, case in enumerate(cases):
        reason = skips.reason(case.note)
        if reason is None:
            run.append(index)
        else:
            skipped[index] = reason
    start = time.perf_counter()
    ran = run_cases([cases[i] for i in run], module=in_module)
    outcomes = dict(zip(run, ran, strict=True))
    return SuiteRun(cases, skipped, outcomes, time.perf_counter() - start)


@pytest.fixture(scope="session")
def suite() -> SuiteRun:
    result = _run_suite("plain")
    LAST_RUN.append(result)
    return result


@pytest.fixture(scope="session")
def instrumented_suite() -> SuiteRun:
    return _run_suite("instrumented")


def _groups() -> list[str]:
    try:
        module = module_dir()
    except SuiteUnavailable:
        return []
    return sorted({c.group for c in load_cases(module / CASES_DIR)})


GROUPS = _groups()


@pytest.mark.parametrize("group", GROUPS)
def test_every_case_of_the_folder_passes(suite: SuiteRun, group: str) -> None:
    failures = [
        f"{o.case.note} ({o.case.file}): {o.detail}"
        for o in suite.outcomes.values()
        if o.case.group == group and not o.passed
    ]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("group", GROUPS)
def test_every_case_of_the_folder_passes_in_the_module_a_scan_runs(
    instrumented_suite: SuiteRun, group: str
) -> None:
    failures = [
        f"{o.case.note} ({o.case.file}): {o.detail}"
        for o in instrumented_suite.outcomes.values()
        if o.case.group == group and not o.passed
    ]
    assert not failures, "\n".join(failures)


def test_the_conformance_page_is_current(suite: SuiteRun) -> None:
    page = render_report(suite)
    if os.environ.get(UPDATE_ENV):
        REPORT.write_text(page)
    assert REPORT.is_file() and REPORT.read_text() == page, (
        "docs/conformance.md is stale: run `make conformance`"
    )
    ran = len(suite.outcomes)
    passed = sum(o.passed for o in suite.outcomes.values())
    figure = f"{passed} of {ran} cases pass, {len(suite.skipped)} skipped"
    assert figure in (ROOT / "README.md").read_text(), f"README.md must say: {figure}"


def test_every_skip_entry_matches_a_case(suite: SuiteRun) -> None:
    skips = load_skip_list(_locate())
    notes = [c.note for c in suite.cases]
    unused = [
        pattern
        for pattern, (section, _) in skips.entries.items()
        if section != OPA_SECTION and not any(_matches(skips, pattern, n) for n in notes)
    ]
    assert not unused, f"skip entries that match no case: {unused}"


def _matches(skips: SkipList, pattern: str, note: str) -> bool:
    single = SkipList()
    section, reason = skips.entries[pattern]
    single.add(pattern, section, reason)
    return single.reason(note) is not None
