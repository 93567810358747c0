"""snyk.terraform helpers in a scan, over the provider metadata the Terraform loaders write."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import needs_opa
from scan_fixtures import write

from engine.scanning.scanner import scan

pytestmark = needs_opa

LOADERS = Path(__file__).parent.parent / "loaders"

RULE = """package rules.provider_versions

import data.snyk
import rego.v1

input_type := "tf"

metadata := {"id": "PV_1", "title": "provider versions"}

ok(r, c) := "y" if snyk.terraform.resource_provider_version_constraint(r, c)

else := "n"

deny contains info if {
	some t in snyk.input_resource_types
	some r in snyk.resources(t)
	region := object.get(r, ["_meta", "terraform", "provider_config", "region"], "-")
	info := {
		"resource": r,
		"message": concat(" ", [
			region,
			ok(r, ">= 5.40"), ok(r, ">= 5.41"), ok(r, "< 5"),
			ok(r, "= 5.0.7"), ok(r, "!= 5.40.0, < 6"),
		]),
	}
}
"""


def _messages(input_path: Path, rules: Path) -> dict[str, str]:
    doc = scan([input_path], [rules]).to_dict()
    assert doc["errors"] == [] and doc["warnings"] == []
    (rule,) = doc["results"][0]["rule_results"]
    return {r["resource_id"]: r["message"] for r in rule["results"]}


@pytest.fixture()
def rules(tmp_path: Path) -> Path:
    write(tmp_path / "rules" / "provider_versions.rego", RULE)
    return tmp_path / "rules"


def test_hcl_resources_are_judged_by_their_required_providers_version(rules: Path) -> None:
    # aws: version "~> 5.40" (read as snyk reads it: >= 5.40.0, < 5.41.0); google
    # and azurerm: no version constraint, compatible with every constraint.
    # (the module directory holds other parity cases' resources too: these three are ours)
    expected = {
        "aws_sqs_queue.jobs": "eu-west-3 y n n n y",
        "google_pubsub_topic.events": "- y y y y y",
        "azurerm_resource_group.main": "- y y y y y",
    }
    found = _messages(LOADERS / "tf_hcl" / "snyk_parity" / "main.tf", rules)
    assert {key: found.get(key) for key in expected} == expected


def test_plan_resources_are_judged_by_the_plans_version_constraint(rules: Path) -> None:
    # aws_s3_bucket.logs: "~> 5.0"; aws_sqs_queue.jobs (another provider): none.
    assert _messages(LOADERS / "tf_plan" / "snyk_parity" / "input.json", rules) == {
        "aws_s3_bucket.logs": "us-west-2 n n n y y",
        "aws_sqs_queue.jobs": "- y y y y y",
    }


def test_state_resources_carry_no_constraint_and_match_every_one(rules: Path) -> None:
    assert _messages(LOADERS / "tf_state" / "snyk_parity" / "state.json", rules) == {
        "aws_sns_topic.alerts": "- y y y y y",
        "data.aws_region.current": "- y y y y y",
    }


def test_a_user_snyk_terraform_package_replaces_the_shipped_one(
    rules: Path, tmp_path: Path
) -> None:
    own = (
        "package snyk.terraform\n\nimport rego.v1\n\n"
        'resource_provider_version_constraint(_, c) if c == ">= 5.41"\n'
    )
    write(tmp_path / "lib" / "terraform.rego", own)
    doc = scan(
        [LOADERS / "tf_state" / "snyk_parity" / "state.json"], [rules, tmp_path / "lib"]
    ).to_dict()
    assert doc["errors"] == [] and doc["warnings"] == []
    (rule,) = doc["results"][0]["rule_results"]
    assert {r["message"] for r in rule["results"]} == {"- n y n n n"}
