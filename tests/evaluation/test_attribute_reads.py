"""Reducing the paths a rule read of a resource (the longest only, reference
fields masked, in trie order), and the reads a scan's evaluator records as it
evaluates each rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa
from scan_fixtures import state

from engine.evaluation import attribute_reads
from engine.evaluation.attribute_reads import AttributeReadError, reduce_paths
from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.state import parse_state
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import load_sources
from engine.wasm.host import PolicyInstance
from engine.wasm.read_tracing import PAIR


def test_a_path_read_further_is_reported_only_at_its_end() -> None:
    paths = [("tags",), ("tags", "Name"), ("rule",), ("rule", 0), ("rule", 0, "x")]
    assert reduce_paths(paths) == [("rule", 0, "x"), ("tags", "Name")]


def test_reference_fields_are_never_reported() -> None:
    paths = [("id",), ("_id",), ("_type",), ("_namespace",), ("_meta", "location"), ("_tags", "a")]
    paths += [("_provider",), ("_filepath",), ("bucket",)]
    assert reduce_paths(paths) == [("_tags", "a"), ("bucket",)]


def test_indices_come_first_in_numeric_order_then_keys_in_byte_order() -> None:
    paths = [("a", "b"), ("a", 10), ("a", 2), ("a", "B"), ("a", "é"), ("a", "z")]
    assert reduce_paths(paths) == [
        ("a", 2),
        ("a", 10),
        ("a", "B"),
        ("a", "b"),
        ("a", "z"),
        ("a", "é"),
    ]


def test_duplicates_and_nothing() -> None:
    assert reduce_paths([("x",), ("x",)]) == [("x",)]
    assert reduce_paths([]) == []


# -- recorded as each rule is evaluated -----------------------------------------

READS_ACL = """\
package rules.a_acl
import rego.v1
import data.snyk

deny contains {"resource": b, "message": "public"} if {
\tsome b in snyk.resources("aws_s3_bucket")
\tb.acl == "public-read"
}
"""

READS_SIZE = """\
package rules.b_size
import rego.v1
import data.snyk

deny contains {"resource": b, "message": "big"} if {
\tsome b in snyk.resources("aws_s3_bucket")
\tb.size > 10
}
"""

# Reads `acl`, then fails: both buckets give `one` a different value.
FAILS = """\
package rules.c_fails
import rego.v1
import data.snyk

one := b.acl if some b in snyk.resources("aws_s3_bucket")

deny contains {"resource": b, "message": one} if some b in snyk.resources("aws_s3_bucket")
"""

BUCKETS = {"x": {"acl": "public-read", "size": 20}, "y": {"acl": "private", "size": 30}}
X = ("main.tf", "aws_s3_bucket", "aws_s3_bucket.x")
Y = ("main.tf", "aws_s3_bucket", "aws_s3_bucket.y")


def _evaluator(tmp_path: Path, infer_attributes: bool = True) -> RuleEvaluator:
    for name, text in (("a.rego", READS_ACL), ("b.rego", READS_SIZE), ("c.rego", FAILS)):
        (tmp_path / name).write_text(text)
    rule_set = compile_rule_set(load_sources([tmp_path]))
    assert [r.package for r in rule_set.rules] == ["rules.a_acl", "rules.b_size", "rules.c_fails"]
    evaluator = RuleEvaluator(rule_set, infer_attributes=infer_attributes)
    evaluator.load(parse_state(state(BUCKETS)))
    return evaluator


@needs_opa
def test_a_rule_is_evaluated_once_in_one_traced_instance_and_its_reads_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instances: list[str] = []
    evaluations: list[str] = []
    made, evaluate = PolicyInstance.__init__, PolicyInstance.eval_addr

    def counted_init(self: PolicyInstance, policy: Any, **kwargs: Any) -> None:
        instances.append(policy.key)
        made(self, policy, **kwargs)

    def counted_eval(self: PolicyInstance, entrypoint: str, **kwargs: Any) -> int:
        evaluations.append(entrypoint)
        return evaluate(self, entrypoint, **kwargs)

    monkeypatch.setattr(PolicyInstance, "__init__", counted_init)
    monkeypatch.setattr(PolicyInstance, "eval_addr", counted_eval)
    evaluator = _evaluator(tmp_path)
    assert len(instances) == 1 and instances[0].endswith(":traced")
    evaluations.clear()
    run = evaluator.run(0)
    assert not run.errors and len(evaluations) == 1
    assert evaluator.read_attributes(0, {X, Y}) == {X: [("acl",)], Y: [("acl",)]}
    assert evaluator.read_attributes(0, {Y}) == {Y: [("acl",)]}  # asked for Y only
    assert len(evaluations) == 1 and len(instances) == 1  # no second evaluation or instance
    evaluator.close()


@needs_opa
def test_only_the_last_rules_reads_are_kept(tmp_path: Path) -> None:
    evaluator = _evaluator(tmp_path)
    evaluator.run(0)
    assert not evaluator.run(1).errors
    assert evaluator.read_attributes(1, {X}) == {X: [("size",)]}  # not acl
    with pytest.raises(AttributeReadError, match="not the last run"):
        evaluator.read_attributes(0, {X})
    evaluator.close()


@needs_opa
def test_a_failed_rules_reads_are_discarded(tmp_path: Path) -> None:
    evaluator = _evaluator(tmp_path)
    assert evaluator.run(2).errors  # it read acl, then failed
    with pytest.raises(AttributeReadError):
        evaluator.read_attributes(2, {X, Y})
    assert not evaluator.run(1).errors
    assert evaluator.read_attributes(1, {X, Y}) == {X: [("size",)], Y: [("size",)]}
    evaluator.close()


@needs_opa
def test_an_evaluator_not_inferring_runs_the_plain_module(tmp_path: Path) -> None:
    evaluator = _evaluator(tmp_path, infer_attributes=False)
    assert not evaluator.infers_attributes
    assert not evaluator._instance.policy.key.endswith(":traced")
    assert not evaluator.run(0).errors
    with pytest.raises(AttributeReadError, match="without recording their reads"):
        evaluator.read_attributes(0, {X})
    evaluator.close()


@needs_opa
def test_a_new_input_is_traced_and_mapped_anew(tmp_path: Path) -> None:
    evaluator = _evaluator(tmp_path)
    evaluator.run(0)
    assert evaluator.read_attributes(0, {X}) == {X: [("acl",)]}
    evaluator.load(parse_state(state({"x": {"size": 1, "tags": {"a": 1}}})))
    evaluator.run(1)
    assert evaluator.read_attributes(1, {X}) == {X: [("size",)]}
    evaluator.close()


@needs_opa
def test_reads_past_the_compaction_bound_are_held_as_distinct_pairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(attribute_reads, "COMPACT_BYTES", PAIR.size)
    evaluator = _evaluator(tmp_path)
    assert not evaluator.run(0).errors
    reads = evaluator._reads
    assert reads is not None and reads._chunks == [] and reads._pairs
    assert evaluator.read_attributes(0, {X, Y}) == {X: [("acl",)], Y: [("acl",)]}
    evaluator.close()
