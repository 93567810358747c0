"""Relations end to end: the engine's index against the pure-Rego test-mode API.

The rules in tests/relations_corpus query every relation function over
relations of every kind. Engine: compiled to Wasm, relations joined by the
host and looked up in Wasm. Oracle: `opa eval` (topdown) of the same rules,
relations and shipped relations over `rego/lib/test/snyk.rego`. The
judgements must be equal; the messages carry the query results as JSON, so
their order is compared too.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa
from scan_oracle import canonical, oracle_module

from engine.core.paths import REGO_LIB_DIR
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.discovery import load_inputs
from engine.rules.compiler import stage_bundle
from engine.rules.opa import find_opa
from engine.rules.rule_set import compile_rule_set, shipped_relations
from engine.rules.sources import PolicySources, RegoFile, load_sources

CORPUS = Path(__file__).parent.parent / "relations_corpus"
STATE_FILES = sorted((CORPUS / "states").glob("*.json"))


@cache
def engine_side() -> tuple[RuleEvaluator, dict[str, dict[str, Any]]]:
    rule_set = compile_rule_set(load_sources([CORPUS / "rules"]))
    assert not rule_set.failed and not rule_set.library_errors
    evaluator = RuleEvaluator(rule_set)
    out: dict[str, dict[str, Any]] = {}
    for scan_input in load_inputs(STATE_FILES).inputs:
        evaluator.load(scan_input.state)
        assert evaluator.relation_problems == []
        runs = {}
        for index, rule in enumerate(rule_set.rules):
            run = evaluator.run(index)
            assert not run.errors, (rule.package, run.errors)
            runs[rule.package] = run
        out[Path(scan_input.path).name] = runs
    return evaluator, out


@cache
def oracle_side() -> dict[str, Any]:
    evaluator, _ = engine_side()
    spec = [
        (
            rule.package,
            sorted(rule.names & {"deny", "resources"}),
            evaluator.statics[i].single,
        )
        for i, rule in enumerate(evaluator.rule_set.rules)
    ]
    sources = load_sources([CORPUS / "rules"])
    lib = [REGO_LIB_DIR / "test" / "snyk.rego", REGO_LIB_DIR / "fugue.rego"]
    files = [RegoFile(p, p.name, p.read_text(), 1) for p in lib]
    files += shipped_relations()
    files.append(RegoFile(Path("oracle.rego"), "oracle.rego", oracle_module(spec), 1))
    staged = PolicySources([*sources.rego_files, *files], sources.data, sources.data_files)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        stage_bundle(staged, Path(tmp))
        opa = str(find_opa().path)
        for state_file in STATE_FILES:
            proc = subprocess.run(
                [opa, "eval", "-b", tmp, "-i", str(state_file), "-f", "json", "data.__oracle"],
                capture_output=True,
                check=True,
            )
            out[state_file.name] = json.loads(proc.stdout)["result"][0]["expressions"][0]["value"]
    return out


@needs_opa
@pytest.mark.parametrize("state_file", [p.name for p in STATE_FILES])
def test_relation_queries_match_test_mode(state_file: str) -> None:
    _, engine = engine_side()
    oracle = oracle_side()[state_file]
    for package, run in engine[state_file].items():
        if run.statics.single:
            want = dict(oracle.get("single", {}).get(package, []))
            assert sorted(run.per_resource) == sorted(want), package
            for pos, value in run.per_resource.items():
                assert canonical(value) == canonical(want[pos]), (package, pos)
            continue
        for name, value in (("deny", run.judgement), ("resources", run.resources)):
            want_value = oracle["multi"].get(package, {}).get(name)
            if value is None:
                assert want_value is None, (package, name)
            else:
                assert canonical(value) == canonical(want_value), (package, name)


def _messages(state_file: str) -> dict[tuple[str, str], Any]:
    _, engine = engine_side()
    run = engine[state_file]["rules.relation_queries"]
    fields = ("relates", "back_relates", "relates_with", "back_relates_with")
    return {
        (d["resource"]["_id"], d["result_tag"]): dict(
            zip(fields, json.loads(d["message"]), strict=True)
        )
        for d in run.judgement
    }


@needs_opa
def test_the_corpus_exercises_every_kind_of_edge() -> None:
    """Guards the corpus itself: the edges it must produce are there."""
    found = _messages("basic.json")
    assert found["lb.front", "lb.forwards_to"]["relates_with"] == [
        ["app.dup", {"port": 80}],
        ["app.dup", {"port": 443}],
        ["app.ssh", {"port": 22}],
        ["app.web", {"port": 80}],
        ["app.web", {"port": 443}],
    ]
    assert found["lb.front", "lb.forwards_to"]["relates"] == ["app.dup", "app.ssh", "app.web"]
    assert found["lb.empty", "lb.forwards_to"]["relates"] == []
    # Composite keys with 1 == 1.0; the right annotation (the rack) wins.
    assert found["app.web", "app.placement"]["relates_with"] == [
        ["host.h1", {"row": 1}],
        ["host.h3", None],
    ]
    assert found["app.ssh", "app.placement"]["relates_with"] == [["host.h2", None]]
    # Two declarations merged; null and "" owners join nothing.
    assert found["team.core", "app.owner"]["back_relates"] == ["app.batch", "app.ssh", "app.web"]
    assert found["host.h1", "host.backup"]["relates_with"] == [["host.h2", {"primary": "h1"}]]
    assert found["host.h3", "host.backup"]["back_relates"] == ["host.h3"]
    assert found["svc.web", "service.selects"]["relates"] == ["app.dup", "app.web"]
    assert found["svc.jobs", "service.selects"]["relates"] == ["app.batch"]
    assert found["team.core", "team.members"]["relates"] == ["user.ann", "user.bob", "user.cy"]
    # The user's aws_s3_bucket.logging replaced the shipped one.
    assert found["aws_s3_bucket.logs", "aws_s3_bucket.logging"]["relates"] == [
        "aws_s3_bucket_logging.l"
    ]
    assert found["aws_s3_bucket.data", "aws_s3_bucket.logging"]["relates"] == []
    assert found["aws_s3_bucket.data", "aws_s3_bucket.versioning"]["relates"] == [
        "aws_s3_bucket_versioning.v"
    ]
    assert found["app.web", "no.such.relation"] == {
        "relates": [],
        "back_relates": [],
        "relates_with": [],
        "back_relates_with": [],
    }


@needs_opa
def test_namespaces_keep_resources_with_one_id_apart() -> None:
    found = _messages("namespaces.json")
    assert found["lb.x", "lb.forwards_to"]["relates"] == ["app.web", "app.web"]
    assert found["team.core", "app.owner"]["back_relates"] == ["app.web", "app.web"]
