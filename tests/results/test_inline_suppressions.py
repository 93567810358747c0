"""Inline suppressions end to end: comments in Terraform, CloudFormation and
Kubernetes files mark results ignored, with their reason and place, in every
format; warnings for comments that cannot apply; --no-inline-suppressions."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from sarif_schema import validate_sarif
from scan_fixtures import write

from engine.cli.main import app
from engine.evaluation.bundle import build_bundle
from engine.results.formats import render
from engine.results.report import ScanReport
from engine.scanning.scanner import ScanOptions, scan

TF_RULE = """\
package rules.tf_versioning
import rego.v1

metadata := {
  "id": "X-TF-1", "title": "versioning", "severity": "medium",
  "aliases": ["CKV_AWS_21", "aws-s3-enable-versioning"],
}
input_type := "tf"
resource_type := "aws_s3_bucket"

deny contains {"message": "no versioning"} if not input.versioning
"""

CFN_RULE = """\
package rules.cfn_versioning
import rego.v1

metadata := {"id": "X-CFN-1", "title": "versioning", "severity": "medium",
  "aliases": ["CKV_AWS_21"]}
input_type := "cfn"
resource_type := "AWS::S3::Bucket"

deny contains {"message": "no versioning"} if not input.VersioningConfiguration
"""

K8S_RULE = """\
package rules.k8s_host_network
import rego.v1

metadata := {"id": "X-K8S-1", "title": "host network", "severity": "high"}
input_type := "k8s"
resource_type := "Pod"

deny contains {"message": "host network"} if input.spec.hostNetwork == true
"""

MAIN_TF = """\
# rego-engine:ignore X-TF-1 scratch bucket, rebuilt daily
resource "aws_s3_bucket" "above" {}

resource "aws_s3_bucket" "on_line" { # checkov:skip=CKV_AWS_21:a cache
}

#tfsec:ignore:aws-s3-enable-versioning
resource "aws_s3_bucket" "tfsec" {}

# rego-engine:ignore X-TF-1 a blank line parts this comment from the bucket

resource "aws_s3_bucket" "detached" {}

# rego-engine:ignore X-TF-404 no such rule
# rego-engine:ignore rules.tf_versioning
resource "aws_s3_bucket" "package" {}
"""

TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  # checkov:skip=CKV_AWS_21:logs expire after a day
  Logs:
    Type: AWS::S3::Bucket
  Data:  # rego-engine:ignore X-CFN-2 names another rule
    Type: AWS::S3::Bucket
"""

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: plain
spec:
  hostNetwork: true
---
# rego-engine:ignore X-K8S-1 the node exporter needs the host network
apiVersion: v1
kind: Pod
metadata:
  name: exporter
spec:
  hostNetwork: true
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("inline")
    write(root / "rules" / "tf.rego", TF_RULE)
    write(root / "rules" / "cfn.rego", CFN_RULE)
    write(root / "rules" / "k8s.rego", K8S_RULE)
    write(root / "in" / "tf" / "main.tf", MAIN_TF)
    write(root / "in" / "template.yaml", TEMPLATE)
    write(root / "in" / "k8s" / "pods.yaml", POD)
    return root


def outcomes(report: ScanReport) -> dict[str, tuple[bool, str]]:
    """Failing results by resource id: (ignored, reason)."""
    return {
        r.resource_id: (r.ignored, r.ignore_reason)
        for i in report.inputs
        for rule in i.rule_results
        for r in rule.results
        if not r.passed
    }


@pytest.fixture(scope="module")
def report(tree: Path) -> ScanReport:
    return scan([tree / "in"], [tree / "rules"])


def test_comments_above_and_on_the_line_suppress_that_rule(report: ScanReport) -> None:
    found = outcomes(report)
    tf = next(i.input.path for i in report.inputs if i.input.path.endswith("tf"))
    cfn = next(i.input.path for i in report.inputs if i.input.path.endswith("template.yaml"))
    k8s = next(i.input.path for i in report.inputs if i.input.path.endswith("k8s"))
    assert found["aws_s3_bucket.above"] == (
        True,
        f"inline: scratch bucket, rebuilt daily ({tf}/main.tf:1)",
    )
    assert found["aws_s3_bucket.on_line"] == (True, f"inline: a cache ({tf}/main.tf:4)")
    assert found["aws_s3_bucket.tfsec"] == (True, f"inline: no reason given ({tf}/main.tf:7)")
    assert found["aws_s3_bucket.package"] == (
        True,
        f"inline: no reason given ({tf}/main.tf:15)",
    )
    assert found["aws_s3_bucket.detached"] == (False, "")
    assert found["Logs"] == (True, f"inline: logs expire after a day ({cfn}:3)")
    assert found["Data"] == (False, "")
    assert found["exporter"] == (
        True,
        f"inline: the node exporter needs the host network ({k8s}/pods.yaml:8)",
    )
    assert found["plain"] == (False, "")
    assert report.exit_code() == 1  # detached, Data and plain still fail


def test_comments_that_cannot_apply_are_warnings(report: ScanReport) -> None:
    tf = next(i.input.path for i in report.inputs if i.input.path.endswith("tf"))
    cfn = next(i.input.path for i in report.inputs if i.input.path.endswith("template.yaml"))
    assert report.warnings == [
        f"{cfn}:6: inline suppression names rule 'X-CFN-2', which no rule of the scan declares",
        f"{tf}/main.tf:7: inline suppression of aws-s3-enable-versioning gives no reason",
        f"{tf}/main.tf:14: inline suppression names rule 'X-TF-404', which no rule of the "
        "scan declares",
        f"{tf}/main.tf:15: inline suppression of rules.tf_versioning gives no reason",
    ]


def test_peer_spellings_need_an_alias(tmp_path: Path) -> None:
    write(tmp_path / "rules" / "k8s.rego", K8S_RULE)
    write(
        tmp_path / "in" / "pod.yaml",
        "# checkov:skip=CKV_K8S_19:the rule declares no aliases\n" + POD.split("---\n")[0],
    )
    found = scan([tmp_path / "in"], [tmp_path / "rules"])
    assert outcomes(found)["plain"] == (False, "")
    assert [w.split(": ", 1)[1] for w in found.warnings] == [
        "inline suppression names checkov check 'CKV_K8S_19', which no rule of the scan declares"
    ]


def test_workers_give_the_same_report(tree: Path, report: ScanReport) -> None:
    parallel = scan([tree / "in"], [tree / "rules"], ScanOptions(jobs=2))
    assert outcomes(parallel) == outcomes(report)
    assert parallel.warnings == report.warnings
    assert parallel.to_json() == report.to_json()


def test_a_bundle_keeps_the_aliases(tree: Path, report: ScanReport, tmp_path: Path) -> None:
    build_bundle([tree / "rules"], tmp_path / "rules.tar.gz")
    from_bundle = scan([tree / "in"], [], ScanOptions(bundle=tmp_path / "rules.tar.gz"))
    assert outcomes(from_bundle) == outcomes(report)
    assert from_bundle.warnings == report.warnings


def test_the_outputs_show_the_suppression(report: ScanReport) -> None:
    tf = next(i.input.path for i in report.inputs if i.input.path.endswith("tf"))
    reason = f"inline: scratch bucket, rebuilt daily ({tf}/main.tf:1)"
    document = json.loads(render(report, "json"))
    [above] = [
        r
        for entry in document["results"]
        for rule in entry["rule_results"]
        for r in rule["results"]
        if r["resource_id"] == "aws_s3_bucket.above"
    ]
    assert above["ignored"] is True
    assert above["resources"][0]["location"] == {
        "filepath": f"{tf}/main.tf",
        "line": 2,
        "column": 1,
    }
    sarif = validate_sarif(render(report, "sarif"))
    suppressed = [
        r for r in sarif["runs"][0]["results"] if r.get("suppressions") and "main.tf:1)" in str(r)
    ]
    assert suppressed[0]["suppressions"] == [
        {"kind": "external", "status": "accepted", "justification": reason}
    ]
    assert suppressed[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    table = render(report, "table", width=400).decode()
    assert f"(ignored: {reason})" in table
    assert "3 failed, 6 ignored, 0 errors" in table.replace("\n", " ")
    junit = ElementTree.fromstring(render(report, "junit"))
    skipped = [s.get("message") for s in junit.iter("skipped")]
    assert f"ignored: {reason}" in skipped


def test_no_inline_suppressions_turns_them_off(tree: Path) -> None:
    off = scan([tree / "in"], [tree / "rules"], ScanOptions(inline_suppressions=False))
    assert not any(ignored for ignored, _ in outcomes(off).values())
    assert off.warnings == []
    runner = CliRunner()
    args = ["scan", str(tree / "in"), "-d", str(tree / "rules"), "-f", "json"]
    on = runner.invoke(app, args)
    assert '"ignored": true' in on.stdout
    disabled = runner.invoke(app, [*args, "--no-inline-suppressions"])
    assert disabled.exit_code == 1
    assert '"ignored": true' not in disabled.stdout
    assert "inline suppression" not in disabled.stderr


MULTI_RULE = """\
package rules.tf_bucket_count
import rego.v1

metadata := {"id": "X-TF-9", "title": "bucket count", "severity": "low"}
input_type := "tf"
resource_type := "MULTIPLE"

deny contains {"message": "too few buckets", "resource_type": "aws_s3_bucket"} if true
"""


def test_a_result_without_a_located_resource_is_left_alone(tmp_path: Path) -> None:
    write(tmp_path / "rules" / "multi.rego", MULTI_RULE)
    write(
        tmp_path / "in" / "main.tf",
        '# rego-engine:ignore X-TF-9 one is enough\nresource "aws_s3_bucket" "one" {}\n',
    )
    report = scan([tmp_path / "in"], [tmp_path / "rules"])
    (result,) = [r for i in report.inputs for rule in i.rule_results for r in rule.results]
    assert (result.passed, result.resource_id, result.ignored) == (False, "", False)
