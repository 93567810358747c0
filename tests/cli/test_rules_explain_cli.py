"""`rego-engine rules --explain ID`: one rule described, with an example from examples/."""

from __future__ import annotations

import json

from click.testing import CliRunner, Result
from oracle import needs_opa

from engine.cli.main import app
from engine.core.paths import REPO_ROOT

pytestmark = needs_opa


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, ["rules", *args], catch_exceptions=False)


def test_a_shipped_rule_is_explained_with_its_example() -> None:
    result = invoke("--explain", "re-aws-003")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert text.startswith("RE-AWS-003: S3 buckets are not readable or writable by everyone\n")
    assert "Input types:  cloud_scan, tf_hcl, tf_plan, tf_state\n" in text
    assert "aws_s3_bucket.acl, aws_s3_bucket.policy, aws_s3_bucket.public_access_block" in text
    assert "Description:\n  A public-read, public-read-write" in text
    assert "  terraform: Use the private ACL" in text
    assert "examples/terraform/storage.tf:79: aws_s3_bucket.site: " in text
    assert '    resource "aws_s3_bucket" "site" {\n' in text
    # the same text as the rule's docs page carries
    page = (REPO_ROOT / "docs" / "rules" / "RE-AWS-003.md").read_text(encoding="utf-8")
    assert "`examples/terraform/storage.tf:79`" in page


def test_json_and_rules_given_with_d() -> None:
    result = invoke("-d", str(REPO_ROOT / "examples" / "custom-rules"), "--explain",
                    "EXAMPLE_001", "--format", "json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["id"] == "EXAMPLE_001" and doc["input_types"] == [
        "cloud_scan", "tf_hcl", "tf_plan", "tf_state"
    ]  # fmt: skip
    assert doc["remediation"] and doc["description"]
    assert doc["example"]["file"].startswith("examples/terraform/")
    assert doc["example"]["line"] > 0 and doc["example"]["snippet"]


def test_an_unknown_id_is_an_error() -> None:
    result = invoke("--explain", "RE-AWS-99")
    assert result.exit_code == 2
    assert "--explain RE-AWS-99: no rule has this id or package" in result.stderr
    assert result.stdout == ""
