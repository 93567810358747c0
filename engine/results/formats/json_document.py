"""The results document (``--format json``): the report's own JSON form."""

from __future__ import annotations

from engine.results.report import ScanReport


def render(report: ScanReport) -> bytes:
    """The results document, as :meth:`ScanReport.to_json` writes it, with a final newline."""
    return report.to_json() + b"\n"
