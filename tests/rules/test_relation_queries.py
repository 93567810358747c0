"""Relation queries read from the Rego text, and the index parts a scan injects."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

from oracle import needs_opa

from engine.core.paths import REGO_LIB_DIR
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.discovery import load_inputs
from engine.rules.relation_queries import (
    INDEX_READERS,
    IndexPart,
    QueryCall,
    index_parts,
    query_calls,
)
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import RegoFile, load_sources

CORPUS = Path(__file__).parent.parent / "relations_corpus"


def _file(text: str, name: str = "rule.rego") -> RegoFile:
    header = "package rules.x\nimport data.snyk\nimport rego.v1\n"
    return RegoFile(Path(name), name, header + text, 1)


def test_literal_and_constant_names_are_read() -> None:
    text = """
name := "b.c"
x := snyk.relates(r, "a.b")
y := snyk.back_relates(name, r)
z := data.snyk.relates_with(r, `raw.name`)
w := snyk.back_relates_with(concat(".", ["a", "b"]), r)
"""
    assert query_calls([_file(text)]) == [
        QueryCall("relates", "a.b"),
        QueryCall("back_relates", "b.c"),
        QueryCall("relates_with", "raw.name"),
        QueryCall("back_relates_with", None),
    ]


def test_each_query_reaches_its_parts_of_the_index() -> None:
    text = """
a := snyk.relates(r, "one")
b := snyk.back_relates("two", r)
c := snyk.relates_with(r, "three")
d := snyk.back_relates_with("four", r)
# snyk.relates(r, dynamic) in a comment does not count
e := "snyk.relates(r, x) in a string does not either"
"""
    assert index_parts([_file(text)]) == {
        IndexPart("r", "fwd", "one"),
        IndexPart("r", "back", "two"),
        IndexPart("r", "fwd", "three"),
        IndexPart("a", "fwd", "three"),
        IndexPart("r", "back", "four"),
        IndexPart("a", "back", "four"),
    }
    assert index_parts([]) == frozenset()


def test_anything_not_read_literally_injects_the_whole_index() -> None:
    unknown = [
        'x := snyk.relates(r, sprintf("%s", ["a"]))',  # a computed name
        "f(n) := snyk.relates(r, n)",  # a name passed in
        "relates(a, b) := a == b",  # a user function of the same name
        "x := data.__rego_engine_input.relations",  # the index read directly
        'x := snyk._places("fwd", "a", r)',  # the library's index readers
        'x := snyk._annotated("back", "a", r)',
    ]
    for text in unknown:
        assert index_parts([_file(text)]) is None, text
    text = 'package rules.y\nimport data.snyk as s\nx := s.relates(r, "a")\n'
    aliased = RegoFile(Path("a.rego"), "a.rego", text, 1)
    assert index_parts([aliased]) is None


def test_the_index_readers_are_those_of_the_shipped_library() -> None:
    text = (REGO_LIB_DIR / "snyk.rego").read_text()
    readers = {
        line.split("(")[0]
        for line in re.split(r"\n(?=\S)", text)
        if "__rego_engine_input.relations" in line and not line.startswith("#")
    }
    assert readers == set(INDEX_READERS)


def _literal_queries() -> str:
    """Rules querying the corpus relations with literal names, one kind per name,
    so a pruned index leaves out most parts."""
    names = [
        "lb.forwards_to",
        "app.placement",
        "app.owner",
        "host.backup",
        "service.selects",
        "team.members",
        "aws_s3_bucket.logging",
        "aws_s3_bucket.versioning",
    ]
    queries = [
        ("relates", "_ids(snyk.relates(r, {n}))"),
        ("back_relates", "_ids(snyk.back_relates({n}, r))"),
        ("relates_with", "_pairs(snyk.relates_with(r, {n}))"),
        ("back_relates_with", "_pairs(snyk.back_relates_with({n}, r))"),
    ]
    lines = [
        "package rules.literal_queries",
        "import data.snyk",
        "import rego.v1",
        'metadata := {"id": "REL2", "title": "literal queries", "severity": "low"}',
        "_ids(rs) := [r._id | some r in rs]",
        "_pairs(rs) := [[r._id, a] | some [r, a] in rs]",
        "_types := [t | some t in snyk.input_resource_types]",
    ]
    for i, name in enumerate(names):
        kind, call = queries[i % len(queries)]
        quoted = f'"{name}"'
        lines.append(
            "deny contains info if {\n"
            "\tsome t in _types\n\tsome r in snyk.resources(t)\n"
            f"\tout := {call.format(n=quoted)}\n\tcount(out) > 0\n"
            f'\tinfo := {{"resource": r, "result_tag": "{name}/{kind}", '
            '"message": json.marshal(out)}\n}'
        )
    return "\n".join(lines) + "\n"


@needs_opa
def test_a_pruned_index_answers_every_query_as_the_whole_index(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(CORPUS / "rules", rules)
    (rules / "queries.rego").unlink()  # its names are computed: nothing would be pruned
    (rules / "literal.rego").write_text(_literal_queries())
    rule_set = compile_rule_set(load_sources([rules]))
    assert rule_set.index_parts is not None
    assert len(rule_set.index_parts) < 4 * 8  # most parts are left out
    whole = dataclasses.replace(rule_set, index_parts=None)
    inputs = load_inputs(sorted((CORPUS / "states").glob("*.json"))).inputs
    seen = 0
    smaller = 0
    for scan_input in inputs:
        pruned_eval, whole_eval = RuleEvaluator(rule_set), RuleEvaluator(whole)
        pruned_eval.load(scan_input.state)
        whole_eval.load(scan_input.state)
        assert pruned_eval.api.relations is not None and whole_eval.api.relations is not None
        pruned_size = len(pruned_eval.api.relations.document)
        smaller += pruned_size < len(whole_eval.api.relations.document)
        for index, rule in enumerate(rule_set.rules):
            pruned, full = pruned_eval.run(index), whole_eval.run(index)
            assert not pruned.errors and not full.errors, rule.package
            assert (pruned.judgement, pruned.resources, pruned.per_resource) == (
                full.judgement,
                full.resources,
                full.per_resource,
            ), rule.package
            if rule.package == "rules.literal_queries":
                seen += len(pruned.judgement or [])
    assert seen > 10  # the literal queries found related resources
    assert smaller  # and the index injected was smaller
