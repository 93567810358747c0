"""The default rename threshold, apart from the change set so that ``diff --help``
can show it without importing the differ."""

from __future__ import annotations

RENAME_THRESHOLD = 0.7
"""Default similarity from which a removed and an inserted resource are a rename."""
