"""`rego-engine test` gives rules the snyk.terraform helpers as a scan does."""

from __future__ import annotations

from pathlib import Path

from oracle import needs_opa
from scan_fixtures import write

from engine.testing.runner import run_tests

pytestmark = needs_opa

STATE = """{
	"input_type": "tf_hcl",
	"resources": {"aws_sqs_queue": {"aws_sqs_queue.jobs": {
		"id": "aws_sqs_queue.jobs",
		"resource_type": "aws_sqs_queue",
		"namespace": "main.tf",
		"attributes": {"name": "jobs"},
		"meta": {"terraform": {"provider_version_constraint": "~> 5.40"}}
	}}}
}"""

TESTS = f"""package rules.provider_versions_test

import data.snyk
import rego.v1

state := {STATE}

queue := q if {{
	q := snyk.resources("aws_sqs_queue")[0] with input as state
}}

test_compatible if snyk.terraform.resource_provider_version_constraint(queue, ">= 5.40")

test_incompatible if not snyk.terraform.resource_provider_version_constraint(queue, "< 5")

test_without_constraint if snyk.terraform.resource_provider_version_constraint({{}}, "= 1")

test_helpers if {{
	snyk.terraform.parse_semver("5.40") == [5, 40, 0]
	terms := snyk.terraform.parse_semver_constraints(">= 1, ~> 2.1.3")
	terms == {{[">=", [1, 0, 0]], ["~>", [2, 1, 3]]}}
	snyk.terraform.semver_constraints_intersect("~> 1.2", "> 1.1")
	not snyk.terraform.semver_constraints_intersect("~> 1.2", "= 1.3")
}}

test_expected_to_fail if snyk.terraform.resource_provider_version_constraint(queue, ">= 6")
"""


def test_the_helpers_run_in_test_mode(tmp_path: Path) -> None:
    write(tmp_path / "provider_versions_test.rego", TESTS)
    run = run_tests([tmp_path])
    assert run.problems == []
    verdicts = {o.test.name: o.verdict for o in run.outcomes}
    assert verdicts == {
        "test_compatible": "PASS",
        "test_incompatible": "PASS",
        "test_without_constraint": "PASS",
        "test_helpers": "PASS",
        "test_expected_to_fail": "FAIL",
    }


def test_a_tree_with_its_own_snyk_terraform_uses_it(tmp_path: Path) -> None:
    write(
        tmp_path / "terraform.rego",
        "package snyk.terraform\n\nimport rego.v1\n\n"
        'resource_provider_version_constraint(_, c) if c == "own"\n',
    )
    write(
        tmp_path / "own_test.rego",
        "package own_test\n\nimport data.snyk\nimport rego.v1\n\n"
        'test_own if snyk.terraform.resource_provider_version_constraint({}, "own")\n\n'
        'test_shipped if snyk.terraform.resource_provider_version_constraint({}, ">= 1")\n',
    )
    run = run_tests([tmp_path])
    assert run.problems == []
    assert {o.test.name: o.verdict for o in run.outcomes} == {
        "test_own": "PASS",
        "test_shipped": "FAIL",
    }
