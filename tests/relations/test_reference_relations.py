"""Reference relations: derived from what the loaders resolved, queried like declared ones.

The edge and result goldens in ``tests/reference_relations`` have no independent
oracle: the relations are derived from the loaders' references, which only this
engine computes. They are reviewed by their diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from loader_goldens import UPDATE, write_golden
from oracle import needs_opa

from engine.inputs.loaders.loaded import ResolvedReference
from engine.inspection.relation_listing import list_relations
from engine.relations.index import ExplicitPair, KeyItem, Relation, build_index
from engine.relations.reference_relations import (
    DERIVED_FILE,
    annotation,
    merge,
    reference_relations,
    relation_names,
)
from engine.results.report import ScanReport
from engine.scanning.scanner import scan

HERE = Path(__file__).parent.parent / "reference_relations"
INPUTS = HERE / "inputs"
RULES = HERE / "rules"


def _ref(attribute: tuple[str | int, ...], kind: str) -> ResolvedReference:
    return ResolvedReference("t", "a", attribute, "u", "b", None, kind)


@pytest.mark.parametrize(
    ("attribute", "kind", "names"),
    [
        (("s3_bucket_name",), "reference", ("t.s3_bucket_name", "references")),
        (("Statement", 0, "Resource", 1), "GetAtt", ("t.Statement.Resource", "references")),
        (("DependsOn", 0), "DependsOn", ("depends_on",)),
        (("depends_on",), "depends_on", ("depends_on",)),
        (("dependsOn", 2), "dependsOn", ("depends_on",)),
        ((), "contains", ("contains",)),
    ],
)
def test_relation_names(
    attribute: tuple[str | int, ...], kind: str, names: tuple[str, ...]
) -> None:
    assert relation_names(_ref(attribute, kind)) == names


def test_edges_are_annotated_and_unknown_resources_dropped() -> None:
    refs = [
        _ref(("x", 0), "Ref"),
        ResolvedReference("t", "a", ("x",), "u", "missing", None, "Ref"),
    ]
    relations = reference_relations(refs, {("t", "a"): 0, ("u", "b"): 1})
    assert [r.name for r in relations] == ["references", "t.x"]
    edges = build_index(relations).edges
    assert edges["t.x"][0].annotation == {
        "attribute": ["x", 0],
        "kind": "Ref",
        "target_attribute": None,
    }
    assert annotation(refs[0]) == edges["references"][0].annotation


def test_declared_relation_of_the_same_name_merges() -> None:
    declared = [Relation("t.x", left=[KeyItem(2, "k")], right=[KeyItem(3, "k")])]
    derived = [Relation("t.x", explicit=[ExplicitPair(0, 1)]), Relation("contains")]
    merged = merge(declared, derived)
    assert [r.name for r in merged] == ["contains", "t.x"]
    assert [(e.left, e.right) for e in build_index(merged).edges["t.x"]] == [(0, 1), (2, 3)]


def _listing_rows() -> list[dict[str, object]]:
    listing = list_relations([], [INPUTS], with_edges=True)
    assert listing.errors == []
    rows = []
    for relation in listing.relations:
        if DERIVED_FILE not in relation.defined_in:
            continue
        for edge in relation.edges:
            rows.append(
                {
                    "relation": relation.name,
                    "input": Path(edge.input).resolve().relative_to(INPUTS.resolve()).as_posix(),
                    "left": edge.left,
                    "right": edge.right,
                    "annotation": edge.annotation,
                }
            )
    return rows


@needs_opa
def test_every_format_derives_its_relations() -> None:
    """One golden of every derived edge, per loader format (reviewed by hand)."""
    rows = _listing_rows()
    golden = HERE / "expected_edges.json"
    if UPDATE:
        write_golden(golden, rows)
    assert rows == json.loads(golden.read_text())
    formats = {row["input"].split("/")[0] for row in rows}  # type: ignore[union-attr]
    assert formats == {"arm", "cfn", "k8s", "tf_hcl", "tf_hcl_loose", "tf_plan"}
    kinds = {row["annotation"]["kind"] for row in rows}  # type: ignore[index]
    assert kinds >= {
        "Ref",
        "GetAtt",
        "Sub",
        "DependsOn",
        "reference",
        "depends_on",
        "resourceId",
        "dependsOn",
        "contains",
        "name",
        "ownerReference",
    }


@needs_opa
def test_listing_shows_where_relations_come_from(tmp_path: Path) -> None:
    (tmp_path / "relations.rego").write_text(
        """package relations
import rego.v1
import data.snyk

relations contains snyk.relation_from_fields(
  "references", {"aws_cloudtrail": ["name"]}, {"aws_s3_bucket": ["bucket"]},
)
"""
    )
    listing = list_relations([tmp_path], [INPUTS / "tf_hcl"], with_edges=True)
    by_name = {r.name: r for r in listing.relations}
    assert by_name["depends_on"].defined_in == (DERIVED_FILE,)
    assert by_name["references"].defined_in == (str(tmp_path / "relations.rego"), DERIVED_FILE)
    assert listing.warnings == []


@needs_opa
def test_rules_query_reference_relations_in_a_scan() -> None:
    """Rules in v0 and v1 syntax use relates, back_relates and the _with forms on
    derived relations of every format; the results are a golden (reviewed by hand)."""
    report = scan([INPUTS], [RULES])
    assert report.errors == []
    rows = sorted(
        (rule.metadata.id, r.resource_id, r.passed, r.message)
        for each in report.inputs
        for rule in each.rule_results
        for r in rule.results
    )
    golden = HERE / "expected_results.json"
    found = [list(row) for row in rows]
    if UPDATE:
        write_golden(golden, found)
    assert found == json.loads(golden.read_text())


@needs_opa
def test_a_user_relation_merges_with_the_derived_one(tmp_path: Path) -> None:
    """A declared ``aws_cloudtrail.s3_bucket_name`` adds its edges to the derived ones."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "trail.rego").write_text((RULES / "trail_bucket.rego").read_text())
    (rules / "relations.rego").write_text(
        """package relations
import rego.v1
import data.snyk

relations contains {"name": "aws_cloudtrail.s3_bucket_name", "explicit": [[t, b] |
  some t in snyk.resources("aws_cloudtrail")
  t.name == "external"
  some b in snyk.resources("aws_s3_bucket")
]}
"""
    )
    before = _scan_rows(scan([INPUTS / "tf_hcl_loose"], [RULES]))
    after = _scan_rows(scan([INPUTS / "tf_hcl_loose"], [rules]))
    assert (
        before["aws_cloudtrail.external"] == "the trail's bucket is not part of this configuration"
    )
    # Now related to a bucket (by the declared edge, unannotated): it passes.
    assert after["aws_cloudtrail.external"] == ""
    assert after["aws_cloudtrail.team"] == before["aws_cloudtrail.team"]
    assert before["aws_cloudtrail.team"].startswith('aws_s3_bucket.trail (via ["s3_bucket_name"])')


def _scan_rows(report: ScanReport) -> dict[str, str]:
    assert report.errors == []
    return {
        r.resource_id: r.message
        for each in report.inputs
        for rule in each.rule_results
        for r in rule.results
    }
