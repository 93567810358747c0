"""The Terraform HCL loader: golden States for fixture modules, variables, errors, locations."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest
from loader_goldens import check_snyk_parity

from engine.inputs.loaders.loaded import LoadedState, LoaderError
from engine.inputs.loaders.terraform_hcl import INPUT_TYPE, is_configuration_file, load_module
from engine.inputs.source_map import SourceLocation

FIXTURES = Path(__file__).parent.parent / "loaders" / "tf_hcl"
UPDATE = os.environ.get("REGO_ENGINE_UPDATE_GOLDEN") == "1"
MODULES = sorted(p.name for p in FIXTURES.iterdir() if (p / "expected.json").exists() or UPDATE)


def _snapshot(loaded: LoadedState) -> dict[str, Any]:
    return {
        "state": loaded.document,
        "references": [
            {**dataclasses.asdict(r), "attribute": list(r.attribute)} for r in loaded.references
        ],
        "source_files": loaded.source_files,
    }


@pytest.mark.parametrize("module", MODULES)
def test_golden_state(module: str) -> None:
    loaded = load_module(FIXTURES / module, module)
    actual = json.loads(json.dumps(_snapshot(loaded)))
    golden = FIXTURES / module / "expected.json"
    if UPDATE:
        check_snyk_parity(FIXTURES / module, actual["state"])
        golden.write_text(json.dumps(actual, indent=2, sort_keys=True) + "\n")
    assert actual == json.loads(golden.read_text())


def test_fixture_count() -> None:
    assert len(MODULES) >= 10


def _attributes(loaded: LoadedState, rtype: str, key: str) -> dict[str, Any]:
    return loaded.document["resources"][rtype][key]["attributes"]


def test_var_files_and_command_line_variables_take_precedence(tmp_path: Path) -> None:
    var_file = tmp_path / "override.tfvars"
    var_file.write_text('instance_type = "m5.xlarge"\nvolume_size = "20"\n')
    loaded = load_module(
        FIXTURES / "variables_tfvars",
        "root",
        var_files=[var_file],
        variables={
            "environment": "123",
            "allowed_cidrs": '["192.168.0.0/24"]',
            "enable_monitoring": "false",
        },
    )
    web = _attributes(loaded, "aws_instance", "aws_instance.web")
    assert web["instance_type"] == "m5.xlarge"
    assert web["monitoring"] is False
    # a string for a variable of type number is converted
    assert web["root_block_device"] == [{"volume_size": 20, "encrypted": False}]
    assert web["tags"]["Environment"] == "123"  # declared a string: kept literally
    group = _attributes(loaded, "aws_security_group", "aws_security_group.web")
    assert group["ingress"][0]["cidr_blocks"] == ["192.168.0.0/24"]
    assert str(var_file) in loaded.source_files


def test_variables_without_a_value(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'variable "unset" {\n  type = string\n}\n'
        'variable "written_null" {\n  type    = string\n  default = null\n}\n'
        'variable "given" {\n  type = string\n}\n'
        'variable "unset_list" {\n  type = list(string)\n}\n'
        'resource "aws_s3_bucket" "b" {\n'
        "  bucket = var.unset\n"
        "  acl    = var.written_null\n"
        "  policy = var.given\n"
        '  grants = coalesce(var.unset_list, ["none"])\n'
        "}\n"
    )
    loaded = load_module(tmp_path, "root", variables={"given": "x"})
    assert _attributes(loaded, "aws_s3_bucket", "aws_s3_bucket.b") == {
        "bucket": "var.unset",
        "acl": None,
        "policy": "x",
        "grants": ["none"],
    }


def test_json_dynamic_blocks_expand_and_lifecycle_is_left_out(tmp_path: Path) -> None:
    group = {
        "name": "web",
        "lifecycle": {"create_before_destroy": True},
        "dynamic": {
            "ingress": {
                "for_each": [80, 443],
                "iterator": "port",
                "content": {"from_port": "${port.value}", "cidr_blocks": ["0.0.0.0/0"]},
            }
        },
        "egress": {"from_port": 0},
    }
    (tmp_path / "main.tf.json").write_text(
        json.dumps({"resource": {"aws_security_group": {"web": group}}})
    )
    loaded = load_module(tmp_path, "root")
    assert _attributes(loaded, "aws_security_group", "aws_security_group.web") == {
        "name": "web",
        "egress": {"from_port": 0},
        "ingress": [
            {"from_port": 80, "cidr_blocks": ["0.0.0.0/0"]},
            {"from_port": 443, "cidr_blocks": ["0.0.0.0/0"]},
        ],
    }


def test_json_objects_stay_objects_and_references_keep_their_path(tmp_path: Path) -> None:
    document = {
        "variable": {"env": {"default": "prod"}},
        "resource": {
            "aws_s3_bucket": {"b": {"bucket_prefix": "b-"}},
            "aws_lambda_function": {
                "f": {
                    "environment": {
                        "variables": {
                            "BUCKET": "${aws_s3_bucket.b.bucket}",
                            "${upper(var.env)}": "on",
                            "BROKEN": "${nowhere.x}",
                        }
                    },
                    "layers": [{"arn": "${aws_s3_bucket.b.arn}"}],
                    "bad_key": {"${nowhere.y}": 1},
                }
            },
        },
    }
    (tmp_path / "main.tf.json").write_text(json.dumps(document))
    loaded = load_module(tmp_path, "root")
    assert _attributes(loaded, "aws_lambda_function", "aws_lambda_function.f") == {
        "environment": {"variables": {"BUCKET": "aws_s3_bucket.b", "PROD": "on", "BROKEN": None}},
        "layers": [{"arn": "aws_s3_bucket.b"}],
        "bad_key": None,
    }
    assert [(r.attribute, r.target_key, r.target_attribute) for r in loaded.references] == [
        (("environment", "variables", "BUCKET"), "aws_s3_bucket.b", "bucket"),
        (("layers", 0, "arn"), "aws_s3_bucket.b", "arn"),
    ]


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "ok.tf").write_text("locals {\n  a = 1\n}\n")
    (tmp_path / "broken.tf").write_text('resource "aws_s3_bucket" "b" {\n  bucket = [1,\n}\n')
    with pytest.raises(LoaderError) as raised:
        load_module(tmp_path, "infra")
    assert raised.value.message.startswith("infra/broken.tf:3: invalid HCL")
    assert raised.value.line == 3


def test_the_first_bad_escape_is_reported_and_too_deep_a_tree_before_it(tmp_path: Path) -> None:
    body = 'locals {\n  a = { b = "\\ud800" }\n  c = "ok \\n"\n  d = [["\\udfff"]]\n}\n'
    (tmp_path / "main.tf").write_text(body)
    with pytest.raises(LoaderError) as raised:
        load_module(tmp_path, "infra")
    assert raised.value.message == (
        "infra/main.tf:2: invalid HCL: invalid escape sequence \\ud800: "
        "cannot encode character U+D800 in UTF-8"
    )
    deep = "[" * 200 + "]" * 200
    (tmp_path / "main.tf").write_text(body + f"locals {{\n  e = [\n  {deep}]\n}}\n")
    with pytest.raises(LoaderError) as raised:
        load_module(tmp_path, "infra")
    assert raised.value.message.startswith("infra/main.tf:8: invalid HCL: an expression nests")
    assert raised.value.line == 8


def test_json_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "main.tf.json").write_text('{\n  "resource": {\n    "a": 1,\n  }\n}\n')
    with pytest.raises(LoaderError) as raised:
        load_module(tmp_path, "cdk")
    assert raised.value.message.startswith("cdk/main.tf.json:4: invalid JSON")
    assert raised.value.line == 4


def test_malformed_json_structure_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "main.tf.json").write_text(
        '{"resource": {"aws_s3_bucket": 3, "aws_sqs_queue": {"q": {"name": "${1 +}"}}},'
        ' "locals": 7}'
    )
    loaded = load_module(tmp_path, "x")
    assert _attributes(loaded, "aws_sqs_queue", "aws_sqs_queue.q") == {"name": None}


def test_module_recursion_is_cut(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'module "self" {\n  source = "./"\n}\nresource "aws_sns_topic" "t" {\n  name = "t"\n}\n'
    )
    loaded = load_module(tmp_path, "loop")
    assert list(loaded.document["resources"]["aws_sns_topic"]) == ["aws_sns_topic.t"]
    assert [(e.message, e.line) for e in loaded.errors] == [
        ("loop/main.tf:1: module 'self' sources its own directory loop; not loaded", 1)
    ]


def test_a_named_file_is_read_as_given_and_its_neighbours_inside_the_root(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.tf").write_text('resource "aws_sns_topic" "a" {\n  name = "a"\n}\n')
    (outside / "b.tf").write_text('resource "aws_sns_topic" "b" {\n  name = "b"\n}\n')
    module = tmp_path / "module"
    module.mkdir()
    (module / "a.tf").symlink_to(outside / "a.tf")
    (module / "b.tf").symlink_to(outside / "b.tf")
    loaded = load_module(module, "m", named=frozenset({module / "a.tf", module / "b.tf"}))
    assert list(loaded.document["resources"]["aws_sns_topic"]) == [
        "aws_sns_topic.a",
        "aws_sns_topic.b",
    ]
    with pytest.raises(LoaderError, match=r"^m/b\.tf: cannot read \(symbolic link leads outside"):
        load_module(module, "m", named=frozenset({module / "a.tf"}))


def test_document_shape() -> None:
    loaded = load_module(FIXTURES / "references", "refs")
    assert loaded.document["input_type"] == INPUT_TYPE
    entry = loaded.document["resources"]["aws_s3_bucket"]["aws_s3_bucket.data"]
    assert entry["namespace"] == "refs"
    assert entry["id"] == "aws_s3_bucket.data"


def test_resource_and_nested_attribute_locations() -> None:
    source_map = load_module(FIXTURES / "dynamic_blocks", "dyn").source_map
    assert source_map is not None
    key = ("aws_security_group", "aws_security_group.app")
    assert source_map.resource_location(*key) == SourceLocation("dyn/main.tf", 15, 1)
    assert source_map.attribute_location(*key, ("name",)) == SourceLocation("dyn/main.tf", 16, 3)
    # an expanded dynamic block: the attribute inside its content block
    assert source_map.attribute_location(*key, ("ingress", 1, "cidr_blocks")) == SourceLocation(
        "dyn/main.tf", 25, 7
    )
    assert source_map.attribute_location(*key, ("egress", 0, "cidr_blocks", 0)) == (
        SourceLocation("dyn/main.tf", 34, 5)
    )
    # not written: the resource block itself
    assert source_map.attribute_location(*key, ("arn",)) == SourceLocation("dyn/main.tf", 15, 1)
    assert source_map.resource_location("aws_security_group", "nope") is None


def test_locations_in_child_modules_and_json() -> None:
    modules = load_module(FIXTURES / "child_modules", "cm").source_map
    assert modules is not None
    key = ("aws_subnet", "module.network.module.private[1].aws_subnet.this")
    assert modules.attribute_location(*key, ("tags", "Name")) == SourceLocation(
        "cm/modules/network/subnet/main.tf", 13, 3
    )
    cdk = load_module(FIXTURES / "cdktf_json", "cdk").source_map
    assert cdk is not None
    topic = ("aws_sns_topic", "aws_sns_topic.storage_topics_11223344[1]")
    assert cdk.resource_location(*topic) == SourceLocation("cdk/main.tf.json", 37, 7)
    assert cdk.attribute_location(*topic, ("name",)) == SourceLocation("cdk/main.tf.json", 39, 9)


def test_is_configuration_file() -> None:
    assert is_configuration_file(Path("main.tf"))
    assert is_configuration_file(Path("cdk.tf.json"))
    assert not is_configuration_file(Path("terraform.tfvars"))
    assert not is_configuration_file(Path("plan.json"))
