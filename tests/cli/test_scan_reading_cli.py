"""`rego-engine scan` results a person reads and nothing passing silently: uncovered
resources, conftest-style policies, warnings (``warn``), per-severity counts,
``--show-code`` and SARIF ``helpUri``/``help``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from oracle import needs_opa
from sarif_schema import validate_sarif

from engine.cli.main import app

pytestmark = needs_opa

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: app
          image: nginx:1.25
"""

SERVICE = """\
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
    - port: 80
"""

DENY_AND_WARN = """\
package rules.review

import data.snyk
import rego.v1

metadata := {
	"id": "T_001",
	"title": "Deployments are reviewed",
	"severity": "high",
	"references": ["https://example.com/t1"],
}

deny contains info if {
	some d in snyk.resources("Deployment")
	d.metadata.name == "web"
	info := {"resource": d, "message": "denied", "result_tag": "deny"}
}

warn contains info if {
	some d in snyk.resources("Deployment")
	info := {
		"resource": d, "message": "warned", "result_tag": "warn",
		"attributes": [["spec", "template"]],
	}
}
"""

WARN_ONLY_SINGLE = """\
package rules.single_warn

import rego.v1

resource_type := "Deployment"

metadata := {"id": "T_002", "title": "Single warn", "severity": "critical"}

warn contains "a warning" if input.metadata.name == "web"
"""

SINGLE_DENY_AND_WARN = """\
package rules.single_both

import rego.v1

resource_type := "Deployment"

metadata := {"id": "T_003", "title": "Single both", "severity": "medium"}

deny contains "denied" if input.metadata.name == "other"

warn contains "warned" if input.metadata.name == "web"
"""

CONFTEST = """\
package main

import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	msg := "no"
}

violation contains msg if {
	input.kind == "Deployment"
	msg := "no"
}
"""


def tree(tmp_path: Path, rules: dict[str, str], inputs: dict[str, str]) -> tuple[Path, Path]:
    rule_dir = tmp_path / "rules"
    input_dir = tmp_path / "in"
    for directory, files in ((rule_dir, rules), (input_dir, inputs)):
        directory.mkdir()
        for name, text in files.items():
            (directory / name).write_text(text)
    return rule_dir, input_dir


def scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(app, ["scan", *args], catch_exceptions=False)


def test_uncovered_resources_are_counted_by_type_and_can_fail_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree(tmp_path, {"single.rego": WARN_ONLY_SINGLE}, {"d.yaml": DEPLOYMENT, "s.yaml": SERVICE})
    table = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "table")
    assert table.exit_code == 0
    assert "1 resource no rule checks (1 type): Service (1)" in table.stdout
    failing = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "json", "--fail-on-uncovered")
    assert failing.exit_code == 1


def test_a_scan_no_rule_applied_to_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree(
        tmp_path,
        {"single.rego": WARN_ONLY_SINGLE},
        {"s.yaml": SERVICE, "t.yaml": SERVICE.replace("name: web", "name: api")},
    )
    result = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "json")
    assert result.exit_code == 0
    line = "No rule applied to any of the 2 resources (1 type): Service (2)"
    assert f"warning: {line}" in result.stderr
    assert line in json.loads(result.stdout)["warnings"]
    assert scan(tmp_path, monkeypatch, "in", "-d", "rules", "--fail-on-uncovered").exit_code == 1


def test_conftest_style_policies_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree(tmp_path, {"main.rego": CONFTEST, "single.rego": WARN_ONLY_SINGLE}, {"d.yaml": DEPLOYMENT})
    result = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "json")
    warning = (
        "rules/main.rego: not a rule: conftest-style package main (deny, violation); "
        "a rule is a package under rules."
    )
    assert warning in result.stderr
    assert any(w.startswith(warning) for w in json.loads(result.stdout)["warnings"])


def test_warnings_are_a_level_apart_that_fails_nothing_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree(
        tmp_path,
        {"single.rego": WARN_ONLY_SINGLE, "both.rego": SINGLE_DENY_AND_WARN},
        {"d.yaml": DEPLOYMENT},
    )
    result = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "json")
    assert result.exit_code == 0
    results = {
        r["id"]: [(x["passed"], x.get("level"), x["message"]) for x in r["results"]]
        for r in json.loads(result.stdout)["results"][0]["rule_results"]
    }
    assert results == {
        "T_002": [(False, "warn", "a warning")],
        "T_003": [(False, "warn", "warned")],
    }
    assert scan(tmp_path, monkeypatch, "in", "-d", "rules", "--fail-on-warn").exit_code == 1
    table = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "table").stdout
    assert "WARN  CRITICAL  web" in table
    assert "0 passed, 0 failed, 2 warned, 0 ignored" in table
    sarif = json.loads(scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "sarif").stdout)
    assert {r["level"] for r in sarif["runs"][0]["results"]} == {"warning"}


def test_deny_and_warn_in_one_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree(tmp_path, {"review.rego": DENY_AND_WARN}, {"d.yaml": DEPLOYMENT})
    result = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "json")
    assert result.exit_code == 1
    [rule] = json.loads(result.stdout)["results"][0]["rule_results"]
    assert [(r["result_tag"], r.get("level")) for r in rule["results"]] == [
        ("deny", None),
        ("warn", "warn"),
    ]


def test_table_counts_failures_by_severity_and_shows_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree(tmp_path, {"review.rego": DENY_AND_WARN}, {"d.yaml": DEPLOYMENT})
    plain = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "table").stdout
    assert "Failed by severity: 0 critical, 1 high, 0 medium, 0 low" in plain
    assert "|   name: web" not in plain
    shown = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "table", "--show-code").stdout
    lines = [line.rstrip() for line in shown.splitlines()]
    # the denial is placed at the resource (line 4), the warning at spec.template (line 6)
    assert any(line.endswith(">    4 |   name: web") for line in lines)
    assert any(line.endswith(">    6 |   template:") for line in lines)
    assert any(line.endswith("3 | metadata:") for line in lines)


def test_sarif_help_and_help_uri(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree(
        tmp_path,
        {"review.rego": DENY_AND_WARN, "single.rego": WARN_ONLY_SINGLE},
        {"d.yaml": DEPLOYMENT},
    )

    def descriptors(*extra: str) -> dict[str, dict[str, object]]:
        out = scan(tmp_path, monkeypatch, "in", "-d", "rules", "-f", "sarif", *extra).stdout
        log = validate_sarif(out.encode())
        return {d["id"]: d for d in log["runs"][0]["tool"]["driver"]["rules"]}

    default = descriptors()
    assert default["T_001"]["helpUri"] == "https://example.com/t1"
    assert "helpUri" not in default["T_002"]  # no reference, no docs URL
    assert "**References**" in default["T_001"]["help"]["markdown"]
    based = descriptors("--docs-url", "https://docs.example.com/rules/")
    assert based["T_001"]["helpUri"] == "https://docs.example.com/rules/T_001.md"
    templated = descriptors("--docs-url", "https://docs.example.com/r?id={id}")
    assert templated["T_002"]["helpUri"] == "https://docs.example.com/r?id=T_002"


AZURE_TF = """\
resource "azurerm_storage_account" "logs" {
  name                      = "acmelogs"
  enable_https_traffic_only = false
  min_tls_version           = "TLS1_2"
}

resource "azurerm_resource_group" "main" {
  name     = "acme"
  location = "westeurope"
}
"""


def test_an_azure_only_tree_reports_its_resources_and_uncovered_types(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "infra").mkdir()
    (tmp_path / "infra" / "main.tf").write_text(AZURE_TF)
    result = scan(tmp_path, monkeypatch, "infra", "-f", "json", "--rule", "RE-AZ-001")
    assert result.exit_code == 1
    [rule] = json.loads(result.stdout)["results"][0]["rule_results"]
    assert [(r["resource_id"], r["passed"]) for r in rule["results"]] == [
        ("azurerm_storage_account.logs", False)
    ]
    table = scan(tmp_path, monkeypatch, "infra", "-f", "table").stdout
    assert "1 resource no rule checks (1 type): azurerm_resource_group (1)" in table
