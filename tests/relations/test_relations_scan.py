"""Relations in a scan and in `rego-engine relations`: errors, isolation, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracle import needs_opa

from engine.cli.main import app
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.state import parse_state
from engine.inspection.relation_listing import list_relations
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import load_sources
from engine.scanning.scanner import scan

pytestmark = needs_opa

STATE = {
    "input_type": "tf_hcl",
    "resources": {
        "aws_s3_bucket": {
            "aws_s3_bucket.a": {"id": "aws_s3_bucket.a", "attributes": {"bucket": "a"}},
            "aws_s3_bucket.b": {"id": "aws_s3_bucket.b", "attributes": {"bucket": "b"}},
        },
        "aws_s3_bucket_server_side_encryption_configuration": {
            "enc.a": {"id": "enc.a", "attributes": {"bucket": "a"}},
        },
        "aws_s3_bucket_logging": {
            "log.b": {"id": "log.b", "attributes": {"bucket": "b"}},
        },
    },
}

RULE = """package rules.encrypted
import rego.v1
import data.snyk

metadata := {"id": "E1", "title": "buckets are encrypted", "severity": "high"}

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  count(snyk.relates(b, "aws_s3_bucket.server_side_encryption_configuration")) == 0
  info := {"resource": b, "message": "unencrypted"}
}

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  some log in snyk.relates(b, "custom.logging")
  info := {"resource": b, "message": sprintf("logged by %s", [log._id]), "result_tag": "log"}
}
"""

GOOD_RELATION = """package relations
import rego.v1
import data.snyk

relations contains {"name": "custom.logging", "keys": {
  "left": [[b, b.bucket] | some b in snyk.resources("aws_s3_bucket")],
  "right": [[l, l.bucket] | some l in snyk.resources("aws_s3_bucket_logging")],
}}
"""

BAD_RELATIONS = """package relations
import rego.v1
import data.snyk

relations contains {"keys": {"left": [], "right": []}}
relations contains {"name": "neither"}
relations contains {"name": "bad.shape", "keys": {"left": [1, [2]], "right": []}}
relations contains {"name": "not.a.resource", "explicit": [[{"_id": "nope"}, {"_id": "x"}]]}
relations contains snyk.relation_from_fields("bad.path", {"aws_s3_bucket": ["a..b"]}, {})
"""


def _write(tmp: Path, files: dict[str, str]) -> tuple[Path, Path]:
    rules = tmp / "rules"
    for name, text in files.items():
        (rules / name).parent.mkdir(parents=True, exist_ok=True)
        (rules / name).write_text(text)
    state = tmp / "state.json"
    state.write_text(json.dumps(STATE))
    return rules, state


def _messages(report) -> list[tuple[str, bool, str]]:
    (input_report,) = report.inputs
    return sorted(
        (r.resource_id, r.passed, r.message)
        for rule in input_report.rule_results
        for r in rule.results
    )


def test_shipped_and_user_relations_in_a_scan(tmp_path: Path) -> None:
    rules, state = _write(tmp_path, {"rule.rego": RULE, "relations.rego": GOOD_RELATION})
    report = scan([state], [rules])
    assert report.errors == []
    # Bucket a has its encryption configuration (a shipped relation); b is logged.
    assert _messages(report) == [
        ("aws_s3_bucket.b", False, "logged by log.b"),
        ("aws_s3_bucket.b", False, "unencrypted"),
    ]


ARRAY_RELATION = """package relations
import rego.v1
import data.snyk

relations := [{"name": "custom.logging", "keys": {
  "left": [[b, b.bucket] | some b in snyk.resources("aws_s3_bucket")],
  "right": [[l, l.bucket] | some l in snyk.resources("aws_s3_bucket_logging")],
}}]
"""


def test_relations_declared_as_an_array_are_read_like_a_set(tmp_path: Path) -> None:
    rules, state = _write(tmp_path, {"rule.rego": RULE, "relations.rego": ARRAY_RELATION})
    report = scan([state], [rules])
    assert report.errors == []
    assert _messages(report) == [
        ("aws_s3_bucket.b", False, "logged by log.b"),
        ("aws_s3_bucket.b", False, "unencrypted"),
    ]


def test_only_shipped_relations_the_rules_name_are_resolved(tmp_path: Path) -> None:
    rules, _ = _write(tmp_path, {"rule.rego": RULE, "relations.rego": GOOD_RELATION})
    rule_set = compile_rule_set(load_sources([rules]))
    assert rule_set.shipped_relations_named == {
        "aws_s3_bucket.server_side_encryption_configuration"
    }
    resolved = {}
    for all_relations in (False, True):
        evaluator = RuleEvaluator(rule_set, all_relations=all_relations)
        evaluator.load(parse_state(STATE))
        assert evaluator.api.relations is not None
        resolved[all_relations] = {r.name for r in evaluator.api.relations.declared.relations}
    # The user's relation always; of the shipped ones, the named one only,
    # unless all are asked for (as `rego-engine relations` does).
    assert resolved[False] == {
        "custom.logging",
        "aws_s3_bucket.server_side_encryption_configuration",
    }
    assert {"aws_s3_bucket.logging", "custom.logging"} <= resolved[True]
    assert resolved[False] < resolved[True]


def test_a_type_name_passed_to_resources_does_not_resolve_the_shipped_relation(
    tmp_path: Path,
) -> None:
    # "aws_security_group" is a shipped relation and a resource type: as the
    # argument of snyk.resources it is a type, so the relation is not resolved.
    as_type = """package rules.sg
import rego.v1
import data.snyk
deny contains {"resource": g} if some g in snyk.resources("aws_security_group")
"""
    rules, _ = _write(tmp_path / "type", {"rule.rego": as_type})
    assert compile_rule_set(load_sources([rules])).shipped_relations_named == frozenset()
    as_name = """package rules.sg
import rego.v1
import data.snyk
deny contains {"resource": g} if {
	some g in snyk.resources("aws_security_group")
	count(snyk.back_relates("aws_security_group", g)) == 0
}
"""
    rules, _ = _write(tmp_path / "name", {"rule.rego": as_name})
    assert compile_rule_set(load_sources([rules])).shipped_relations_named == {"aws_security_group"}


def test_malformed_relations_are_reported_and_the_rest_runs(tmp_path: Path) -> None:
    rules, state = _write(
        tmp_path,
        {"rule.rego": RULE, "relations.rego": GOOD_RELATION, "bad/relations.rego": BAD_RELATIONS},
    )
    report = scan([state], [rules])
    bad = f"{rules}/bad/relations.rego"
    errors = "\n".join(report.errors)
    assert f"a relation (defined in {bad}, {rules}/relations.rego): it has no name" in errors
    assert f"relation 'neither' (defined in {bad}): it has neither keys nor explicit" in errors
    assert "relation 'bad.shape'" in errors
    assert "keys.left[0] must be [resource, key] or [resource, key, annotation], found 1" in errors
    assert "keys.left[1] must be" in errors
    assert "relation 'not.a.resource'" in errors
    assert 'explicit[0][0]: {"_id":"nope"} is not a resource of this input' in errors
    assert "relation 'bad.path'" in errors and "bad field path 'a..b'" in errors
    assert len(report.errors) == 5
    assert all(e.startswith(f"{state}: ") for e in report.errors)
    # The good user relation and the shipped ones still work.
    assert _messages(report) == [
        ("aws_s3_bucket.b", False, "logged by log.b"),
        ("aws_s3_bucket.b", False, "unencrypted"),
    ]
    assert report.exit_code() == 2


def test_relations_that_fail_to_evaluate_leave_rules_running(tmp_path: Path) -> None:
    failing = """package relations
import rego.v1
relations contains {"name": "net", "explicit": [], "x": http.send({"method": "get", "url": "http://x"})}
"""
    rules, state = _write(tmp_path, {"rule.rego": RULE, "relations.rego": failing})
    report = scan([state], [rules])
    assert len(report.errors) == 1
    assert "the relations could not be evaluated" in report.errors[0]
    assert "http.send is refused" in report.errors[0]
    # Without relations, every bucket lacks its encryption configuration.
    assert _messages(report) == [
        ("aws_s3_bucket.a", False, "unencrypted"),
        ("aws_s3_bucket.b", False, "unencrypted"),
    ]


def test_a_relations_file_that_does_not_compile_is_set_aside(tmp_path: Path) -> None:
    broken = "package relations\nimport rego.v1\nrelations contains {\n"
    rules, state = _write(
        tmp_path, {"rule.rego": RULE, "relations.rego": GOOD_RELATION, "broken.rego": broken}
    )
    report = scan([state], [rules])
    assert report.errors and all("broken.rego:4: rego_parse_error" in e for e in report.errors)
    assert ("aws_s3_bucket.b", False, "logged by log.b") in _messages(report)


def test_listing_counts_and_edges(tmp_path: Path) -> None:
    rules, state = _write(tmp_path, {"relations.rego": GOOD_RELATION})
    listing = list_relations([rules], [state], with_edges=True)
    assert listing.errors == []
    by_name = {r.name: r for r in listing.relations}
    assert by_name["custom.logging"].defined_in == (f"{rules}/relations.rego",)
    assert by_name["custom.logging"].edge_counts == {str(state): 1}
    enc = by_name["aws_s3_bucket.server_side_encryption_configuration"]
    assert enc.shipped and enc.defined_in == ("<shipped>/relations/aws/s3.rego",)
    assert [(e.left, e.right) for e in enc.edges] == [("aws_s3_bucket.a", "enc.a")]
    # "custom" is not a left type of custom.logging.
    assert any("'custom.logging'" in w for w in listing.warnings)


def test_relations_cli_table_and_json(tmp_path: Path) -> None:
    rules, state = _write(tmp_path, {"relations.rego": GOOD_RELATION})
    runner = CliRunner()
    table = runner.invoke(app, ["relations", "-d", str(rules), str(state), "--edges"])
    assert table.exit_code == 0, table.output
    assert "aws_s3_bucket.b --custom.logging--> log.b" in table.stdout
    assert "aws_s3_bucket.a --aws_s3_bucket.server_side_encryption_configuration--> enc.a" in (
        table.stdout
    )
    first = runner.invoke(
        app, ["relations", "-d", str(rules), str(state), "--edges", "--format", "json"]
    )
    second = runner.invoke(
        app, ["relations", "-d", str(rules), str(state), "--edges", "--format", "json"]
    )
    assert first.stdout == second.stdout
    doc = json.loads(first.stdout)
    custom = next(r for r in doc["relations"] if r["name"] == "custom.logging")
    assert custom["edges"] == [
        {"input": str(state), "left": "aws_s3_bucket.b", "right": "log.b", "annotation": None}
    ]
    assert any("naming convention" in w for w in doc["warnings"])


def test_relations_cli_without_rules_lists_the_shipped_relations() -> None:
    result = CliRunner().invoke(app, ["relations", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    names = [r["name"] for r in doc["relations"]]
    assert "aws_s3_bucket.server_side_encryption_configuration" in names
    assert names == sorted(names)
    assert all(r["shipped"] and "edges" not in r for r in doc["relations"])


def test_relations_cli_exit_code_on_malformed_relations(tmp_path: Path) -> None:
    rules, state = _write(tmp_path, {"relations.rego": BAD_RELATIONS})
    result = CliRunner().invoke(app, ["relations", "-d", str(rules), str(state)])
    assert result.exit_code == 2
    assert "relation 'neither'" in result.stderr


@pytest.mark.parametrize("fmt", ["xml"])
def test_relations_cli_rejects_unknown_formats(fmt: str) -> None:
    result = CliRunner().invoke(app, ["relations", "--format", fmt])
    assert result.exit_code == 2
