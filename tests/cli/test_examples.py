"""The README's main job: the default scan (the shipped rule pack) of examples/.

Also the same inputs with ``-d examples/custom-rules``: only the given rules
run, and the shipped relations they name stay available.
"""

from __future__ import annotations

import gc
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner
from github_commands import decode_command
from oracle import needs_opa
from sarif_schema import validate_sarif

from engine.cli.main import app
from engine.results.formats import table
from engine.results.report import ScanReport
from engine.rules.rule_pack import shipped_rule_files
from engine.rules.selection import RuleSelection
from engine.scanning.scanner import ScanOptions, scan
from engine.wasm import wasmtime_adapter

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

pytestmark = needs_opa

# (input, rule id, resource id, result tag) of every failing result.
EXPECTED_FAILURES = [
    ("api.yaml", "RE-CFN-001", "ExportsBucket", "BlockPublicPolicy"),
    ("api.yaml", "RE-CFN-001", "ExportsBucket", "RestrictPublicBuckets"),
    ("api.yaml", "RE-CFN-002", "ExportsBucket", "statement[PartnersRead]"),
    ("api.yaml", "RE-CFN-003", "ExportsBucket", ""),
    ("api.yaml", "RE-CFN-004", "ExportsBucket", ""),
    ("api.yaml", "RE-CFN-005", "AdminSecurityGroup", "port[22]"),
    ("api.yaml", "RE-CFN-006", "ApiRole", "ApiRoleWildcard"),
    ("api.yaml", "RE-CFN-007", "ApiFunction", "ApiUrlPermission"),
    ("api.yaml", "RE-CFN-008", "Database", "StorageEncrypted"),
    ("api.yaml", "RE-CFN-009", "Trail", "IsMultiRegionTrail"),
    ("api.yaml", "RE-CFN-009", "Trail", "KMSKeyId"),
    ("kubernetes", "RE-K8S-001", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-002", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-003", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-004", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-006", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-007", "web", "service[web]"),
    ("kubernetes", "RE-K8S-008", "nightly-deploy", "ClusterRoleBinding[deployer-admin]"),
    ("kubernetes", "RE-K8S-009", "nightly-deploy", ""),
    ("kubernetes", "RE-K8S-020", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-021", "nightly-deploy", "container[deploy]"),
    ("kubernetes", "RE-K8S-021", "web", "container[app]"),
    ("kubernetes", "RE-K8S-021", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-021", "worker", "container[worker]"),
    ("kubernetes", "RE-K8S-022", "nightly-deploy", "container[deploy]"),
    ("kubernetes", "RE-K8S-022", "web", "container[app]"),
    ("kubernetes", "RE-K8S-022", "web", "container[log-shipper]"),
    ("kubernetes", "RE-K8S-022", "worker", "container[worker]"),
    ("plan.json", "RE-AWS-011", "aws_instance.worker", "root_block_device"),
    ("plan.json", "RE-AWS-012", "aws_iam_policy.deploy", "statement[Deploy]"),
    ("plan.json", "RE-AWS-017", "aws_lambda_function.api", "aws_lambda_permission.public_url"),
    ("plan.json", "RE-AWS-018", "aws_db_instance.orders", "publicly_accessible"),
    ("terraform", "RE-AWS-001", "aws_s3_bucket.access_logs", ""),
    ("terraform", "RE-AWS-001", 'aws_s3_bucket.app["uploads"]', ""),
    ("terraform", "RE-AWS-001", "aws_s3_bucket.site", ""),
    ("terraform", "RE-AWS-002", "aws_s3_bucket.access_logs", "public_access_block"),
    ("terraform", "RE-AWS-002", 'aws_s3_bucket.app["assets"]', "public_access_block"),
    ("terraform", "RE-AWS-002", 'aws_s3_bucket.app["uploads"]', "public_access_block"),
    ("terraform", "RE-AWS-002", "aws_s3_bucket.site", "public_access_block"),
    ("terraform", "RE-AWS-003", "aws_s3_bucket.site", "acl"),
    ("terraform", "RE-AWS-003", "aws_s3_bucket.site", "statement[PublicRead]"),
    ("terraform", "RE-AWS-004", "aws_s3_bucket.access_logs", ""),
    ("terraform", "RE-AWS-004", 'aws_s3_bucket.app["assets"]', ""),
    ("terraform", "RE-AWS-004", 'aws_s3_bucket.app["uploads"]', ""),
    ("terraform", "RE-AWS-004", "aws_s3_bucket.site", ""),
    ("terraform", "RE-AWS-005", 'aws_s3_bucket.app["assets"]', ""),
    ("terraform", "RE-AWS-005", 'aws_s3_bucket.app["uploads"]', ""),
    ("terraform", "RE-AWS-005", "aws_s3_bucket.site", ""),
    ("terraform", "RE-AWS-006", "aws_s3_bucket.access_logs", ""),
    ("terraform", "RE-AWS-006", 'aws_s3_bucket.app["assets"]', ""),
    ("terraform", "RE-AWS-006", 'aws_s3_bucket.app["uploads"]', ""),
    ("terraform", "RE-AWS-006", "aws_s3_bucket.site", ""),
    ("terraform", "RE-AWS-007", "aws_s3_bucket.access_logs", ""),
    ("terraform", "RE-AWS-007", 'aws_s3_bucket.app["assets"]', ""),
    ("terraform", "RE-AWS-007", 'aws_s3_bucket.app["uploads"]', ""),
    ("terraform", "RE-AWS-007", "aws_s3_bucket.site", ""),
    ("terraform", "RE-AWS-008", "aws_security_group.bastion", "port[22]"),
    ("terraform", "RE-AWS-009", "aws_security_group.bastion", "attached[aws_instance.bastion]"),
    ("terraform", "RE-AWS-010", "aws_instance.bastion", ""),
    ("terraform", "RE-AWS-013", "aws_instance.bastion", ""),
    ("terraform", "RE-AWS-016", "aws_kms_key.data", ""),
    ("terraform", "RE-AWS-025", "aws_cloudtrail.main", ""),
]


def _failing(report: ScanReport) -> list[tuple[str, str, str, str]]:
    return sorted(
        (Path(scanned.input.path).name, rules.metadata.id, result.resource_id, result.result_tag)
        for scanned in report.inputs
        for rules in scanned.rule_results
        for result in rules.results
        if not result.passed
    )


def test_the_default_scan_finds_what_the_examples_hold() -> None:
    report = scan([EXAMPLES], shipped_rule_files())
    assert report.errors == [] and report.warnings == []
    assert report.exit_code() == 1
    assert _failing(report) == EXPECTED_FAILURES
    passed = {
        scanned.input.state.input_type
        for scanned in report.inputs
        for rules in scanned.rule_results
        for result in rules.results
        if result.passed
    }
    assert passed == {"tf_hcl", "tf_plan", "cfn", "k8s"}


def test_a_scan_frees_its_wasm_instance_before_returning() -> None:
    # Not left to the collector: a big input's Wasm memory is GiBs.
    gc.collect()
    before = wasmtime_adapter.host_function_count()
    gc.disable()
    try:
        report = scan([EXAMPLES / "kubernetes"], shipped_rule_files())
        assert wasmtime_adapter.host_function_count() == before
    finally:
        gc.enable()
    assert report.failing_results()


def test_every_failing_result_names_its_file_and_line() -> None:
    report = scan([EXAMPLES], shipped_rule_files())
    failing_types = set()
    for scanned in report.inputs:
        for rules in scanned.rule_results:
            for result in rules.results:
                if result.passed:
                    continue
                failing_types.add(scanned.input.state.input_type)
                location = result.resources[0].location
                assert location is not None, (rules.metadata.id, result.resource_id)
                assert Path(location["filepath"]).resolve().is_relative_to(EXAMPLES)
                assert location["line"] >= 1 and location["column"] >= 1
    assert len(failing_types) >= 3
    assert failing_types == {"tf_hcl", "tf_plan", "cfn", "k8s"}


def test_the_cli_without_d_runs_the_shipped_pack(monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(app, ["scan", "examples/"])
    assert result.exit_code == 1, result.output
    assert '"id":"RE-K8S-007"' in result.stdout.replace(" ", "")


def test_the_tour_result_is_the_one_the_readme_shows() -> None:
    report = scan([EXAMPLES / "kubernetes"], shipped_rule_files())
    (rules,) = [r for r in report.inputs[0].rule_results if r.metadata.id == "RE-K8S-007"]
    (failing,) = [r for r in rules.results if not r.passed]
    assert failing.message == (
        "The workload runs privileged container log-shipper and is exposed through "
        "Ingress storefront (shop.example.com/) via Service web."
    )
    assert (failing.resource_id, failing.resource_type, failing.result_tag) == (
        "web",
        "Deployment",
        "service[web]",
    )
    assert failing.severity == "critical"
    location = failing.resources[0].location
    assert Path(location["filepath"]).resolve() == EXAMPLES / "kubernetes" / "web.yaml"
    assert (location["line"], location["column"]) == (3, 1)


def test_the_tour_relations_are_the_ones_the_readme_shows(monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(app, ["relations", "examples/kubernetes", "--edges"])
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.stdout.splitlines()]
    for edge in [
        'storefront --Ingress.backend--> web {"host":"shop.example.com","path":"/"}',
        "default-deny --NetworkPolicy.podSelector--> web",
        "default-deny --NetworkPolicy.podSelector--> worker",
        "web --Service.selector--> web",
    ]:
        assert edge in lines
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "rego-engine scan examples/" in readme
    assert "`make example` runs `rego-engine scan examples/`" in readme


def test_with_d_only_the_given_rules_run_and_shipped_relations_stay() -> None:
    report = scan([EXAMPLES], [EXAMPLES / "custom-rules"])
    assert report.errors == []
    ran = {rules.metadata.id for scanned in report.inputs for rules in scanned.rule_results}
    assert ran == {"EXAMPLE_001", "EXAMPLE_002", "EXAMPLE_003", "EXAMPLE_004"}
    # EXAMPLE_001 joins buckets to their encryption through a shipped relation.
    assert [f for f in _failing(report) if f[1] == "EXAMPLE_001"] == [
        ("terraform", "EXAMPLE_001", "aws_s3_bucket.access_logs", ""),
        ("terraform", "EXAMPLE_001", 'aws_s3_bucket.app["uploads"]', ""),
        ("terraform", "EXAMPLE_001", "aws_s3_bucket.site", ""),
    ]


def test_every_format_points_at_the_offending_attribute_and_lists_related_places(
    monkeypatch,
) -> None:
    """RE-AWS-003 fails the bucket through its ACL resource: each format shows
    the ``acl`` attribute (storage.tf:86) and the bucket (storage.tf:79)."""
    monkeypatch.chdir(REPO)
    storage = "examples/terraform/storage.tf"
    outputs = {}
    for fmt in ("sarif", "github", "junit", "json"):
        result = CliRunner().invoke(
            app, ["scan", "examples/terraform", "--rule", "RE-AWS-003", "-f", fmt]
        )
        assert result.exit_code == 1, result.output
        outputs[fmt] = result.stdout
    # the results document is the source
    document = json.loads(outputs["json"])
    (rule,) = [r for r in document["results"][0]["rule_results"] if r["id"] == "RE-AWS-003"]
    acl = next(r for r in rule["results"] if r["result_tag"] == "acl" and not r["passed"])
    by_id = {r["id"]: r for r in acl["resources"]}
    assert by_id["aws_s3_bucket.site"]["location"]["line"] == 79
    assert by_id["aws_s3_bucket_acl.site"]["attributes"][0]["location"]["line"] == 86

    log = validate_sarif(outputs["sarif"].encode())
    sarif_acl = next(r for r in log["runs"][0]["results"] if r["properties"]["resultTag"] == "acl")
    physical = sarif_acl["locations"][0]["physicalLocation"]
    assert (physical["artifactLocation"]["uri"], physical["region"]["startLine"]) == (storage, 86)
    assert sarif_acl["locations"][0]["message"]["text"] == "aws_s3_bucket_acl.site: acl"
    assert [
        (r["physicalLocation"]["region"]["startLine"], r["message"]["text"])
        for r in sarif_acl["relatedLocations"]
    ] == [(79, "aws_s3_bucket.site")]

    annotations = [
        decode_command(line) for line in outputs["github"].splitlines() if line.startswith("::")
    ]
    (github_acl,) = [c for c in annotations if acl["message"] in c[2]]
    assert (github_acl[1]["file"], github_acl[1]["line"]) == (storage, "86")
    assert f"related: aws_s3_bucket.site at {storage}:79:1" in github_acl[2].splitlines()

    root = ET.fromstring(outputs["junit"])
    failures = [f.text or "" for f in root.iter("failure") if f.get("message") == acl["message"]]
    (junit_acl,) = failures
    assert f"location: {storage}:86:3 (aws_s3_bucket_acl.site: acl)" in junit_acl
    assert f"related: aws_s3_bucket.site at {storage}:79:1" in junit_acl

    # at 120 columns (the CLI's width off a terminal) the location column folds: wider here
    selected = ScanOptions(selection=RuleSelection(("RE-AWS-003",)))
    report = scan([Path("examples/terraform")], shipped_rule_files(), selected)
    rows = table.render(report, width=200).decode().splitlines()
    at = next(i for i, row in enumerate(rows) if f"{storage}:86:3" in row)
    assert rows[at].startswith("FAIL")
    assert re.match(rf" +↳ aws_s3_bucket\.site +{re.escape(storage)}:79:1 +related", rows[at + 1])
