"""The terminal screenshot in the docs: the ``table`` output of a real scan of
the examples with the shipped rule pack, exported as SVG by rich. ``make screenshot`` rewrites
``docs/scan-table.svg``; ``tests/cli/test_table_screenshot.py`` keeps it current."""

from __future__ import annotations

import os
from pathlib import Path

from engine.results.formats.table import render_svg
from engine.rules.rule_pack import shipped_rule_files
from engine.scanning.scanner import scan

REPO = Path(__file__).resolve().parent.parent
SCREENSHOT = REPO / "docs" / "scan-table.svg"
COMMAND = "rego-engine scan examples/ --format table"
WIDTH = 132


def screenshot() -> str:
    """The SVG of ``COMMAND``'s table, scanned from the repository root as the README shows it."""
    report = scan([Path("examples")], shipped_rule_files())
    return render_svg(report, width=WIDTH, title=COMMAND)


if __name__ == "__main__":
    os.chdir(REPO)
    SCREENSHOT.write_text(screenshot(), encoding="utf-8")
    print(f"wrote {SCREENSHOT.relative_to(REPO)}")
