"""Prints the per-folder conformance counts at the end of a run that ran the suite."""

from __future__ import annotations

import pytest
from conformance_report import LAST_RUN, summary_lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per folder of OPA's compliance suite, then the totals."""
    if not LAST_RUN:
        return
    terminalreporter.section("OPA compliance suite")
    for line in summary_lines(LAST_RUN[-1]):
        terminalreporter.write_line(line)
