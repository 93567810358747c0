"""``rego-engine rules``: the rule catalogue from ``-d`` paths and from a bundle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from scan_fixtures import ACL_RULE, BROKEN_RULE, ENC_RULE, write

from engine.cli.main import app
from engine.core.paths import REPO_ROOT
from engine.evaluation.bundle import build_bundle
from engine.rules.rego_outline import Call, calls, data_references

EXAMPLES = REPO_ROOT / "examples" / "custom-rules"

RELATIONS_LIB = """\
package lib.related
import rego.v1
import data.snyk

logged(b) if count(snyk.back_relates_with("aws_s3_bucket.logging", b)) > 0
"""

VIA_LIB_RULE = """\
package rules.via_lib
import rego.v1
import data.lib.related
import data.snyk

metadata := {"id": "R1", "title": "logged buckets", "severity": "medium"}
input_type := "tf"

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  not related.logged(b)
  info := {"resource": b}
}
"""

DYNAMIC_RULE = """\
package rules.dynamic
import rego.v1
import data.snyk

resource_type := "aws_s3_bucket"

deny contains info if {
  some name in ["a.b", "c.d"]
  # snyk.relates(input, "in.a.comment") is not a call
  count(snyk.relates(input, name)) > 0
  s := "snyk.relates(input, \\"in.a.string\\")"
  info := {"message": s}
}
"""

CONSTANT_RULE = """\
package rules.constant
import rego.v1
import data.snyk

kind := "aws_s3_bucket.versioning"

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  some v in data.snyk.relates_with(b, kind)
  info := {"resource": v[0]}
}
"""


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    directory = tmp_path / "rules"
    for name, text in {
        "enc.rego": ENC_RULE,
        "acl.rego": ACL_RULE,
        "lib.rego": RELATIONS_LIB,
        "via_lib.rego": VIA_LIB_RULE,
        "dynamic.rego": DYNAMIC_RULE,
        "constant.rego": CONSTANT_RULE,
    }.items():
        write(directory / name, text)
    return directory


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["rules", *map(str, args)], catch_exceptions=False)


def by_package(result: Result) -> dict[str, dict]:
    doc = json.loads(result.stdout_bytes)
    return {r["package"]: r for r in doc["rules"]}


def test_json_catalogue_lists_static_facts(rules: Path) -> None:
    result = invoke("-d", rules, "--format", "json")
    assert result.exit_code == 0, result.stderr
    listed = by_package(result)
    assert list(listed) == sorted(listed)
    acl = listed["data.rules.public_acl"]
    assert (acl["id"], acl["title"], acl["severity"]) == ("T2", "acl", "low")
    assert acl["resource_type"] == "aws_s3_bucket"
    assert acl["input_type"] is None and "k8s" in acl["input_types"]
    via = listed["data.rules.via_lib"]
    assert via["input_type"] == "tf"
    assert via["input_types"] == ["cloud_scan", "tf_hcl", "tf_plan", "tf_state"]
    assert via["resource_type"] == "MULTIPLE"


def test_relation_use_is_read_from_the_rego(rules: Path) -> None:
    listed = by_package(invoke("-d", rules, "--format", "json"))
    uses = {
        p: (r["uses_relations"], r["relations"], r["relations_dynamic"]) for p, r in listed.items()
    }
    assert uses["data.rules.enc"] == (False, [], False)
    # through the helper package it imports
    assert uses["data.rules.via_lib"] == (True, ["aws_s3_bucket.logging"], False)
    # a constant rule of the package, through data.snyk
    assert uses["data.rules.constant"] == (True, ["aws_s3_bucket.versioning"], False)
    # a computed name: used, names unknown; comments and strings are not calls
    assert uses["data.rules.dynamic"] == (True, [], True)


def test_the_example_rule_names_its_shipped_relation() -> None:
    listed = by_package(invoke("-d", EXAMPLES, "--format", "json"))
    s3 = listed["data.rules.example_s3_encryption"]
    assert s3["relations"] == ["aws_s3_bucket.server_side_encryption_configuration"]
    assert s3["id"] == "EXAMPLE_001" and s3["severity"] == "High"


def test_table_has_a_row_per_rule(rules: Path) -> None:
    result = invoke("-d", rules)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["ID", "SEVERITY", "INPUT"]
    assert len(lines) == 1 + 5
    row = next(line for line in lines if "data.rules.via_lib" in line)
    assert row.split()[:5] == ["R1", "medium", "tf", "MULTIPLE", "aws_s3_bucket.logging"]
    assert "(computed)" in next(line for line in lines if "data.rules.dynamic" in line)


def test_a_bundle_gives_the_same_catalogue(tmp_path: Path, rules: Path) -> None:
    out = tmp_path / "b.tar.gz"
    build_bundle([rules], out)
    from_source = invoke("-d", rules, "--format", "json")
    from_bundle = invoke("--bundle", out, "--format", "json")
    assert from_bundle.exit_code == 0
    assert from_bundle.stdout_bytes == from_source.stdout_bytes


def test_a_rule_that_does_not_compile_is_listed_with_its_error(rules: Path) -> None:
    write(rules / "broken.rego", BROKEN_RULE)
    result = invoke("-d", rules, "--format", "json")
    assert result.exit_code == 2
    broken = by_package(result)["data.rules.broken"]
    assert broken["errors"] and "broken.rego:5" in broken["errors"][0]
    assert len(by_package(result)) == 6


def test_rules_takes_one_source(rules: Path, tmp_path: Path) -> None:
    both = CliRunner().invoke(app, ["rules", "-d", str(rules), "--bundle", str(tmp_path)])
    assert both.exit_code == 2


def test_calls_skip_comments_and_strings_and_split_top_level_arguments() -> None:
    text = (
        "package p\n# f(x)\n"
        'a := f(g(1, 2), [3, 4], "x,y")\n'
        'b := data.snyk.relates(r, `n`)\nc := "h(1)"\n'
    )
    assert calls(text) == [
        Call("f", ("g ( 1 , 2 )", "[ 3 , 4 ]", '"x,y"')),
        Call("g", ("1", "2")),
        Call("data.snyk.relates", ("r", "`n`")),
    ]
    assert data_references("import data.lib.x\ny := data.a.b[1]\n") == {"lib.x", "a.b"}


def test_without_rules_the_shipped_pack_is_listed() -> None:
    listed = by_package(invoke("--format", "json"))
    assert len(listed) >= 30
    exposed = listed["data.rules.k8s_exposed_privileged"]
    assert exposed["uses_relations"] and "Service.selector" in exposed["relations"]
