"""Result identity and merging (seed 001), through the scan API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from oracle import needs_opa

from engine.scanning.scanner import scan

GOLDEN = Path(__file__).parent.parent / "golden"
SG_RULES = GOLDEN / "multi" / "rules"


def sg_state(ingress: list[dict[str, Any]]) -> dict[str, Any]:
    sg = {
        "id": "aws_security_group.web",
        "resource_type": "aws_security_group",
        "namespace": "main.tf",
        "attributes": {"ingress": ingress},
    }
    return {"input_type": "tf_hcl", "resources": {"aws_security_group": {sg["id"]: sg}}}


def identities(tmp_path: Path, state: dict[str, Any]) -> set[tuple[Any, ...]]:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    report = scan([path], [SG_RULES])
    (rule,) = [r for r in report.inputs[0].rule_results if r.package.endswith("multi_tagged_v1")]
    return {(r.resource_id, r.result_tag, r.passed, r.message) for r in rule.results}


RULES = [
    {"from_port": 22, "to_port": 22, "cidr_blocks": ["0.0.0.0/0"]},
    {"from_port": 443, "to_port": 443, "cidr_blocks": ["0.0.0.0/0"]},
    {"from_port": 3389, "to_port": 3389, "cidr_blocks": ["0.0.0.0/0"]},
]


@needs_opa
def test_result_tag_identity_does_not_depend_on_array_order(tmp_path: Path) -> None:
    forward = identities(tmp_path, sg_state(RULES))
    backward = identities(tmp_path, sg_state(list(reversed(RULES))))
    assert forward == backward
    assert forward == {
        ("aws_security_group.web", "ingress[22]", False, "ingress 22 is open"),
        ("aws_security_group.web", "ingress[3389]", False, "ingress 3389 is open"),
        ("aws_security_group.web", "ingress[443]", True, ""),
    }


@needs_opa
def test_infos_with_one_identity_merge(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.rego").write_text(
        """package rules.merge
import rego.v1
deny contains info if {
	some b in data.snyk.resources("aws_s3_bucket")
	some msg in ["first problem", "second problem"]
	info := {"resource": b, "message": msg, "attributes": [[msg]], "severity": sev(msg)}
}
sev("first problem") := "Low"
sev("second problem") := "HIGH"
"""
    )
    bucket = {"id": "b", "resource_type": "aws_s3_bucket", "attributes": {}}
    state = tmp_path / "s.json"
    state.write_text(
        json.dumps({"input_type": "tf_hcl", "resources": {"aws_s3_bucket": {"b": bucket}}})
    )
    (rule,) = scan([state], [rules]).inputs[0].rule_results
    (result,) = rule.results
    assert result.message == "first problem\n\nsecond problem"
    assert result.severity == "HIGH"  # the highest, reported verbatim
    assert [a.path for a in result.resources[0].attributes] == [
        ("first problem",),
        ("second problem",),
    ]


@needs_opa
def test_fugue_resource_both_allowed_and_denied_fails(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.rego").write_text(
        """package rules.both
import data.fugue
policy[j] { j := fugue.allow_resource(fugue.resources("aws_kms_key")[_]) }
policy[j] { j := fugue.deny_resource_with_message(fugue.resources("aws_kms_key")[_], "no") }
"""
    )
    key = {"id": "k", "resource_type": "aws_kms_key", "attributes": {}}
    state = tmp_path / "s.json"
    state.write_text(json.dumps({"input_type": "tf_hcl", "resources": {"aws_kms_key": {"k": key}}}))
    (rule,) = scan([state], [rules]).inputs[0].rule_results
    assert [(r.resource_id, r.passed, r.message) for r in rule.results] == [("k", False, "no")]


def _scan_one_rule(tmp_path: Path, rego: str, resources: dict[str, Any]) -> Any:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.rego").write_text(rego)
    state = tmp_path / "s.json"
    by_type: dict[str, Any] = {}
    for rid, rtype in resources.items():
        by_type.setdefault(rtype, {})[rid] = {"id": rid, "resource_type": rtype, "attributes": {}}
    state.write_text(json.dumps({"input_type": "tf_hcl", "resources": by_type}))
    (rule,) = scan([state], [rules]).inputs[0].rule_results
    assert not rule.errors
    return rule


CORRELATED = """package rules.correlated
import rego.v1
import data.snyk
buckets := snyk.resources("aws_s3_bucket")
resources contains info if {
	some bucket in buckets
	info := {"primary_resource": bucket, "correlation": bucket.id}
}
deny contains info if {
	some bucket in buckets
	some acl in snyk.resources("aws_s3_bucket_acl")
	info := {"resource": acl, "correlation": bucket.id, "message": "public ACL"}
}
"""


@needs_opa
def test_a_resources_info_with_only_a_primary_resource_names_the_result(
    tmp_path: Path,
) -> None:
    """snyk's correlation example: the deny names the related resource, the
    `resources` info only the primary one; the result is the primary's."""
    rule = _scan_one_rule(tmp_path, CORRELATED, {"b": "aws_s3_bucket", "acl": "aws_s3_bucket_acl"})
    (result,) = rule.results
    assert (result.resource_type, result.resource_id, result.passed) == (
        "aws_s3_bucket",
        "b",
        False,
    )
    assert result.message == "public ACL"
    assert sorted((r.type, r.id) for r in result.resources) == [
        ("aws_s3_bucket", "b"),
        ("aws_s3_bucket_acl", "acl"),
    ]


@needs_opa
def test_a_primary_resource_only_info_without_denial_passes(tmp_path: Path) -> None:
    rule = _scan_one_rule(tmp_path, CORRELATED, {"b": "aws_s3_bucket"})
    assert [(r.resource_id, r.passed, len(r.resources)) for r in rule.results] == [("b", True, 1)]


@needs_opa
def test_the_context_of_a_resources_info_is_reported(tmp_path: Path) -> None:
    rego = """package rules.ctx
import rego.v1
import data.snyk
resources contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	info := {"resource": bucket, "context": {"checked": bucket.id}}
}
deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	bucket.id == "bad"
	info := {"resource": bucket, "message": "bad bucket"}
}
"""
    rule = _scan_one_rule(tmp_path, rego, {"good": "aws_s3_bucket", "bad": "aws_s3_bucket"})
    assert [(r.resource_id, r.passed, r.context) for r in rule.results] == [
        ("bad", False, {"checked": "bad"}),
        ("good", True, {"checked": "good"}),
    ]


@needs_opa
def test_a_single_resource_rules_resources_info_gives_context(tmp_path: Path) -> None:
    """snyk's example 12: a single-resource rule's `resources` infos, asked with
    the resource as `input`, give the context of that resource's result, passed
    or failed."""
    rego = """package rules.single_ctx
resource_type = "aws_s3_bucket"
deny[info] {
  input.id == "bad"
  info := {"message": "bad bucket"}
}
resources[info] {
  info := {"context": {"name": input.id}}
}
"""
    rule = _scan_one_rule(tmp_path, rego, {"good": "aws_s3_bucket", "bad": "aws_s3_bucket"})
    assert [(r.resource_id, r.passed, r.message, r.context) for r in rule.results] == [
        ("bad", False, "bad bucket", {"name": "bad"}),
        ("good", True, "", {"name": "good"}),
    ]


@needs_opa
def test_a_single_resource_allow_with_messages_passes_with_the_first(tmp_path: Path) -> None:
    """fugue's `allow[msg]`: a resource with a message passes with it (the
    first in value order); one without any fails."""
    rego = """package rules.allow_msg
resource_type = "aws_s3_bucket"
allow[msg] {
  input.id != "bare"
  msg := sprintf("%s is fine", [input.id])
}
allow[msg] {
  input.id == "both"
  msg := "also fine"
}
"""
    rule = _scan_one_rule(
        tmp_path,
        rego,
        {"one": "aws_s3_bucket", "both": "aws_s3_bucket", "bare": "aws_s3_bucket"},
    )
    assert [(r.resource_id, r.passed, r.message) for r in rule.results] == [
        ("bare", False, ""),
        ("both", True, "also fine"),
        ("one", True, "one is fine"),
    ]


@needs_opa
def test_a_single_resource_allow_of_one_string_passes_with_it(tmp_path: Path) -> None:
    rego = """package rules.allow_string
resource_type = "aws_s3_bucket"
allow = msg {
  input.id == "ok"
  msg := "bucket is fine"
}
"""
    rule = _scan_one_rule(tmp_path, rego, {"ok": "aws_s3_bucket", "no": "aws_s3_bucket"})
    assert [(r.resource_id, r.passed, r.message) for r in rule.results] == [
        ("no", False, ""),
        ("ok", True, "bucket is fine"),
    ]
