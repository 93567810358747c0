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

from engine import values
from engine.compiler import stage_bundle
from engine.evaluator import RuleEvaluator
from engine.inputs import load_inputs
from engine.opa import find_opa
from engine.paths import REGO_LIB_DIR
from engine.rule_set import compile_rule_set, data_ref, discover_rules
from engine.sources import PolicySources, RegoFile, load_sources
from engine.state import State

CORPUS = Path(__file__).parent / "scan_corpus"
STATE_FILES = sorted((CORPUS / "states").glob("*.json"))
RESOURCE_FIELDS = ("resource", "primary_resource")


def _ref(resource: Any) -> Any:
    if not isinstance(resource, dict):
        return resource
    return {k: resource[k] for k in ("_id", "id", "_type", "_namespace") if k in resource}


def slim(info: Any) -> Any:
    """An info with resource objects replaced by references, as the engine returns it."""
    if not isinstance(info, dict):
        return info
    out = dict(info)
    for name in RESOURCE_FIELDS:
        if isinstance(out.get(name), dict):
            out[name] = _ref(out[name])
    if isinstance(out.get("graph"), list):
        out["graph"] = [
            {**e, **{k: _ref(e[k]) for k in ("source", "target") if isinstance(e.get(k), dict)}}
            if isinstance(e, dict)
            else e
            for e in out["graph"]
        ]
    return out


def canonical(value: Any) -> Any:
    """A judgement in comparable form: members of a set (JSON array) slimmed, deduplicated
    and sorted; any other value as JSON text."""
    if isinstance(value, (list, values.Set)):
        return sorted({values.dumps_json(slim(m)) for m in value})
    return values.dumps_json(value)


def oracle_module(rules_and_single: list[tuple[str, list[str], bool]]) -> str:
    lines = ["package __oracle", "", "import rego.v1", ""]
    for package, names, single in rules_and_single:
        ref = data_ref(package.split("."))
        lines.append(
            f'multi["{package}"] := {{k: v | some k in {json.dumps(names)}; v := {ref}[k]}}'
        )
        if single:
            judgement = next(j for j in ("deny", "policy", "allow") if j in names)
            lines.append(
                f'single["{package}"] := [[j, d] |\n'
                f"\tsome j, r in data.snyk.resources({ref}.resource_type)\n"
                f"\td := {ref}.{judgement} with input as r with data.snyk._state as input\n]"
            )
    lines.append("objects[t] := data.snyk.resources(t) if some t, _ in input.resources")
    return "\n".join(lines) + "\n"


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
