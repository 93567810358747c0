"""Source lines around a finding, for ``scan --show-code``.

:func:`excerpt` is pure; :class:`CodeLines` reads the files a scan's inputs
were read from, and no other file, once each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.results.report import ScanReport

LINES_BEFORE = 1
LINES_AFTER = 3
TAB_WIDTH = 2


def excerpt(
    lines: list[str] | None, line: int, before: int = LINES_BEFORE, after: int = LINES_AFTER
) -> list[tuple[int, str]]:
    """(line number, text) of the lines from ``before`` lines above ``line`` (1-based) to
    ``after`` lines below it, within the file; tabs expanded; empty when ``line`` is not
    in ``lines`` (None: the file could not be read)."""
    if lines is None or not 1 <= line <= len(lines):
        return []
    first = max(1, line - before)
    last = min(len(lines), line + after)
    return [(n, lines[n - 1].expandtabs(TAB_WIDTH)) for n in range(first, last + 1)]


@dataclass
class CodeLines:
    """The lines of the files a scan read, read when first asked for."""

    files: frozenset[str]
    _read: dict[str, list[str] | None] = field(default_factory=dict)

    @classmethod
    def of(cls, report: ScanReport) -> CodeLines:
        """Lines of every file the report's inputs were read from."""
        return cls(frozenset(f for i in report.inputs for f in i.input.source_files))

    def lines(self, path: str) -> list[str] | None:
        """The lines of ``path`` when it is one of the scanned files and readable as
        UTF-8 text (undecodable bytes replaced), else None."""
        if path not in self.files:
            return None
        if path not in self._read:
            try:
                text = Path(path).read_bytes().decode("utf-8", errors="replace")
            except OSError:
                self._read[path] = None
            else:
                self._read[path] = text.splitlines()
        return self._read[path]
