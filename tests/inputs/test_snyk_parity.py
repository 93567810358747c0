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
docs/inputs.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from loader_goldens import SNYK_EXPECTED, write_golden

from engine.inputs.discovery import LoadOptions, load_inputs

LOADERS = Path(__file__).parent.parent / "loaders"
SNYK_META = ("terraform", "tfplan", "tfstate", "arm")
"""Meta keys only snyk's loaders write: ours must have them exactly when snyk does."""
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
    ours = our_resources(case)
    renamed = {snyk_key: entry["key"] for snyk_key, entry in expected.get("our_keys", {}).items()}
    assert all(entry.get("why") for entry in expected.get("our_keys", {}).values())
    theirs = {
        renamed.get(key, key): r
        for by_key in expected["resources"].values()
        for key, r in by_key.items()
    }
    assert sorted(ours) == sorted(theirs)
    differing = expected.get("our_attributes", {})
    for key, resource in theirs.items():
        mine = ours[key]
        assert mine["id"] == resource["id"], key
        assert mine["resource_type"] == resource["resource_type"], key
        attributes = dict(resource["attributes"])
        for name, entry in differing.get(key, {}).items():
            assert entry.get("why"), (key, name)
            assert attributes[name] != entry["value"], (key, name)  # a real difference
            attributes[name] = entry["value"]
        assert mine["attributes"] == attributes, key
        assert (mine.get("tags") or {}) == (resource.get("tags") or {}), key
        theirs_meta = resource.get("meta", {})
        for name in {*theirs_meta, *SNYK_META}:
            assert mine["meta"].get(name) == theirs_meta.get(name), (key, name)


def test_there_are_parity_cases() -> None:
    assert {case.parent.name for case in CASES} >= {"arm", "k8s", "tf_hcl", "tf_plan", "tf_state"}


def test_update_cannot_overwrite_snyk_expected(tmp_path: Path) -> None:
    target = tmp_path / SNYK_EXPECTED
    target.write_text("{}")
    with pytest.raises(ValueError, match="written by hand"):
        write_golden(target, {"resources": {}})
    assert target.read_text() == "{}"
