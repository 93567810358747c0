"""A user's own fugue library (regula's lib/) wins over the shipped one in a scan."""

from __future__ import annotations

from pathlib import Path

from oracle import needs_opa

from engine.evaluation.prepared_rules import compile_rules
from engine.rules.rule_set import discover_rules, dispatch_module
from engine.scanning.scanner import scan

CORPUS = Path(__file__).parent.parent / "regula_style_scan"
RULES = [CORPUS / "lib", CORPUS / "rules"]


@needs_opa
def test_the_users_fugue_is_compiled_and_sees_regula_input() -> None:
    report = scan([CORPUS / "inputs"], RULES)
    doc = report.to_dict()
    assert doc["warnings"] == [] and doc["errors"] == []
    (rule,) = doc["results"][0]["rule_results"]
    seen = sorted(
        (r["resource_type"], r["resource_namespace"], r["resource_id"], r["passed"], r["message"])
        for r in rule["results"]
    )
    # The library saw regula's Kubernetes ids; results name the engine's resources.
    assert seen == [
        ("Pod", "default", "web", False, "own fugue: Pod.default.web"),
        ("Pod", "other", "web", True, ""),  # a passing result has no message
        ("ServiceAccount", "default", "web", False, "own fugue: ServiceAccount.default.web"),
    ]


@needs_opa
def test_the_shipped_fugue_keys_kubernetes_objects_by_kind_namespace_and_name() -> None:
    report = scan([CORPUS / "inputs"], [CORPUS / "rules"])
    doc = report.to_dict()
    assert doc["errors"] == []
    (rule,) = doc["results"][0]["rule_results"]
    seen = sorted(
        (r["resource_type"], r["resource_namespace"], r["passed"]) for r in rule["results"]
    )
    assert seen == [
        ("Pod", "default", False),
        ("Pod", "other", True),
        ("ServiceAccount", "default", False),
    ]


@needs_opa
def test_a_user_fugue_is_no_longer_skipped_with_a_warning() -> None:
    prepared = compile_rules(RULES)
    assert prepared.warnings == []


def test_the_dispatch_asks_multi_judgements_with_regula_input_only_for_a_user_fugue() -> None:
    rules = discover_rules([])
    assert "fugue_input" in dispatch_module(rules, user_fugue=True)
    assert "fugue_input" not in dispatch_module(rules)


@needs_opa
def test_a_user_snyk_package_is_still_skipped_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "snyk.rego").write_text("package snyk\n\nresources(t) := []\n")
    prepared = compile_rules([tmp_path, CORPUS / "rules"])
    assert prepared.warnings == [
        f"{tmp_path / 'snyk.rego'}: skipped: it defines the snyk package the engine ships"
    ]
