"""The scan against `opa eval`: the corpus in tests/scan_corpus, evaluated two ways.

Engine: the rules compiled to Wasm with the host-backed `snyk` API, run by the
evaluator (single-resource rules asked per resource inside Wasm). Oracle:
`opa eval` (topdown) of the same rules over the pure-Rego test-mode API
(`rego/lib/test/snyk.rego`) with the State as input, single-resource rules
asked per resource object with `with input as`. The judgements (`deny`,
`policy`, `allow`, `resources`) must be equal, as must the resource objects
the two APIs give.
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
from engine.inputs.state import State
from engine.rules.compiler import stage_bundle
from engine.rules.opa import find_opa
from engine.rules.rule_set import compile_rule_set, discover_rules
from engine.rules.sources import PolicySources, RegoFile, load_sources
from engine.wasm import values

CORPUS = Path(__file__).parent.parent / "scan_corpus"
STATE_FILES = sorted((CORPUS / "states").glob("*.json"))


@cache
def engine_side() -> tuple[Any, dict[str, dict[str, Any]]]:
    """Per state file: per package, the engine's raw judgement values."""
    sources = load_sources([CORPUS / "rules"])
    rule_set = compile_rule_set(sources)
    assert not rule_set.failed, rule_set.failed
    evaluator = RuleEvaluator(rule_set)
    out: dict[str, dict[str, Any]] = {}
    for scan_input in load_inputs(STATE_FILES).inputs:
        evaluator.load(scan_input.state)
        per_rule = {}
        for index, rule in enumerate(rule_set.rules):
            run = evaluator.run(index)
            assert not run.errors, (rule.package, run.errors)
            per_rule[rule.package] = run
        out[Path(scan_input.path).name] = per_rule
    return evaluator, out


@cache
def oracle_side() -> dict[str, dict[str, Any]]:
    """Per state file, the oracle's document: {multi, single, objects}."""
    evaluator, _ = engine_side()
    rules = evaluator.rule_set.rules
    spec = [
        (
            rule.package,
            sorted(rule.names & {"deny", "policy", "allow", "resources"}),
            evaluator.statics[i].single,
        )
        for i, rule in enumerate(rules)
    ]
    sources = load_sources([CORPUS / "rules"])
    lib = [
        REGO_LIB_DIR / "test" / "snyk.rego",
        REGO_LIB_DIR / "fugue.rego",
    ]
    files = [RegoFile(p, p.name, p.read_text(), 1) for p in lib]
    files.append(RegoFile(Path("oracle.rego"), "oracle.rego", oracle_module(spec), 1))
    staged = PolicySources([*sources.rego_files, *files], sources.data, sources.data_files)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        stage_bundle(staged, Path(tmp))
        for state_file in STATE_FILES:
            proc = subprocess.run(
                [
                    str(find_opa().path),
                    "eval",
                    "-b",
                    tmp,
                    "-i",
                    str(state_file),
                    "--format",
                    "json",
                    "data.__oracle",
                ],
                capture_output=True,
                check=True,
            )
            result = json.loads(proc.stdout)["result"][0]["expressions"][0]["value"]
            out[state_file.name] = result
    return out


def test_corpus_is_large_enough() -> None:
    rules = discover_rules(load_sources([CORPUS / "rules"]).rego_files)
    assert len(rules) >= 30
    assert len(STATE_FILES) >= 5


@needs_opa
@pytest.mark.parametrize("state_file", [p.name for p in STATE_FILES])
def test_judgements_match_opa(state_file: str) -> None:
    _, engine = engine_side()
    oracle = oracle_side()[state_file]
    compared = 0
    for package, run in engine[state_file].items():
        expected_multi = oracle["multi"].get(package, {})
        if run.statics.single:
            want = dict(oracle.get("single", {}).get(package, []))
            assert sorted(run.per_resource) == sorted(want), package
            for pos, value in run.per_resource.items():
                assert canonical(value) == canonical(want[pos]), (package, pos)
        else:
            judgement = run.rule.judgement
            for name, value in ((judgement, run.judgement), ("resources", run.resources)):
                want_value = expected_multi.get(name)
                if value is None:
                    assert want_value is None, (package, name)
                    continue
                assert canonical(value) == canonical(want_value), (package, name)
        compared += 1
    assert compared == len(engine[state_file])


@needs_opa
@pytest.mark.parametrize("state_file", [p.name for p in STATE_FILES])
def test_resource_objects_match_test_mode_api(state_file: str) -> None:
    oracle = oracle_side()[state_file]
    state: State = next(i.state for i in load_inputs([CORPUS / "states" / state_file]).inputs)
    for rtype in state.resource_types:
        assert values.to_json(state.resource_objects(rtype)) == oracle["objects"][rtype], rtype
