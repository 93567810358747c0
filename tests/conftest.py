"""Shared pytest setup: the tests directory is importable (for ``oracle``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
