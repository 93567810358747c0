"""The State document is loaded as ``input`` only when some module may read it.

Single-resource rules see one resource as ``input``; every other module that
names ``input`` (multi-resource rules, libraries, relations) gets the State.
When none does, the State is resident only as resource objects.
"""

from __future__ import annotations

import json
from pathlib import Path

from scan_fixtures import ACL_RULE, ENC_RULE

from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.state import parse_state
from engine.rules.rego_outline import mentions_input
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import load_sources
from engine.scanning.scanner import scan

STATE = {
    "input_type": "tf_hcl",
    "scope": {},
    "meta": {},
    "resources": {
        "aws_s3_bucket": {
            "aws_s3_bucket.a": {
                "id": "aws_s3_bucket.a",
                "resource_type": "aws_s3_bucket",
                "namespace": "main.tf",
                "attributes": {"acl": "public-read", "encrypted": False},
            }
        }
    },
}

INPUT_RULE = """\
package rules.counts
import rego.v1

deny contains {"message": sprintf("%d buckets", [count(input.resources.aws_s3_bucket)])}
"""

LIB = """\
package lib.acl
import rego.v1

public if input.acl == "public-read"
"""

SINGLE_WITH_LIB = """\
package rules.lib_acl
import rego.v1
import data.lib.acl

resource_type := "aws_s3_bucket"

deny contains "public" if acl.public
"""


def evaluator(tmp_path: Path, files: dict[str, str]) -> RuleEvaluator:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return RuleEvaluator(compile_rule_set(load_sources([tmp_path])))


def test_mentions_input_skips_comments_and_strings() -> None:
    assert mentions_input("package x\nallow if input.a")
    assert mentions_input("package x\nf(x) := y if { y := x } with input as {}")
    assert not mentions_input('package x\n# input\nmsg := "input"\nraw := `input`\n')
    assert not mentions_input("package x\nallow if inputs.a\nb := my_input")


def test_rules_through_the_api_load_no_state_document(tmp_path: Path) -> None:
    ev = evaluator(tmp_path, {"enc.rego": ENC_RULE})
    assert not ev.api.input_document


def test_single_resource_rules_read_their_resource_not_the_state(tmp_path: Path) -> None:
    ev = evaluator(tmp_path, {"acl.rego": ACL_RULE, "enc.rego": ENC_RULE})
    assert not ev.api.input_document
    ev.load(parse_state(STATE))
    run = ev.run(0)  # rules.enc, then rules.public_acl
    assert not run.errors
    single = ev.run(1)
    assert single.per_resource, single


def test_a_multi_resource_rule_naming_input_gets_the_state(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "counts.rego").write_text(INPUT_RULE)
    (tmp_path / "rules" / "enc.rego").write_text(ENC_RULE)
    (tmp_path / "state.json").write_text(json.dumps(STATE))
    report = scan([tmp_path / "state.json"], [tmp_path / "rules"])
    assert not report.errors
    messages = [
        r.message for rr in report.inputs[0].rule_results for r in rr.results if not r.passed
    ]
    assert "1 buckets" in messages


def test_a_library_naming_input_gets_the_state(tmp_path: Path) -> None:
    ev = evaluator(tmp_path, {"lib.rego": LIB, "rule.rego": SINGLE_WITH_LIB})
    assert ev.api.input_document
