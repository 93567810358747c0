"""Golden files of the loader suites: State documents and reference lists.

``REGO_ENGINE_UPDATE_GOLDEN=1`` makes the suites rewrite them from the
loaders' output (review the diff before committing). ``snyk_expected.json``
(the State snyk's loader gives for a case, derived by hand) is never
rewritten: :func:`write_golden` refuses it.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from engine.inputs.loaders.loaded import LoadedState

UPDATE = os.environ.get("REGO_ENGINE_UPDATE_GOLDEN") == "1"
SNYK_EXPECTED = "snyk_expected.json"
"""A case's State as snyk's loader gives it: written by hand, never generated."""


def reference_rows(loaded: LoadedState) -> list[dict[str, Any]]:
    """The loader's resolved references as JSON rows."""
    return [{**dataclasses.asdict(r), "attribute": list(r.attribute)} for r in loaded.references]


def write_golden(path: Path, value: Any, *, sort_keys: bool = True) -> None:
    """A document indented, or a list of rows one per line (never ``snyk_expected.json``)."""
    if path.name == SNYK_EXPECTED:
        raise ValueError(f"{path}: snyk's expected State is written by hand, not generated")
    if isinstance(value, list):
        rows = ",\n".join("  " + json.dumps(row) for row in value)
        path.write_text(f"[\n{rows}\n]\n" if value else "[]\n")
    else:
        path.write_text(json.dumps(value, indent=2, sort_keys=sort_keys) + "\n")
