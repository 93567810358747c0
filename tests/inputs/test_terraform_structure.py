"""Terraform configuration read as Terraform's configuration loader reads it: type
constraints, dynamic blocks over sets, ignored files, duplicate and invalid names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.inputs.loaders.loaded import LoadedState
from engine.inputs.loaders.terraform_hcl import load_module


def _load(directory: Path, files: dict[str, str]) -> LoadedState:
    for name, text in files.items():
        (directory / name).write_text(text)
    return load_module(directory, "root")


def _resources(loaded: LoadedState, rtype: str) -> dict[str, Any]:
    return loaded.document["resources"].get(rtype, {})


OPTIONAL_DEFAULTS = """
variable "buckets" {
  type = map(object({
    acl        = optional(string, "private")
    versioning = optional(bool, true)
    tags       = optional(map(string), {})
    logging    = optional(object({ target = optional(string, "logs") }), {})
    note       = optional(string)
  }))
  default = {
    a = {}
    b = { acl = "public-read" }
    c = { versioning = false, logging = { target = "elsewhere" } }
  }
}

resource "aws_s3_bucket" "b" {
  for_each = { for name, spec in var.buckets : name => spec if spec.versioning }
  bucket   = each.key
  acl      = each.value.acl
  target   = each.value.logging.target
  note     = each.value.note
}
"""


def test_optional_defaults_fill_object_attributes(tmp_path: Path) -> None:
    buckets = _resources(_load(tmp_path, {"main.tf": OPTIONAL_DEFAULTS}), "aws_s3_bucket")
    assert sorted(buckets) == ['aws_s3_bucket.b["a"]', 'aws_s3_bucket.b["b"]']
    a = buckets['aws_s3_bucket.b["a"]']["attributes"]
    assert (a["acl"], a["target"], a["note"]) == ("private", "logs", None)
    assert buckets['aws_s3_bucket.b["b"]']["attributes"]["acl"] == "public-read"


def test_optional_defaults_apply_to_values_given_by_tfvars(tmp_path: Path) -> None:
    files = {
        "main.tf": OPTIONAL_DEFAULTS,
        "terraform.tfvars": "buckets = { x = {}, y = { versioning = false }, z = {} }\n",
    }
    buckets = _resources(_load(tmp_path, files), "aws_s3_bucket")
    assert sorted(buckets) == ['aws_s3_bucket.b["x"]', 'aws_s3_bucket.b["z"]']


def test_a_dynamic_block_over_a_set_gives_the_value_as_key(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "main.tf": """
variable "ports" {
  type    = set(string)
  default = ["443", "80"]
}
resource "aws_security_group" "g" {
  dynamic "ingress" {
    for_each = toset(["22", "8080"])
    content {
      from_port = ingress.key
      to_port   = ingress.value
    }
  }
  dynamic "egress" {
    for_each = var.ports
    content {
      from_port = egress.key
    }
  }
  dynamic "tag" {
    for_each = ["x", "y"]
    content {
      key = tag.key
    }
  }
}
"""
        },
    )
    group = _resources(loaded, "aws_security_group")["aws_security_group.g"]["attributes"]
    assert [(i["from_port"], i["to_port"]) for i in group["ingress"]] == [
        ("22", "22"),
        ("8080", "8080"),
    ]
    assert [e["from_port"] for e in group["egress"]] == ["443", "80"]
    assert [t["key"] for t in group["tag"]] == [0, 1]  # a list still gives its index


def test_files_terraform_ignores_are_not_read(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "main.tf": 'resource "aws_s3_bucket" "b" {\n  acl = "private"\n}\n',
            ".shadow.tf": 'resource "aws_s3_bucket" "b" {\n  acl = "public-read"\n}\n',
            "main.tf~": 'resource "aws_s3_bucket" "old" {}\n',
            "#main.tf#": 'resource "aws_s3_bucket" "autosave" {}\n',
            ".hidden.tf.json": '{"resource": {"aws_s3_bucket": {"j": {}}}}',
        },
    )
    buckets = _resources(loaded, "aws_s3_bucket")
    assert list(buckets) == ["aws_s3_bucket.b"]
    assert buckets["aws_s3_bucket.b"]["attributes"]["acl"] == "private"
    assert loaded.source_files == ["root/main.tf"]
    assert not loaded.errors


def test_a_duplicate_address_is_an_error_naming_both_blocks(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "a.tf": 'resource "aws_s3_bucket" "b" {\n  acl = "private"\n}\n',
            "b.tf": '\n\nresource "aws_s3_bucket" "b" {\n  acl = "public-read"\n}\n',
        },
    )
    assert list(_resources(loaded, "aws_s3_bucket")) == ["aws_s3_bucket.b"]
    [error] = loaded.errors
    assert error.message == (
        "root/b.tf:3: resource aws_s3_bucket.b is declared twice (first at root/a.tf:1); not loaded"
    )


def test_a_label_that_is_no_name_does_not_overwrite_a_count_instance(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "main.tf": 'resource "aws_s3_bucket" "x" {\n  count = 1\n  acl = "private"\n}\n'
            'resource "aws_s3_bucket" "x[0]" {\n  acl = "public-read"\n}\n'
        },
    )
    buckets = _resources(loaded, "aws_s3_bucket")
    assert buckets["aws_s3_bucket.x[0]"]["attributes"]["acl"] == "private"
    [error] = loaded.errors
    assert error.message.startswith("root/main.tf:5: resource aws_s3_bucket.x[0]: invalid name")


BASE = """
resource "aws_s3_bucket" "b" {
  bucket = "data"
  acl    = "private"
  versioning {
    enabled = true
  }
  lifecycle {
    prevent_destroy = true
  }
}

locals {
  name = "base"
}

resource "aws_s3_bucket" "named" {
  bucket = local.name
}
"""


def test_override_files_are_merged_as_terraform_merges_them(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "main.tf": BASE,
            "override.tf": 'resource "aws_s3_bucket" "b" {\n  acl = "public-read"\n}\n',
            "z_override.tf": (
                'resource "aws_s3_bucket" "b" {\n'
                "  versioning {\n    enabled = false\n  }\n"
                "  lifecycle {\n    ignore_changes = [tags]\n  }\n"
                "}\n"
                'locals {\n  name = "overridden"\n}\n'
            ),
            "a_override.tf.json": '{"resource": {"aws_s3_bucket": {"b": {"bucket": "json"}}}}',
        },
    )
    buckets = _resources(loaded, "aws_s3_bucket")
    bucket = buckets["aws_s3_bucket.b"]["attributes"]
    assert bucket["acl"] == "public-read"
    assert bucket["bucket"] == "json"
    assert bucket["versioning"] == [{"enabled": False}]
    assert buckets["aws_s3_bucket.named"]["attributes"]["bucket"] == "overridden"
    assert not loaded.errors
    source_map = loaded.source_map
    assert source_map is not None
    acl = source_map.attribute_location("aws_s3_bucket", "aws_s3_bucket.b", ("acl",))
    assert acl is not None and (acl.path, acl.line) == ("root/override.tf", 2)
    where = source_map.resource_location("aws_s3_bucket", "aws_s3_bucket.b")
    assert where is not None and (where.path, where.line) == ("root/main.tf", 2)


def test_an_override_of_nothing_is_an_error_naming_it(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "main.tf": BASE,
            "override.tf": 'resource "aws_s3_bucket" "other" {\n  acl = "public-read"\n}\n',
        },
    )
    assert "aws_s3_bucket.other" not in _resources(loaded, "aws_s3_bucket")
    [error] = loaded.errors
    assert error.message.startswith(
        "root/override.tf:1: override of resource 'aws_s3_bucket.other' has no declaration"
    )


def test_a_module_that_is_not_available_is_a_warning_naming_the_block(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "main.tf": 'module "vpc" {\n  source = "terraform-aws-modules/vpc/aws"\n}\n'
            'module "local" {\n  source = "./missing"\n}\n'
        },
    )
    assert loaded.document["resources"] == {}
    assert not loaded.errors
    assert loaded.warnings == [
        "root/main.tf:1: module 'vpc' not loaded: source 'terraform-aws-modules/vpc/aws' is not "
        "downloaded (no entry in .terraform/modules/modules.json: run terraform init before "
        "scanning); its resources are not scanned",
        "root/main.tf:4: module 'local' not loaded: its directory root/missing does not exist; "
        "its resources are not scanned",
    ]


def test_the_warning_reaches_the_state_command(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from engine.cli.main import app

    (tmp_path / "main.tf").write_text('module "m" {\n  source = "./gone"\n}\n')
    result = CliRunner().invoke(app, ["state", str(tmp_path)])
    assert result.exit_code == 0
    assert "main.tf:1: module 'm' not loaded: its directory" in result.stderr


def test_optional_defaults_in_json_syntax(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        {
            "main.tf.json": """{
  "variable": {"buckets": {
    "type": "${map(object({acl = optional(string, \\"private\\")}))}",
    "default": {"a": {}, "b": {"acl": "public-read"}}
  }},
  "resource": {"aws_s3_bucket": {"b": {
    "for_each": "${var.buckets}",
    "acl": "${each.value.acl}"
  }}}
}"""
        },
    )
    buckets = _resources(loaded, "aws_s3_bucket")
    assert buckets['aws_s3_bucket.b["a"]']["attributes"]["acl"] == "private"
    assert buckets['aws_s3_bucket.b["b"]']["attributes"]["acl"] == "public-read"
