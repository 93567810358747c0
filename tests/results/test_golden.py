"""Golden tests: each case's rules scanned over the shared States in tests/golden/states.

``expected.json`` holds the results document without the echoed inputs. To
regenerate after an intended change, run with ``REGO_ENGINE_UPDATE_GOLDEN=1``
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa

from engine.scanning.scanner import scan

GOLDEN = Path(__file__).parent.parent / "golden"
STATES = GOLDEN / "states"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "rules").is_dir())


def golden_view(case: str) -> dict[str, Any]:
    """The scan of ``case`` with each echoed State replaced by its file name."""
    report = scan(sorted(STATES.glob("*.json")), [GOLDEN / case / "rules"])
    doc = json.loads(report.to_json())
    for entry, scanned in zip(doc["results"], report.inputs, strict=True):
        entry["input"] = Path(scanned.input.path).name
    return doc


@needs_opa
@pytest.mark.parametrize("case", CASES)
def test_golden(case: str) -> None:
    expected_path = GOLDEN / case / "expected.json"
    actual = golden_view(case)
    if os.environ.get("REGO_ENGINE_UPDATE_GOLDEN"):
        expected_path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n")
    assert actual == json.loads(expected_path.read_text())
