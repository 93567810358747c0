"""The README's main job: the default scan (the shipped rule pack) of examples/.

Also the same inputs with ``-d examples/custom-rules``: only the given rules
run, and the shipped relations they name stay available.
"""

from __future__ import annotations

import gc
from pathlib import Path

from oracle import needs_opa
from typer.testing import CliRunner

from engine.cli.main import app
from engine.results.report import ScanReport
from engine.rules.rule_pack import shipped_rule_files
from engine.scanning.scanner import scan
from engine.wasm import host as wasm_host

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
    before = len(wasm_host._HOST_FUNCS)
    gc.disable()
    try:
        report = scan([EXAMPLES / "kubernetes"], shipped_rule_files())
        assert len(wasm_host._HOST_FUNCS) == before
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
