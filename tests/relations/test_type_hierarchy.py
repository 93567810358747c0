"""Type hierarchy: supertypes from rego/lib/type_hierarchy.json, in scan and test mode."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from oracle import needs_opa

from engine.core.paths import REGO_LIB_DIR
from engine.inputs.discovery import load_inputs
from engine.relations import type_hierarchy
from engine.rules.opa import find_opa
from engine.scanning.scanner import scan

HERE = Path(__file__).parent.parent
K8S = HERE / "reference_relations" / "inputs" / "k8s"
LB = HERE / "type_hierarchy" / "lb"
RULES = HERE / "type_hierarchy" / "rules.rego"


def test_kubernetes_workload_kinds_inherit_from_workload() -> None:
    direct = type_hierarchy.supertypes_for(type_hierarchy.load(), "k8s")
    kinds = ["CronJob", "DaemonSet", "Deployment", "Job", "Pod", "ReplicaSet",
             "ReplicationController", "StatefulSet"]  # fmt: skip
    assert type_hierarchy.members(direct, [*kinds, "ConfigMap"]) == {"workload": kinds}
    assert type_hierarchy.ancestors(direct, "ConfigMap") == {"ConfigMap"}


@pytest.mark.parametrize("input_type", ["tf_hcl", "tf_plan", "tf_state", "cloud_scan"])
def test_load_balancer_aliases_apply_to_terraform_inputs(input_type: str) -> None:
    direct = type_hierarchy.supertypes_for(type_hierarchy.load(), input_type)
    assert type_hierarchy.members(direct, ["aws_lb", "aws_alb"]) == {
        "aws_alb": ["aws_alb", "aws_lb"],
        "aws_lb": ["aws_alb", "aws_lb"],
    }
    assert type_hierarchy.members(direct, ["aws_lb"]) == {"aws_alb": ["aws_lb"]}


def test_sections_apply_to_their_input_types_only() -> None:
    assert type_hierarchy.supertypes_for(type_hierarchy.load(), "cfn") == {}
    k8s = type_hierarchy.supertypes_for(type_hierarchy.load(), "k8s")
    assert "aws_lb" not in k8s


def test_malformed_hierarchy_is_refused() -> None:
    with pytest.raises(type_hierarchy.HierarchyError, match="k8s must map"):
        type_hierarchy.parse({"rego_engine": {"type_hierarchy": {"k8s": {"Pod": "workload"}}}})
    with pytest.raises(type_hierarchy.HierarchyError, match="expected"):
        type_hierarchy.parse({})


def _scan_rows() -> tuple[set[tuple[str, str]], list[str]]:
    report = scan([K8S, LB], [RULES])
    assert report.errors == []
    # Results of one resource are one result, their messages joined.
    rows = {
        (r.resource_id, message)
        for each in report.inputs
        for rule in each.rule_results
        for r in rule.results
        if not r.passed
        for message in r.message.split("\n\n")
    }
    types = sorted(
        {t for each in report.inputs for rule in each.rule_results for t in rule.resource_types}
    )
    return rows, types


def _test_mode_rows() -> set[tuple[str, str]]:
    rows = set()
    for loaded in load_inputs([K8S, LB]).inputs:
        found = subprocess.run(
            [
                str(find_opa().path), "eval", "-f", "json", "--stdin-input",
                "-d", str(REGO_LIB_DIR / "test" / "snyk.rego"),
                "-d", str(REGO_LIB_DIR / "type_hierarchy.json"),
                "-d", str(RULES),
                "data.rules.workloads_listed.deny",
            ],
            input=json.dumps(loaded.state.document), capture_output=True, text=True, check=True,
        )  # fmt: skip
        value = json.loads(found.stdout)["result"][0]["expressions"][0]["value"]
        rows |= {(info["resource"]["_id"], info["message"]) for info in value}
    return rows


@needs_opa
def test_supertype_queries_in_a_scan_match_test_mode() -> None:
    rows, types = _scan_rows()
    assert rows == {
        ("web", "workload Deployment"),
        ("batch", "workload Deployment"),
        ("web-5d8f", "workload ReplicaSet"),
        ("orphan", "workload ReplicaSet"),
        ("web-config", "concrete ConfigMap"),
        ("batch-config", "concrete ConfigMap"),
        ("aws_lb.public", "aws_alb query: aws_lb"),
        ("aws_lb.internal", "aws_alb query: aws_lb"),
        ("aws_alb.legacy", "aws_alb query: aws_alb"),
        ("aws_lb.public", "aws_lb query: public aws_lb"),
        ("aws_alb.legacy", "aws_lb query: public aws_alb"),
    }
    # A rule's resource types are the concrete types its queries covered (the
    # name asked for when no type of the input is one: "workload" on Terraform).
    assert types == ["ConfigMap", "Deployment", "ReplicaSet", "aws_alb", "aws_lb", "workload"]
    assert rows == _test_mode_rows()


@needs_opa
def test_single_resource_rules_may_target_a_supertype() -> None:
    report = scan([K8S], [HERE / "type_hierarchy" / "single.rego"])
    assert report.errors == []
    (rule,) = report.inputs[0].rule_results
    assert rule.resource_types == ["Deployment", "ReplicaSet"]
    assert [(r.resource_type, r.resource_id, r.passed, r.message) for r in rule.results] == [
        ("Deployment", "batch", False, "Deployment batch: container batch has no limits"),
        ("Deployment", "web", False, "Deployment web: container web has no limits"),
        ("ReplicaSet", "orphan", False, "ReplicaSet orphan: container orphan has no limits"),
        ("ReplicaSet", "web-5d8f", False, "ReplicaSet web-5d8f: container web has no limits"),
    ]
