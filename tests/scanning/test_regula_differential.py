"""A pinned regula-style corpus scanned by the engine gives regula's results.

``tests/regula_differential/expected.json`` holds what ``regula run`` reported
for the corpus (see the corpus README); the scan here must give the same rule,
file, resource, verdict and messages for every result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa

from engine.scanning.scanner import scan

CORPUS = Path(__file__).parent.parent / "regula_differential"

Row = tuple[str, str, str, str, str, str, str, tuple[str, ...]]
"""Rule id, title, severity, file, resource type, resource id, verdict, messages."""


def regula_rows(rows: list[dict[str, Any]]) -> set[Row]:
    """regula's rows, the messages of one resource gathered."""
    verdicts: dict[tuple[str, str, str, str, str, str], str] = {}
    messages: dict[tuple[str, str, str, str, str, str], list[str]] = {}
    for r in rows:
        key = (r["rule_id"], r["rule_summary"], r["rule_severity"], r["filepath"])
        key += (r["resource_type"], r["resource_id"])
        assert verdicts.setdefault(key, r["rule_result"]) == r["rule_result"]
        messages.setdefault(key, []).extend([r["rule_message"]] if r["rule_message"] else [])
    return {(*k, verdicts[k], tuple(sorted(messages[k]))) for k in verdicts}


def engine_rows(doc: dict[str, Any]) -> set[Row]:
    """The scan's results named as regula names them: the file the resource is
    written in, Kubernetes ids as ``Kind.namespace.name``."""
    rows: set[Row] = set()
    for entry in doc["results"]:
        k8s = entry["input"]["input_type"] == "k8s"
        for rule in entry["rule_results"]:
            assert rule["errors"] == []
            for r in rule["results"]:
                (resource,) = r["resources"]
                resource_id = r["resource_id"]
                if k8s:
                    resource_id = f"{r['resource_type']}.{r['resource_namespace']}.{resource_id}"
                messages = r["message"].split("\n\n") if r["message"] else []
                verdict = "PASS" if r["passed"] else "FAIL"
                where = resource["location"]["filepath"]
                metadata = (rule["id"], rule["title"], rule["severity"])
                resource_key = (where, r["resource_type"], resource_id)
                rows.add((*metadata, *resource_key, verdict, tuple(sorted(messages))))
    return rows


@needs_opa
def test_the_scan_gives_regulas_results_rule_by_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)
    doc = scan([Path("inputs")], [Path("rules")]).to_dict()
    assert doc["errors"] == [] and doc["warnings"] == []
    expected = regula_rows(json.loads((CORPUS / "expected.json").read_text()))
    seen = engine_rows(doc)
    for rule_id in sorted({row[0] for row in expected | seen}):
        assert sorted(r for r in seen if r[0] == rule_id) == sorted(
            r for r in expected if r[0] == rule_id
        ), rule_id


def test_the_corpus_covers_every_format_and_both_rule_styles() -> None:
    rows = json.loads((CORPUS / "expected.json").read_text())
    files = {r["filepath"].split("/")[1] for r in rows}
    assert files == {"tf", "cfn", "arm", "k8s"}
    # A resource judged twice with two messages, and passes as well as failures.
    keys = [(r["rule_id"], r["resource_id"]) for r in rows]
    assert len(keys) > len(set(keys))
    assert {r["rule_result"] for r in rows} == {"PASS", "FAIL"}
