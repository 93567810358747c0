"""Loader cases whose State must match what snyk's policy engine loaders give.

A case under ``tests/loaders/<format>/`` that holds ``snyk_expected.json``
is loaded through discovery (its ``expected*.json`` files skipped) and each
resource of that file is compared with ours on key, id, resource type,
attributes, tags and the ``meta`` keys snyk writes (``terraform``, ``tfplan``,
``tfstate`` and ``arm`` also when snyk leaves them out). ``snyk_expected.json`` is
derived by hand from snyk's loader code and goldens; no update mode writes it.
Its ``our_keys`` maps a snyk key to ours, and its ``our_attributes`` gives our
value of an attribute (by snyk's key and attribute name), where this engine
deliberately differs (each with ``why``; the differences are listed in
docs/inputs.md). The committed golden State of each such case is held to the
same equalities, and a golden update that breaks one is refused.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from loader_goldens import (
    SNYK_EXPECTED,
    SnykParityRefused,
    check_snyk_parity,
    snyk_differences,
    write_golden,
)

from engine.inputs.discovery import LoadOptions, load_inputs

LOADERS = Path(__file__).parent.parent / "loaders"
CASES = sorted(p.parent for p in LOADERS.glob(f"*/*/{SNYK_EXPECTED}"))


def our_resources(case: Path) -> dict[str, dict[str, Any]]:
    """Every resource our loaders give for the case, by key."""
    loaded = load_inputs([case], LoadOptions(skip_paths=("expected*.json", SNYK_EXPECTED)))
    assert not loaded.problems, loaded.problems
    assert loaded.inputs
    found: dict[str, dict[str, Any]] = {}
    for item in loaded.inputs:
        for by_key in item.state.document["resources"].values():
            found.update(by_key)
    return found


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_matches_snyk(case: Path) -> None:
    expected = json.loads((case / SNYK_EXPECTED).read_text())
    assert snyk_differences(expected, our_resources(case)) == []


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_keeps_the_equalities(case: Path) -> None:
    """The committed golden State, not only the loader's output, matches snyk's."""
    check_snyk_parity(case, golden_state(case))


def golden_state(case: Path) -> dict[str, Any]:
    golden = json.loads((case / "expected.json").read_text())
    return golden.get("state", golden)  # tf_hcl goldens wrap it


def test_a_corrupted_golden_is_refused(tmp_path: Path) -> None:
    case = LOADERS / "arm" / "snyk_parity"
    shutil.copy(case / SNYK_EXPECTED, tmp_path / SNYK_EXPECTED)
    state = golden_state(case)
    resource = next(iter(next(iter(state["resources"].values())).values()))
    resource["attributes"]["corrupted"] = True
    with pytest.raises(SnykParityRefused, match="attribute corrupted differs"):
        write_golden(tmp_path / "expected.json", state)
    assert not (tmp_path / "expected.json").exists()
    del resource["attributes"]["corrupted"]
    write_golden(tmp_path / "expected.json", state)
    assert json.loads((tmp_path / "expected.json").read_text()) == state


def test_there_are_parity_cases() -> None:
    assert {case.parent.name for case in CASES} >= {"arm", "k8s", "tf_hcl", "tf_plan", "tf_state"}


def test_update_cannot_overwrite_snyk_expected(tmp_path: Path) -> None:
    target = tmp_path / SNYK_EXPECTED
    target.write_text("{}")
    with pytest.raises(ValueError, match="written by hand"):
        write_golden(target, {"resources": {}})
    assert target.read_text() == "{}"
