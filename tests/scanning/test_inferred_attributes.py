"""Attribute paths inferred from what a rule read, for resources it named none of:
our own rules over our own Terraform, through the whole scan."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa
from scan_fixtures import write

from engine.core.paths import display_path
from engine.evaluation.evaluator import RuleEvaluator
from engine.scanning.scanner import scan

pytestmark = needs_opa

MAIN_TF = """\
resource "aws_s3_bucket" "named" {
  bucket = "my-bucket"
}

resource "aws_s3_bucket" "prefixed" {
  bucket_prefix = "logs-"

  versioning {
    enabled = true
  }
}
"""

# Multi-resource: a read of an attribute the resource lacks counts; the
# function stops at its first successful body (topdown's early exit); `id`
# is a reference field, never reported.
MULTI = """package rules.multi_reads
import rego.v1
import data.snyk

buckets := snyk.resources("aws_s3_bucket")

named(b) if contains(b.bucket, "bucket")

named(b) if startswith(b.bucket_prefix, "logs")

deny contains {"resource": b, "message": "named"} if {
	some b in buckets
	named(b)
	b.id != ""
}

resources contains {"resource": b} if some b in buckets
"""

# Single-resource: only attributes the resource has count.
SINGLE = """package rules.single_reads
import rego.v1

resource_type := "aws_s3_bucket"

deny contains {"message": "versioned"} if input.versioning[0].enabled == true

deny contains {"message": "never"} if input.nothing_here == 1
"""

# Named attributes (a set of paths) are kept as named; a resource the rule
# names none for shows what was read of it.
EXPLICIT = """package rules.explicit_reads
import rego.v1

resource_type := "aws_s3_bucket"

deny contains {"message": "named", "attributes": {["versioning"]}} if input.bucket
"""


@pytest.fixture(scope="module")
def attributes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Any]:
    root = tmp_path_factory.mktemp("inferred")
    main = write(root / "main.tf", MAIN_TF)
    for name, text in (("multi", MULTI), ("single", SINGLE), ("explicit", EXPLICIT)):
        write(root / "rules" / f"{name}.rego", text)
    report = scan([main], [root / "rules"])
    assert report.errors == []
    document = json.loads(report.to_json())
    where = display_path(main)
    found: dict[tuple[str, str], Any] = {}
    for rule in document["results"][0]["rule_results"]:
        for result in rule["results"]:
            for resource in result["resources"]:
                found[rule["package"].split(".")[2], resource["id"]] = [
                    (a["path"], (a["location"]["line"], a["location"]["column"]))
                    for a in resource["attributes"]
                    if a["location"]["filepath"] == where
                ]
    return found


def test_a_multi_resource_rule_shows_what_it_read_missing_attributes_included(
    attributes: dict[tuple[str, str], Any],
) -> None:
    assert attributes["multi_reads", "aws_s3_bucket.named"] == [(["bucket"], (2, 3))]
    # `bucket` is absent: located at the resource, as snyk locates it
    assert attributes["multi_reads", "aws_s3_bucket.prefixed"] == [
        (["bucket"], (5, 1)),
        (["bucket_prefix"], (6, 3)),
    ]


def test_a_single_resource_rule_shows_only_attributes_the_resource_has(
    attributes: dict[tuple[str, str], Any],
) -> None:
    assert attributes["single_reads", "aws_s3_bucket.named"] == []
    assert attributes["single_reads", "aws_s3_bucket.prefixed"] == [
        (["versioning", 0, "enabled"], (9, 5))
    ]


def test_named_attributes_are_kept_and_others_inferred(
    attributes: dict[tuple[str, str], Any],
) -> None:
    # a set of paths, as named (the bucket lacks it: located at the resource)
    assert attributes["explicit_reads", "aws_s3_bucket.named"] == [(["versioning"], (1, 1))]
    assert attributes["explicit_reads", "aws_s3_bucket.prefixed"] == []


def test_a_rule_set_without_reads_has_no_attributes(tmp_path: Path) -> None:
    main = write(tmp_path / "main.tf", MAIN_TF)
    write(
        tmp_path / "rules" / "r.rego",
        'package rules.blind\nimport rego.v1\nresource_type := "aws_s3_bucket"\n'
        'deny contains "always" if true\n',
    )
    document = json.loads(scan([main], [tmp_path / "rules"]).to_json())
    (rule,) = document["results"][0]["rule_results"]
    assert [r["resources"][0]["attributes"] for r in rule["results"]] == [[], []]


def test_resources_asked_for_by_a_supertype_show_what_was_read(tmp_path: Path) -> None:
    """``snyk.resources("aws_lb")`` hands out its own copy of the aws_alb objects."""
    main = write(tmp_path / "main.tf", 'resource "aws_alb" "x" {\n  internal = false\n}\n')
    write(
        tmp_path / "rules" / "lb.rego",
        "package rules.lb_reads\nimport rego.v1\nimport data.snyk\n"
        'deny contains {"resource": lb, "message": "public"} if {\n'
        '\tsome lb in snyk.resources("aws_lb")\n\tlb.internal == false\n}\n',
    )
    document = json.loads(scan([main], [tmp_path / "rules"]).to_json())
    (rule,) = document["results"][0]["rule_results"]
    (result,) = rule["results"]
    (resource,) = result["resources"]
    assert [(a["path"], a["location"]["line"]) for a in resource["attributes"]] == [
        (["internal"], 2)
    ]


def test_each_input_of_a_scan_shows_its_own_reads(tmp_path: Path) -> None:
    first = write(tmp_path / "a" / "main.tf", 'resource "aws_s3_bucket" "x" {\n  bucket = "x"\n}\n')
    second = write(
        tmp_path / "b" / "main.tf",
        '\n\nresource "aws_s3_bucket" "x" {\n  bucket_prefix = "logs"\n}\n',
    )
    write(tmp_path / "rules" / "multi.rego", MULTI)
    document = json.loads(scan([first.parent, second.parent], [tmp_path / "rules"]).to_json())
    found = {}
    for entry in document["results"]:
        (rule,) = entry["rule_results"]
        (result,) = rule["results"]
        (resource,) = result["resources"]
        found[Path(entry["input"]["meta"]["filepath"]).name] = [
            (a["path"], a["location"]["line"]) for a in resource["attributes"]
        ]
    assert found == {
        "a": [(["bucket"], 2), (["bucket_prefix"], 1)],
        "b": [(["bucket"], 3), (["bucket_prefix"], 4)],
    }


def test_a_failure_inferring_attributes_is_the_rules_error_and_spares_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    main = write(tmp_path / "main.tf", MAIN_TF)
    write(tmp_path / "rules" / "multi.rego", MULTI)
    write(tmp_path / "rules" / "explicit.rego", EXPLICIT)
    calls: list[int] = []

    def broken(self: RuleEvaluator, index: int, wanted: set[Any]) -> dict[Any, Any]:
        calls.append(index)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return {}

    monkeypatch.setattr(RuleEvaluator, "read_attributes", broken)
    document = json.loads(scan([main], [tmp_path / "rules"]).to_json())
    rules = document["results"][0]["rule_results"]
    assert len(calls) == 2
    failed = [r for r in rules if r["errors"]]
    assert len(failed) == 1 and "RuntimeError: boom" in failed[0]["errors"][0]
    assert all(r["results"] for r in rules)


def test_rules_whose_traced_copy_cannot_be_made_keep_their_results_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.evaluation import attribute_reads
    from engine.wasm.binary import WasmFormatError

    def fails(wasm: bytes) -> bytes:
        raise WasmFormatError("the module has no opa_value_get function")

    monkeypatch.setattr(attribute_reads, "traced_module", fails)
    main = write(tmp_path / "main.tf", MAIN_TF)
    write(tmp_path / "rules" / "multi.rego", MULTI)
    report = scan([main], [tmp_path / "rules"])
    assert not report.has_errors
    assert report.warnings == [
        f"{display_path(main.parent)}: data.rules.multi_reads: attribute paths not inferred: "
        "the traced copy of the rules: the module has no opa_value_get function"
    ]
    results = [r for i in report.inputs for rr in i.rule_results for r in rr.results]
    assert len(results) == 2
    assert all(resource.attributes == [] for r in results for resource in r.resources)


def _pod(containers: int) -> str:
    spec = "".join(
        f"""    - name: c{i}
      image: registry.example/app:{i}
      ports: [{{containerPort: {8000 + i}}}]
      env: [{{name: A{i}, value: x}}, {{name: B{i}, value: y}}]
      resources: {{limits: {{cpu: "1", memory: 1Gi}}, requests: {{cpu: "1", memory: 1Gi}}}}
      securityContext:
        privileged: true
        allowPrivilegeEscalation: true
        runAsUser: 0
        capabilities: {{add: [NET_ADMIN, SYS_ADMIN]}}
"""
        for i in range(containers)
    )
    return f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: wide\nspec:\n  containers:\n{spec}"


def test_inferred_paths_per_result_are_bounded_with_a_warning(tmp_path: Path) -> None:
    """One Pod of many containers under the shipped rules: every rule reads every
    container, and each result of each container would show all those paths."""
    from engine.core.paths import REGO_RULES_DIR

    write(tmp_path / "pod.yaml", _pod(80))
    report = scan([tmp_path / "pod.yaml"], [REGO_RULES_DIR])
    shown = [
        len(resource.attributes)
        for entry in report.inputs
        for rule in entry.rule_results
        for result in rule.results
        for resource in result.resources
    ]
    assert shown and max(shown) == 100  # MAX_PATHS_PER_RESOURCE
    warnings = [w for w in report.warnings if "inferred attribute paths cut" in w]
    shown_path = report.inputs[0].input.name
    assert warnings and all(w.startswith(f"{shown_path}: ") for w in warnings)


WIDE_READER = """package rules.wide_reader
import rego.v1
import data.snyk

deny contains {"resource": b, "message": "read widely"} if {
	some b in snyk.resources("aws_s3_bucket")
	count([k | some k in numbers.range(0, 4999); b.tags[sprintf("k%d", [k])]]) >= 0
}
"""


def test_a_rule_reading_too_many_values_gets_no_inferred_paths_and_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.evaluation import attribute_reads

    monkeypatch.setattr(attribute_reads, "MAX_DISTINCT_READS", 1000, raising=False)
    tags = ", ".join(f'k{i} = "v"' for i in range(5000))
    bucket = f'resource "aws_s3_bucket" "b" {{\n  tags = {{ {tags} }}\n}}\n'
    write(tmp_path / "tf" / "main.tf", bucket)
    write(tmp_path / "rules" / "wide.rego", WIDE_READER)
    report = scan([tmp_path / "tf"], [tmp_path / "rules"])
    (rule,) = [r for e in report.inputs for r in e.rule_results if r.package.endswith("reader")]
    assert [res.resources[0].attributes for res in rule.results] == [[]]
    assert any(
        "attribute paths not inferred: the rule read more than 1,000 distinct values" in w
        for w in report.warnings
    )
