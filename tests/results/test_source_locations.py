"""Source locations in results: the file, line and column of each failing
resource and of the attribute path its rule reported, for every format.

``tests/loaders/locations/<format>/`` holds one small input per format (and
``state/`` a State file) and ``rules/`` one rule per format that fails its
resource with attribute paths.
Every expected position below was checked by hand against the fixture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.paths import display_path
from engine.scanning.scanner import scan

HERE = Path(__file__).parent.parent / "loaders" / "locations"
FORMATS = ("tf_plan", "tf_hcl", "cfn_yaml", "cfn_json", "k8s", "arm", "state")

Position = tuple[str, int, int]
"""(file below the format's directory, line, column)."""

EXPECTED: dict[str, dict[tuple[str, ...], tuple[Position, Position]]] = {
    # resource key → (resource, attribute) positions, by attribute path
    "tf_plan": {
        ("acl",): (("plan.json", 7, 9), ("plan.json", 16, 13)),
        ("versioning", "0", "enabled"): (("plan.json", 7, 9), ("plan.json", 20, 17)),
    },
    "tf_hcl": {
        ("acl",): (("main.tf", 9, 1), ("main.tf", 11, 3)),
        ("versioning", "0", "enabled"): (("main.tf", 9, 1), ("main.tf", 14, 5)),
    },
    "cfn_yaml": {
        ("AccessControl",): (("template.yaml", 4, 3), ("template.yaml", 8, 7)),
        ("VersioningConfiguration", "Status"): (
            ("template.yaml", 4, 3),
            ("template.yaml", 10, 9),
        ),
    },
    "cfn_json": {
        ("AccessControl",): (("template.json", 5, 5), ("template.json", 9, 9)),
        ("VersioningConfiguration", "Status"): (
            ("template.json", 5, 5),
            ("template.json", 11, 11),
        ),
    },
    "arm": {
        ("properties", "supportsHttpsTrafficOnly"): (
            ("storage.json", 11, 5),
            ("storage.json", 19, 9),
        ),
        # a value computed from a parameter: where its expression is written
        ("location",): (("storage.json", 11, 5), ("storage.json", 15, 7)),
    },
    "k8s": {
        ("spec", "containers", "0", "securityContext", "privileged"): (
            ("web.yaml", 6, 1),
            ("web.yaml", 16, 9),
        ),
    },
}


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    report = scan([HERE / f for f in FORMATS], [HERE / "rules"])
    assert report.errors == [], report.errors
    return json.loads(report.to_json())


def locations(results: dict[str, Any], fmt: str) -> dict[tuple[str, ...], tuple[Any, Any]]:
    """Attribute path → (resource location, attribute location) of the failing
    results of the input loaded from ``fmt``'s directory."""
    directory = display_path(HERE / fmt)
    found: dict[tuple[str, ...], tuple[Any, Any]] = {}
    for entry in results["results"]:
        if not (entry["input"]["meta"]["filepath"] + "/").startswith(directory + "/"):
            continue
        for rule in entry["rule_results"]:
            for result in rule["results"]:
                assert not result["passed"]
                for resource in result["resources"]:
                    for attribute in resource["attributes"]:
                        path = tuple(str(step) for step in attribute["path"])
                        found[path] = (resource["location"], attribute["location"])
    return found


@pytest.mark.parametrize("fmt", sorted(EXPECTED))
def test_resource_and_attribute_locations(results: dict[str, Any], fmt: str) -> None:
    def where(position: Position) -> dict[str, Any]:
        name, line, column = position
        return {"filepath": display_path(HERE / fmt / name), "line": line, "column": column}

    expected = {
        path: (where(resource), where(attribute))
        for path, (resource, attribute) in EXPECTED[fmt].items()
    }
    assert locations(results, fmt) == expected


def test_a_state_file_keeps_its_meta_location(results: dict[str, Any]) -> None:
    # a State file has no source map: the resource's meta.location is reported
    # as it is, and attribute paths have no location
    assert locations(results, "state") == {
        ("AccessControl",): ([{"filepath": "template.yaml", "line": 4, "column": 3}], None)
    }
