"""Inferred attribute paths beside snyk's golden results for its examples (opt-in).

    SNYK_PE_DIR=/path/to/policy-engine-checkout .venv/bin/python bench/snyk_attributes.py

Scans snyk's example rules (``examples/*.rego``, with ``examples/metadata``)
over ``examples/main.tf`` from a checkout of snyk's public policy-engine
repository and compares the ``attributes`` of every resource of every result
(paths, and their locations' line and column) with its golden
``test/examples.json``. Prints each difference and the count of resources
equal; exits 1 when any differs.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

Key = tuple[str, Any, str, str]


def attributes(document: dict[str, Any]) -> dict[Key, list[Any]]:
    """(package, passed, type, id) → [(path, line, column)] of every result resource."""
    out: dict[Key, list[Any]] = {}
    for entry in document["results"]:
        for rule in entry["rule_results"]:
            for result in rule["results"]:
                for resource in result["resources"]:
                    key = (rule["package"], result.get("passed"), resource["type"], resource["id"])
                    out[key] = [
                        (
                            a["path"],
                            (a.get("location") or {}).get("line"),
                            (a.get("location") or {}).get("column"),
                        )
                        for a in resource.get("attributes") or []
                    ]
    return out


def main() -> int:
    checkout = os.environ.get("SNYK_PE_DIR")
    if not checkout or not (Path(checkout) / "test" / "examples.json").is_file():
        print("set SNYK_PE_DIR to a checkout of snyk's policy-engine repository", file=sys.stderr)
        return 2
    from engine.scanning.scanner import scan

    examples = Path(checkout) / "examples"
    with tempfile.TemporaryDirectory(prefix="snyk-attributes-") as temp:
        rules = Path(temp) / "rules"
        rules.mkdir()
        for rego in sorted(examples.glob("*.rego")):
            shutil.copy(rego, rules / rego.name)
        shutil.copytree(examples / "metadata", rules / "metadata")
        ours = attributes(json.loads(scan([examples / "main.tf"], [rules]).to_json()))
    golden = attributes(json.loads((Path(checkout) / "test" / "examples.json").read_text()))
    equal = 0
    for key, theirs in golden.items():
        if ours.get(key) == theirs:
            equal += 1
        else:
            print(f"{key}:\n  snyk {theirs}\n  ours {ours.get(key)}")
    for key in sorted(set(ours) - set(golden), key=str):
        print(f"{key}: only here")
    print(f"{equal}/{len(golden)} resources with equal attributes")
    return 0 if equal == len(golden) and set(ours) == set(golden) else 1


if __name__ == "__main__":
    sys.exit(main())
