"""The shipped rule pack and relations: their own `opa test` suites, coverage,
metadata, and the engine against `opa eval` on the examples.

`opa test` runs the ``*_test.rego`` files of ``rego/rules`` and
``rego/relations`` over the pure-Rego test-mode API (``rego/lib/test``);
``--v0-compatible`` parses Rego v0 files, and v1 files import ``rego.v1``.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from oracle import needs_opa
from scan_oracle import canonical, oracle_module

from engine.cli.main import app
from engine.core.paths import REGO_LIB_DIR, REGO_RELATIONS_DIR, REGO_RULES_DIR, REPO_ROOT
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.discovery import load_inputs
from engine.rules.compiler import stage_bundle
from engine.rules.opa import find_opa
from engine.rules.rego_outline import outline
from engine.rules.rule_pack import shipped_rule_files
from engine.rules.rule_set import compile_rule_set, relation_files, shipped_relations
from engine.rules.sources import PolicySources, RegoFile, load_sources
from engine.scanning.scanner import scan
from engine.wasm import values

EXAMPLES = REPO_ROOT / "examples"
TEST_LIBRARY = [REGO_LIB_DIR / "test" / "snyk.rego", REGO_LIB_DIR / "fugue.rego"]

pytestmark = needs_opa


@cache
def opa_test_results() -> list[dict[str, Any]]:
    proc = subprocess.run(
        [
            str(find_opa().path),
            "test",
            "--v0-compatible",
            "--format",
            "json",
            *map(str, TEST_LIBRARY),
            str(REGO_RELATIONS_DIR),
            str(REGO_RULES_DIR),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


@cache
def shipped_rule_set() -> tuple[RuleEvaluator, PolicySources]:
    sources = load_sources(shipped_rule_files())
    rule_set = compile_rule_set(sources)
    assert not rule_set.failed and not rule_set.library_errors
    return RuleEvaluator(rule_set), sources


def test_a_scan_loads_the_pack_without_its_tests() -> None:
    files = shipped_rule_files()
    assert all(p.suffix == ".rego" and not p.name.endswith("_test.rego") for p in files)
    assert REGO_RULES_DIR / "lib" / "aws.rego" in files
    tests = sorted(REGO_RULES_DIR.rglob("*_test.rego"))
    assert len(tests) == len([p for p in files if p.parent.name != "lib"])


def test_every_shipped_rego_test_passes() -> None:
    results = opa_test_results()
    failed = [f"{r['package']}.{r['name']}" for r in results if r.get("fail") or r.get("error")]
    assert failed == []
    assert len(results) >= 60


def test_rego_engine_test_over_rego_agrees_with_opa_test() -> None:
    """`rego-engine test rego/` (the engine's own API files replaced by their
    test-mode versions) passes, with the same tests opa test runs."""
    result = CliRunner().invoke(app, ["test", str(REGO_RULES_DIR.parent), "--format", "json"])
    assert result.exit_code == 0, result.output
    ours = sorted((r["package"], r["name"]) for r in json.loads(result.stdout))
    theirs = sorted((r["package"], r["name"]) for r in opa_test_results())
    assert ours == theirs
    assert all(not (r.get("fail") or r.get("error")) for r in json.loads(result.stdout))


def test_the_shipped_rego_is_opa_fmt_clean() -> None:
    directories = [str(REGO_RELATIONS_DIR), str(REGO_RULES_DIR)]
    proc = subprocess.run(
        [str(find_opa().path), "fmt", "--v0-compatible", "--list", *directories],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr


def test_every_rule_package_has_passing_tests() -> None:
    evaluator, _ = shipped_rule_set()
    tested = {r["package"].removeprefix("data.") for r in opa_test_results()}
    packages = [rule.package for rule in evaluator.rule_set.rules]
    assert len(packages) >= 30
    assert [p for p in packages if f"{p}_test" not in tested] == []


def test_every_shipped_relation_is_queried_by_a_test() -> None:
    names = set().union(*relation_files(shipped_relations()).shipped.values())
    tests = "".join(p.read_text() for p in REGO_RELATIONS_DIR.rglob("*_test.rego"))
    literals = set(re.findall(r'"([^"]+)"', tests))
    assert sorted(names - literals) == []
    # Each relations file has a test file beside it.
    for path in REGO_RELATIONS_DIR.rglob("*.rego"):
        if not path.name.endswith("_test.rego"):
            assert path.with_name(f"{path.stem}_test.rego").is_file(), path


def test_every_rule_has_complete_metadata() -> None:
    evaluator, _ = shipped_rule_set()
    ids = []
    for rule, statics in zip(evaluator.rule_set.rules, evaluator.statics, strict=True):
        meta = statics.metadata
        assert meta.id and meta.title and meta.description, rule.package
        assert meta.severity in {"low", "medium", "high", "critical"}, rule.package
        assert meta.references and all(r.startswith("https://") for r in meta.references)
        assert statics.input_type in {"tf", "cfn", "k8s", "arm"}, rule.package
        key = {"tf": "terraform", "cfn": "cloudformation", "k8s": "kubernetes", "arm": "arm"}
        assert isinstance(meta.remediation, dict), rule.package
        assert meta.remediation.get(key[statics.input_type]), rule.package
        ids.append(meta.id)
    assert len(ids) == len(set(ids))


def test_peer_suppression_spellings_reach_the_rules_declaring_them(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        "#checkov:skip=CKV_AWS_21:a scratch bucket\n"
        "#tfsec:ignore:aws-s3-enable-bucket-encryption encrypted by the account default\n"
        'resource "aws_s3_bucket" "scratch" {}\n'
    )
    report = scan([tmp_path], shipped_rule_files())
    ignored = {
        rule.metadata.id: r.ignore_reason
        for i in report.inputs
        for rule in i.rule_results
        for r in rule.results
        if r.ignored
    }
    shown = report.inputs[0].input.path
    assert ignored == {
        "RE-AWS-004": f"inline: a scratch bucket ({shown}/main.tf:1)",
        "RE-AWS-001": f"inline: encrypted by the account default ({shown}/main.tf:2)",
    }
    assert report.warnings == []


def test_aliases_name_one_rule_per_input_type() -> None:
    evaluator, _ = shipped_rule_set()
    seen: set[tuple[str | None, str]] = set()
    for statics in evaluator.statics:
        for alias in statics.metadata.aliases:
            assert (statics.input_type, alias) not in seen, alias
            seen.add((statics.input_type, alias))
    assert len(seen) >= 10


def test_the_pack_mixes_rego_versions_and_archetypes() -> None:
    _, sources = shipped_rule_set()
    rules = [f for f in sources.rego_files if outline(f.text).package.startswith("rules.")]
    versions = [f.rego_version for f in rules]
    assert versions.count(0) >= 5 and versions.count(1) >= 5
    evaluator, _ = shipped_rule_set()
    kinds = {rule.judgement for rule in evaluator.rule_set.rules}
    assert kinds == {"deny", "policy", "allow"}
    assert sum(s.single for s in evaluator.statics) >= 2


# ------------------------------------------------ the engine against opa eval


@cache
def example_inputs() -> dict[str, Any]:
    return {i.name: i for i in load_inputs([EXAMPLES]).inputs}


@cache
def oracle_side() -> dict[str, Any]:
    """Per example input: `opa eval` of the pack over the test-mode API."""
    evaluator, sources = shipped_rule_set()
    spec = [
        (
            rule.package,
            sorted(rule.names & {"deny", "policy", "allow", "resources"}),
            evaluator.statics[i].single,
        )
        for i, rule in enumerate(evaluator.rule_set.rules)
    ]
    extra = [*TEST_LIBRARY, *sorted(p for p in REGO_RELATIONS_DIR.rglob("*.rego"))]
    files = [RegoFile(p, str(p), p.read_text(), 1) for p in extra if "_test" not in p.name]
    files.append(RegoFile(Path("oracle.rego"), "oracle.rego", oracle_module(spec), 1))
    staged = PolicySources([*sources.rego_files, *files], sources.data, sources.data_files)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        stage_bundle(staged, Path(tmp))
        for name, scan_input in example_inputs().items():
            state_file = Path(tmp) / "input.json"
            state_file.write_bytes(values.dumps_json(scan_input.state.document))
            command = [str(find_opa().path), "eval", "-b", tmp, "-i", str(state_file)]
            proc = subprocess.run(
                [*command, "--format", "json", "data.__oracle"],
                capture_output=True,
                check=True,
            )
            out[name] = json.loads(proc.stdout)["result"][0]["expressions"][0]["value"]
    return out


@pytest.mark.parametrize("input_name", sorted(example_inputs()))
def test_the_pack_judges_the_examples_as_opa_does(input_name: str) -> None:
    evaluator, _ = shipped_rule_set()
    scan_input = example_inputs()[input_name]
    oracle = oracle_side()[input_name]
    evaluator.load(scan_input.state)
    assert evaluator.relation_problems == []
    compared = 0
    for index, rule in enumerate(evaluator.rule_set.rules):
        if not evaluator.applicable(index, scan_input.state):
            continue
        run = evaluator.run(index)
        assert not run.errors, (rule.package, run.errors)
        if run.statics.single:
            want = dict(oracle.get("single", {}).get(rule.package, []))
            assert sorted(run.per_resource) == sorted(want), rule.package
            for pos, value in run.per_resource.items():
                assert canonical(value) == canonical(want[pos]), (rule.package, pos)
        else:
            expected = oracle["multi"].get(rule.package, {})
            for name, value in ((rule.judgement, run.judgement), ("resources", run.resources)):
                assert canonical(value) == canonical(expected.get(name)), (rule.package, name)
        compared += 1
    assert compared >= 9
