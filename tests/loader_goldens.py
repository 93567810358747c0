"""Golden files of the loader suites: State documents and reference lists.

``REGO_ENGINE_UPDATE_GOLDEN=1`` makes the suites rewrite them from the
loaders' output (review the diff before committing). ``snyk_expected.json``
(the State snyk's loader gives for a case, derived by hand) is never
rewritten: :func:`write_golden` refuses it.

Oracle: where a case holds ``snyk_expected.json``, its golden State must keep
the documented equalities with it (:func:`snyk_differences`: keys, ids, types,
attributes but the listed deliberate differences, tags, snyk's ``meta`` keys),
checked in every run (``tests/inputs/test_snyk_parity.py``) and before an
update is written: an update that breaks one is refused. The other State
goldens, and every reference list, have no independent oracle in a normal run
(``snyk_expected.json`` holds no references; snyk's binary runs only on
request, ``make loader-parity``, over snyk's own goldens): they are reviewed by
their diff.
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


SNYK_META = ("terraform", "tfplan", "tfstate", "arm")
"""Meta keys only snyk's loaders write: ours must have them exactly when snyk does."""


class SnykParityRefused(AssertionError):
    """A golden update that breaks an equality with ``snyk_expected.json``."""


def state_resources(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every resource of a State document, by key."""
    found: dict[str, dict[str, Any]] = {}
    for by_key in document["resources"].values():
        found.update(by_key)
    return found


def snyk_differences(expected: dict[str, Any], ours: dict[str, dict[str, Any]]) -> list[str]:
    """Where our resources (by key) break an equality with snyk's expected State."""
    renamed = {snyk_key: entry["key"] for snyk_key, entry in expected.get("our_keys", {}).items()}
    found = [
        f"our_keys {k}: no why" for k, e in expected.get("our_keys", {}).items() if not e.get("why")
    ]
    theirs = {
        renamed.get(key, key): r
        for by_key in expected["resources"].values()
        for key, r in by_key.items()
    }
    if sorted(ours) != sorted(theirs):
        found.append(
            f"keys: ours only {sorted(set(ours) - set(theirs))},"
            f" snyk only {sorted(set(theirs) - set(ours))}"
        )
    differing = expected.get("our_attributes", {})
    for key in sorted(set(ours) & set(theirs)):
        mine, resource = ours[key], theirs[key]
        for field in ("id", "resource_type"):
            if mine[field] != resource[field]:
                found.append(f"{key}: {field} {mine[field]!r} != snyk's {resource[field]!r}")
        attributes = dict(resource["attributes"])
        for name, entry in differing.get(key, {}).items():
            if not entry.get("why") or attributes.get(name) == entry["value"]:
                found.append(f"{key}.{name}: a listed difference without why or not different")
            attributes[name] = entry["value"]
        for name in sorted({*mine["attributes"], *attributes}):
            if mine["attributes"].get(name) != attributes.get(name):
                found.append(f"{key}: attribute {name} differs from snyk's")
        if (mine.get("tags") or {}) != (resource.get("tags") or {}):
            found.append(f"{key}: tags differ from snyk's")
        theirs_meta = resource.get("meta", {})
        for name in sorted({*theirs_meta, *SNYK_META}):
            if mine.get("meta", {}).get(name) != theirs_meta.get(name):
                found.append(f"{key}: meta {name} differs from snyk's")
    return found


def check_snyk_parity(case: Path, document: dict[str, Any]) -> None:
    """Refuse a State golden for ``case`` that breaks an equality with its
    ``snyk_expected.json`` (no-op where the case has none)."""
    expected_path = case / SNYK_EXPECTED
    if not expected_path.exists():
        return
    found = snyk_differences(json.loads(expected_path.read_text()), state_resources(document))
    if found:
        raise SnykParityRefused(
            f"{case}: golden State disagrees with {SNYK_EXPECTED}:\n" + "\n".join(found)
        )


def write_golden(path: Path, value: Any, *, sort_keys: bool = True) -> None:
    """A document indented, or a list of rows one per line (never ``snyk_expected.json``);
    a State document only if it keeps the case's equalities with snyk's expected State."""
    if path.name == SNYK_EXPECTED:
        raise ValueError(f"{path}: snyk's expected State is written by hand, not generated")
    if path.name == "expected.json" and isinstance(value, dict) and "resources" in value:
        check_snyk_parity(path.parent, value)
    if isinstance(value, list):
        rows = ",\n".join("  " + json.dumps(row) for row in value)
        path.write_text(f"[\n{rows}\n]\n" if value else "[]\n")
    else:
        path.write_text(json.dumps(value, indent=2, sort_keys=sort_keys) + "\n")
