"""Golden tests: each case's rules scanned over the shared States in tests/golden/states.

``expected.json`` holds the results document without the echoed inputs. To
regenerate after an intended change, run with ``REGO_ENGINE_UPDATE_GOLDEN=1``
and review the diff. Every golden's pass/fail rows are checked against the
pinned `opa eval` (:mod:`result_golden_oracle`), in each run and before an
update is written: an update the oracle disagrees with is refused.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa
from result_golden_oracle import differences, golden_judgements, oracle_judgements

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
        refused = oracle_differences(case, actual)
        assert not refused, "update refused, opa eval disagrees:\n" + "\n".join(refused)
        expected_path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n")
    assert actual == json.loads(expected_path.read_text())


def oracle_differences(case: str, document: dict[str, Any]) -> list[str]:
    """Where a results document of ``case`` differs from what `opa eval` judges."""
    states = {p.name: json.loads(p.read_text()) for p in sorted(STATES.glob("*.json"))}
    oracle = oracle_judgements([GOLDEN / case / "rules"], states)
    return differences(f"tests/golden/{case}", golden_judgements(document), oracle)


@needs_opa
@pytest.mark.parametrize("case", CASES)
def test_golden_agrees_with_opa_eval(case: str) -> None:
    golden = json.loads((GOLDEN / case / "expected.json").read_text())
    assert oracle_differences(case, golden) == []


@needs_opa
def test_a_corrupted_golden_is_caught() -> None:
    golden = json.loads((GOLDEN / "single" / "expected.json").read_text())
    flipped = 0
    for entry in golden["results"]:
        for rule in entry["rule_results"]:
            for result in rule["results"]:
                site = result["resource_id"] == "aws_s3_bucket.site"
                if entry["input"] == "tf_hcl.json" and site:
                    result["passed"] = not result["passed"]
                    flipped += 1
    assert flipped
    found = oracle_differences("single", golden)
    assert found and all("tests/golden/single: tf_hcl.json" in line for line in found)
    assert any("('aws_s3_bucket', 'aws_s3_bucket.site', True)" in line for line in found)


@needs_opa
def test_a_dropped_failure_is_caught() -> None:
    golden = json.loads((GOLDEN / "multi" / "expected.json").read_text())
    for entry in golden["results"]:
        for rule in entry["rule_results"]:
            rule["results"] = [r for r in rule["results"] if r["passed"]]
    assert oracle_differences("multi", golden)


@needs_opa
def test_an_update_the_oracle_disagrees_with_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    expected_path = GOLDEN / "multi" / "expected.json"
    before = expected_path.read_bytes()
    wrong = json.loads(before)
    for entry in wrong["results"]:
        for rule in entry["rule_results"]:
            for result in rule["results"]:
                result["passed"] = True
    monkeypatch.setenv("REGO_ENGINE_UPDATE_GOLDEN", "1")
    monkeypatch.setitem(globals(), "golden_view", lambda case: wrong)
    refused = r"(?s)update refused.*tests/golden/multi: tf_hcl\.json"
    with pytest.raises(AssertionError, match=refused):
        test_golden("multi")
    assert expected_path.read_bytes() == before


@needs_opa
def test_a_rule_dropped_from_an_input_it_accepts_is_caught() -> None:
    golden = json.loads((GOLDEN / "input_types" / "expected.json").read_text())
    k8s = next(entry for entry in golden["results"] if entry["input"] == "k8s.json")
    k8s["rule_results"] = [r for r in k8s["rule_results"] if r["package"] != "data.rules.only_k8s"]
    found = oracle_differences("input_types", golden)
    assert found == [
        "tests/golden/input_types: k8s.json data.rules.only_k8s:"
        " the rule accepts this input but has no entry"
    ]


SNAPSHOTS = GOLDEN.parent / "golden_cases"
CORPUS = GOLDEN.parent / "test_corpus"
SHARED_RULES = [CORPUS / "rules", CORPUS / "relations"]
"""The rules of a ``rego-engine test --golden`` case without its own (its README)."""


@needs_opa
@pytest.mark.parametrize("case", sorted(p.name for p in SNAPSHOTS.iterdir() if p.is_dir()))
def test_snapshot_case_agrees_with_opa_eval(case: str) -> None:
    """The judgements a ``test --golden`` snapshot records, over the State it echoes
    (the State itself comes from the loaders: no oracle for it here)."""
    document = json.loads((SNAPSHOTS / case / "expected.json").read_text())
    states = {}
    for index, entry in enumerate(document["results"]):
        name = f"{index}:{entry['input']['meta'].get('filepath', '')}"
        states[name] = entry["input"]
        entry["input"] = name
    own = SNAPSHOTS / case / "rules"
    oracle = oracle_judgements([own] if own.is_dir() else SHARED_RULES, states)
    recorded = golden_judgements(document)
    assert sum(len(rows) for per_rule in recorded.values() for rows in per_rule.values())
    assert differences(f"tests/golden_cases/{case}", recorded, oracle) == []
