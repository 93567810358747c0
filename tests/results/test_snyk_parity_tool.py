"""``bench/snyk_parity.py`` (``make snyk-parity``) over a small tree laid out as
snyk's policy engine lays out its golden rule sets."""

from __future__ import annotations

import copy
import functools
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from oracle import needs_opa

TOOL = Path(__file__).parent.parent.parent / "bench" / "snyk_parity.py"
MAIN_TF = """resource "aws_s3_bucket" "a" {
  bucket = "a-bucket"
}
"""
RULE = """package rules.named.tf
resource_type := "aws_s3_bucket"
deny[info] {
  contains(input.bucket, "bucket")
  info := {"message": "named bucket"}
}
"""
FUGUE_RULE = """package rules.fugue_allow
resource_type := "aws_s3_bucket"
allow { input.bucket == "other" }
"""
FUGUE_DENY = """package rules.fugue_deny
resource_type := "aws_s3_bucket"
deny { input.bucket == "a-bucket" }
"""
LOCATION = {"filepath": "../examples/main.tf", "line": 1, "column": 1}


@functools.cache
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("snyk_parity", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["snyk_parity"] = module
    spec.loader.exec_module(module)
    return module


def snyk_result(**fields: Any) -> dict[str, Any]:
    return {
        "passed": False,
        "ignored": False,
        "resource_id": "aws_s3_bucket.a",
        "resource_namespace": "../examples/main.tf",
        "resource_type": "aws_s3_bucket",
        **fields,
    }


def own_resource(attributes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "id": "aws_s3_bucket.a",
            "type": "aws_s3_bucket",
            "namespace": "../examples/main.tf",
            "location": [LOCATION],
            "attributes": attributes,
        }
    ]


def checkout(root: Path) -> None:
    """A snyk checkout with two golden sets: ``examples`` and ``fuguerules``."""
    (root / "examples" / "metadata").mkdir(parents=True)
    (root / "examples" / "main.tf").write_text(MAIN_TF)
    (root / "examples" / "named.rego").write_text(RULE)
    (root / "test" / "fuguerules").mkdir(parents=True)
    (root / "test" / "fuguerules" / "allow.rego").write_text(FUGUE_RULE)
    (root / "test" / "fuguerules" / "deny.rego").write_text(FUGUE_DENY)
    named = {
        "kind": "vulnerability",
        "rule_bundle": {"source": "data"},
        "resource_types": ["aws_s3_bucket"],
        "package": "data.rules.named.tf",
        "results": [
            snyk_result(
                message="named bucket",
                resources=own_resource(
                    [{"path": ["bucket_prefix"], "location": {**LOCATION, "line": 1, "column": 1}}]
                ),
            )
        ],
    }
    other = copy.deepcopy(named) | {"package": "data.rules.other.tf"}
    document = {"format": "results", "results": [{"rule_results": [named, other]}]}
    (root / "test" / "examples.json").write_text(json.dumps(document))
    allow = {
        "kind": "vulnerability",
        "resource_types": ["aws_s3_bucket"],
        "package": "data.rules.fugue_allow",
        "results": [snyk_result()],
    }
    deny = allow | {"package": "data.rules.fugue_deny", "results": [snyk_result(passed=True)]}
    (root / "test" / "fuguerules.json").write_text(json.dumps([allow, deny]))


@needs_opa
def test_packages_compared_with_attributes_counted_apart(tmp_path: Path) -> None:
    checkout(tmp_path)
    parity = tool()
    tallies = parity.run(tmp_path)
    assert list(tallies) == ["examples", "fuguerules"]
    examples = tallies["examples"]
    # The named rule is equal apart from the attribute path (the golden here says
    # another path was read); the other package is not in the rules.
    assert (examples.packages, examples.equal, examples.differing, examples.missing) == (
        2,
        1,
        0,
        1,
    )
    assert examples.attributes_equal == 0
    assert examples.first == {"data.rules.other.tf": "package missing"}
    assert examples.attribute_details == [
        "data.rules.named.tf aws_s3_bucket/aws_s3_bucket.a: attributes "
        '[["bucket@2"]] != [["bucket_prefix@1"]]'
    ]
    fugue = tallies["fuguerules"]
    # snyk lists no resources for a fugue-style result: the engine's own resource
    # is not compared (fugue_allow is equal), the verdict is (fugue_deny is not).
    assert (fugue.equal, fugue.differing) == (1, 1)
    assert fugue.details == [
        "data.rules.fugue_deny: result aws_s3_bucket/aws_s3_bucket.a: passed: false != true"
    ]
    table = parity.render(tallies, verbose=True)
    assert "| examples | 2 | 1 | 0 | 1 | 0 | 1 |" in table
    assert "data.rules.other.tf: package missing" in table


def test_model_mapping_of_locations_graphs_and_references() -> None:
    parity = tool()
    mapping = parity.Mapping({"../examples": "../examples/main.tf"})
    ours = {
        "passed": False,
        "ignored": False,
        "message": "",
        "context": None,
        "resource_id": "x",
        "resource_type": "t",
        "resource_namespace": "../examples",
        "graph": [
            {
                "label": "l",
                "source": {"id": "x", "type": "t", "namespace": "../examples"},
                "target": {"id": "y", "type": "t", "namespace": "../examples"},
            }
        ],
        "resources": [{"id": "x", "type": "t", "namespace": "../examples", "location": LOCATION}],
    }
    theirs = {
        "passed": False,
        "ignored": False,
        "resource_id": "x",
        "resource_type": "t",
        "resource_namespace": "../examples/main.tf",
        "graphs": [
            [
                {
                    "label": "l",
                    "source": {"id": "x", "type": "t", "namespace": "../examples/main.tf"},
                    "target": {"id": "y", "type": "t", "namespace": "../examples/main.tf"},
                }
            ]
        ],
        "resources": [
            {"id": "x", "type": "t", "namespace": "../examples/main.tf", "location": [LOCATION]}
        ],
    }
    assert parity.result_view(ours, mapping, ours=True) == parity.result_view(
        theirs, mapping, ours=False
    )
    theirs["graphs"][0][0]["label"] = "m"
    assert (
        parity.first_difference(
            "",
            parity.result_view(ours, mapping, ours=True),
            parity.result_view(theirs, mapping, ours=False),
        )
        == 'graphs[0][0].label: "l" != "m"'
    )
    references = {"references": [{"url": "https://a", "title": "A"}]}
    assert parity.rule_view(references, ours=False) == {"references": ["https://a"]}


def test_without_a_checkout_it_says_how_to_run_it(capsys: Any, tmp_path: Path) -> None:
    assert tool().main([str(tmp_path)]) == 2
    assert "SNYK_PE_DIR" in capsys.readouterr().err
