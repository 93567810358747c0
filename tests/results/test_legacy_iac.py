"""Legacy Snyk IaC rules: detected as snyk detects them, asked over the raw IaC
shape, and their messages mapped to resources and rules by publicId."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa
from scan_fixtures import state, write, write_json

from engine.results.legacy_iac import parse_path
from engine.rules.legacy_iac import is_legacy_package, legacy_input_type
from engine.rules.rule_set import RegoFile, discover_rules
from engine.scanning.scanner import scan

MAIN_TF = """
resource "aws_s3_bucket" "logs" {
  bucket = "my-logs"
  acl    = "public-read"
}

resource "aws_s3_bucket" "data" {
  bucket = "data"
}

data "aws_iam_policy_document" "p" {
  statement {
    actions = ["s3:*"]
  }
}
"""

LEGACY_RULE = """package rules

import rego.v1

deny contains msg if {
	bucket := input.resource.aws_s3_bucket[name]
	bucket.acl == "public-read"
	msg := {
		"publicId": "LEGACY-1",
		"title": "Public bucket",
		"severity": "high",
		"msg": sprintf("input.resource.aws_s3_bucket[%s].acl", [name]),
		"issue": "",
		"impact": "Anyone can read it",
		"remediation": {"terraform": "Set acl to private", "cloudformation": "other"},
		"references": ["https://example.com/acl"],
	}
}

deny contains msg if {
	some name, _ in input.resource.aws_s3_bucket
	msg := {
		"publicId": "LEGACY-2",
		"title": "Every bucket",
		"severity": "low",
		"msg": sprintf("aws_s3_bucket.%s", [name]),
		"remediation": "",
		"references": [],
	}
}

deny contains msg if {
	some name, doc in input.data.aws_iam_policy_document
	doc.statement[0].actions[0] == "s3:*"
	msg := {
		"publicId": "LEGACY-3",
		"title": "Wildcard",
		"severity": "medium",
		"msg": sprintf("aws_iam_policy_document[%s].statement[0]", [name]),
	}
}
"""


def test_packages_snyk_runs_as_legacy_iac_rules() -> None:
    assert is_legacy_package("rules")
    assert is_legacy_package("schemas.k8s_1")
    assert not is_legacy_package("rules.s3_public")
    assert not is_legacy_package("schemas.a.b")
    assert not is_legacy_package("schemas")


def test_a_legacy_rules_input_type_is_named_by_its_package() -> None:
    assert legacy_input_type("schemas.terraform", None) == "tf"
    assert legacy_input_type("schemas.x.kubernetes", None) == "k8s"
    assert legacy_input_type("rules", "cfn") == "cfn"
    assert legacy_input_type("rules", None) is None


def test_legacy_packages_are_discovered_as_rules() -> None:
    files = [
        RegoFile(Path("a.rego"), "a.rego", LEGACY_RULE, 1),
        RegoFile(Path("b.rego"), "b.rego", "package rules.b\ndeny[x] { x := 1 }\n", 0),
        RegoFile(Path("c.rego"), "c.rego", "package schemas.c\ndeny[x] { x := 1 }\n", 0),
        RegoFile(Path("d.rego"), "d.rego", "package schemas.c.d\ndeny[x] { x := 1 }\n", 0),
    ]
    found = {r.package: r.legacy for r in discover_rules(files)}
    assert found == {"rules": True, "rules.b": False, "schemas.c": True}


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("input.resource.aws_s3_bucket[logs].acl", ["resource", "aws_s3_bucket", "logs", "acl"]),
        (
            'Resources["My.Bucket"].Properties.Tags[0]',
            ["Resources", "My.Bucket", "Properties", "Tags", 0],
        ),
        ("resources[2].properties['a b']", ["resources", 2, "properties", "a b"]),
        (r"spec.containers[web\.1].image", ["spec", "containers", "web.1", "image"]),
        ("a.b]c", ["a", "b"]),
    ],
)
def test_message_paths_parse_as_snyk_parses_them(text: str, path: list[Any]) -> None:
    assert parse_path(text) == path


def _legacy_scan(tmp_path: Path, rule: str, name: str, text: str) -> dict[str, Any]:
    write(tmp_path / "rules" / "legacy.rego", rule)
    write(tmp_path / "in" / name, text)
    doc = scan([tmp_path / "in" / name], [tmp_path / "rules"]).to_dict()
    assert doc["warnings"] == []
    return doc


@needs_opa
def test_a_legacy_rule_runs_over_terraform_as_snyk_runs_it(tmp_path: Path) -> None:
    doc = _legacy_scan(tmp_path, LEGACY_RULE, "main.tf", MAIN_TF)
    assert doc["errors"] == []
    rules = doc["results"][0]["rule_results"]
    assert [(r["package"], r["id"], r["title"]) for r in rules] == [
        ("data.rules", "LEGACY-1", "Public bucket"),
        ("data.rules", "LEGACY-2", "Every bucket"),
        ("data.rules", "LEGACY-3", "Wildcard"),
    ]
    one, two, three = rules
    assert one["description"] == "Anyone can read it"
    # snyk's engine reports no kind for a legacy IaC rule (the default applies to Rego rules).
    assert one["kind"] == ""
    assert one["references"] == ["https://example.com/acl"]
    (public,) = one["results"]
    assert (public["resource_type"], public["resource_id"], public["passed"]) == (
        "aws_s3_bucket",
        "aws_s3_bucket.logs",
        False,
    )
    assert (public["severity"], public["remediation"]) == ("high", "Set acl to private")
    (resource,) = public["resources"]
    assert resource["attributes"][0]["path"] == ["acl"]
    assert resource["attributes"][0]["location"]["line"] == 4
    assert [(r["resource_id"], r["severity"]) for r in two["results"]] == [
        ("aws_s3_bucket.data", "low"),
        ("aws_s3_bucket.logs", "low"),
    ]
    assert all(r["resources"][0]["attributes"] == [] for r in two["results"])
    (wildcard,) = three["results"]
    # A bare "type[name]" names a data source when the input has one of that name.
    assert (wildcard["resource_type"], wildcard["resource_id"]) == (
        "data.aws_iam_policy_document",
        "data.aws_iam_policy_document.p",
    )
    assert wildcard["resources"][0]["attributes"][0]["path"] == ["statement", 0]


@needs_opa
def test_a_legacy_rule_that_passes_everything_reports_no_rule(tmp_path: Path) -> None:
    doc = _legacy_scan(tmp_path, LEGACY_RULE, "main.tf", 'resource "aws_sqs_queue" "q" {}\n')
    assert doc["errors"] == []
    assert doc["results"][0]["rule_results"] == []


CFN = """AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      AccessControl: PublicRead
"""

CFN_RULE = """package schemas.cloudformation_public

import rego.v1

deny contains msg if {
	some name, r in input.Resources
	r.Type == "AWS::S3::Bucket"
	r.Properties.AccessControl == "PublicRead"
	msg := {"publicId": "CFN-1", "title": "t", "severity": "high",
		"msg": sprintf("Resources[%s].Properties.AccessControl", [name])}
}
"""


@needs_opa
def test_a_legacy_rule_runs_over_cloudformation(tmp_path: Path) -> None:
    doc = _legacy_scan(tmp_path, CFN_RULE, "t.yaml", CFN)
    assert doc["errors"] == []
    ((result,),) = [r["results"] for r in doc["results"][0]["rule_results"]]
    assert (result["resource_type"], result["resource_id"]) == ("AWS::S3::Bucket", "Logs")
    assert result["resources"][0]["attributes"][0]["path"] == ["AccessControl"]


@needs_opa
def test_a_legacy_rule_for_cloudformation_skips_terraform(tmp_path: Path) -> None:
    doc = _legacy_scan(tmp_path, CFN_RULE, "main.tf", MAIN_TF)
    assert doc["errors"] == []
    assert doc["results"][0]["rule_results"] == []


K8S = """apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  containers:
    - name: app
      image: nginx
      securityContext:
        privileged: true
"""

K8S_RULE = """package rules

import rego.v1

deny contains msg if {
	some c in input.spec.containers
	c.securityContext.privileged
	msg := {"publicId": "K8S-1", "title": "t", "severity": "high",
		"msg": sprintf("pod.spec.containers[%s].securityContext.privileged", [c.name])}
}
"""


@needs_opa
def test_a_legacy_rule_is_asked_per_kubernetes_object(tmp_path: Path) -> None:
    doc = _legacy_scan(tmp_path, K8S_RULE, "pod.yaml", K8S)
    assert doc["errors"] == []
    ((result,),) = [r["results"] for r in doc["results"][0]["rule_results"]]
    assert (result["resource_type"], result["resource_namespace"]) == ("Pod", "shop")
    # The leading kind is dropped and the container named "app" becomes index 0.
    assert result["resources"][0]["attributes"][0]["path"] == [
        "spec",
        "containers",
        0,
        "securityContext",
        "privileged",
    ]


@needs_opa
def test_a_legacy_rule_over_an_input_type_without_a_legacy_shape_is_an_error(
    tmp_path: Path,
) -> None:
    doc = state({"b": {"acl": "public-read"}})
    doc["input_type"] = "custom_type"
    write(tmp_path / "rules" / "legacy.rego", LEGACY_RULE)
    write_json(tmp_path / "in" / "state.json", doc)
    report = scan([tmp_path / "in" / "state.json"], [tmp_path / "rules"]).to_dict()
    ((rule,),) = [r["rule_results"] for r in report["results"]]
    assert rule["results"] == []
    (error,) = rule["errors"]
    assert "legacy.rego" in error and "not custom_type" in error
