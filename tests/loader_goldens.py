"""Golden files of the loader suites: State documents and reference lists.

``REGO_ENGINE_UPDATE_GOLDEN=1`` makes the suites rewrite them from the
loaders' output (review the diff before committing).
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from engine.inputs.loaders.loaded import LoadedState

UPDATE = os.environ.get("REGO_ENGINE_UPDATE_GOLDEN") == "1"


def reference_rows(loaded: LoadedState) -> list[dict[str, Any]]:
    """The loader's resolved references as JSON rows."""
    return [{**dataclasses.asdict(r), "attribute": list(r.attribute)} for r in loaded.references]


def write_golden(path: Path, value: Any, *, sort_keys: bool = True) -> None:
    """A document indented, or a list of rows one per line."""
    if isinstance(value, list):
        rows = ",\n".join("  " + json.dumps(row) for row in value)
        path.write_text(f"[\n{rows}\n]\n" if value else "[]\n")
    else:
        path.write_text(json.dumps(value, indent=2, sort_keys=sort_keys) + "\n")
