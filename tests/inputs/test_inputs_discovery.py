"""`engine.inputs.discovery.load_inputs`: finding files, detecting formats, grouping into States."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from engine.inputs.discovery import (
    LoadOptions,
    load_inputs,
    load_unit,
    loaded_inputs,
    manifest_units,
    plan_loading,
    split_unit,
)
from engine.inputs.loaders.detection import detect

BUCKET = {"id": "b", "resource_type": "aws_s3_bucket", "attributes": {"acl": "private"}}
STATE = {"input_type": "tf_hcl", "resources": {"aws_s3_bucket": {"aws_s3_bucket.b": BUCKET}}}

PLAN = {
    "format_version": "1.2",
    "terraform_version": "1.6.0",
    "planned_values": {
        "root_module": {
            "resources": [
                {
                    "address": "aws_s3_bucket.b",
                    "mode": "managed",
                    "type": "aws_s3_bucket",
                    "name": "b",
                    "provider_name": "registry.terraform.io/hashicorp/aws",
                    "values": {"bucket": "logs"},
                }
            ]
        }
    },
    "configuration": {"root_module": {}},
}

CFN_YAML = """\
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub "${AWS::StackName}-logs"
"""

ARM = {
    "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
    "contentVersion": "1.0.0.0",
    "resources": [
        {
            "type": "Microsoft.Storage/storageAccounts",
            "apiVersion": "2022-09-01",
            "name": "logs",
            "location": "westeurope",
            "properties": {"supportsHttpsTrafficOnly": True},
        }
    ],
}

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: {name}
spec:
  containers:
    - name: app
      image: nginx:1.25
"""

MAIN_TF = """\
module "net" {
  source = "../modules/net"
  cidr   = "10.0.0.0/16"
}

resource "aws_s3_bucket" "b" {
  bucket = "logs"
}
"""

NET_TF = """\
variable "cidr" {
  type = string
}

resource "aws_vpc" "v" {
  cidr_block = var.cidr
}
"""


def write(path: Path, content: str | dict[str, Any] | list[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content, indent=2))
    return path


def names(paths: list[str], root: Path) -> list[str]:
    return [os.path.relpath(p, root) for p in paths]


def test_each_format_is_detected_by_content(tmp_path: Path) -> None:
    write(tmp_path / "a_state.json", STATE)
    write(tmp_path / "b_plan.json", PLAN)
    write(tmp_path / "c_stack.template", CFN_YAML)
    write(tmp_path / "d_azure.json", ARM)
    write(tmp_path / "e_k8s" / "pod.yaml", POD.format(name="web"))
    raw_state = (
        Path(__file__).parent.parent / "loaders" / "tf_state" / "raw_v4" / "terraform.tfstate"
    )
    write(tmp_path / "f_live" / "terraform.tfstate", raw_state.read_text())
    loaded = load_inputs([tmp_path])
    assert loaded.problems == []
    found = {os.path.relpath(i.path, tmp_path): i.state.input_type for i in loaded.inputs}
    assert found == {
        "a_state.json": "tf_hcl",
        "b_plan.json": "tf_plan",
        "c_stack.template": "cfn",
        "d_azure.json": "arm",
        "e_k8s": "k8s",
        "f_live/terraform.tfstate": "tf_state",
    }
    for scan_input in loaded.inputs:
        if scan_input.state.input_type != "tf_hcl":
            assert scan_input.state.source_map is not None


def test_detect_prefers_states_and_respects_a_forced_type() -> None:
    assert detect([STATE]) is not None and detect([STATE]).states == [STATE]  # type: ignore[union-attr]
    assert detect([STATE], "cfn") is None
    plan = detect([PLAN])
    assert plan is not None and plan.loader is not None and plan.loader.INPUT_TYPE == "tf_plan"
    assert detect([PLAN], "arm") is None
    assert detect([{"hello": "world"}]) is None
    assert detect([{"a": 1}, {"b": 2}]) is None


def test_manifests_of_one_directory_form_one_state(tmp_path: Path) -> None:
    write(tmp_path / "k8s" / "a.yaml", POD.format(name="a"))
    write(tmp_path / "k8s" / "b.yaml", POD.format(name="b") + "---\n" + POD.format(name="c"))
    write(tmp_path / "k8s" / "other" / "d.yml", POD.format(name="d"))
    loaded = load_inputs([tmp_path])
    assert loaded.problems == []
    assert names([i.path for i in loaded.inputs], tmp_path) == ["k8s", "k8s/other"]
    first = loaded.inputs[0]
    assert sorted(r.id for r in first.state.all_resources()) == ["a", "b", "c"]
    assert names(list(first.source_files), tmp_path) == ["k8s/a.yaml", "k8s/b.yaml"]

    split = load_inputs([tmp_path], LoadOptions(split_k8s=True))
    assert names([i.path for i in split.inputs], tmp_path) == [
        "k8s/a.yaml",
        "k8s/b.yaml",
        "k8s/other/d.yml",
    ]


def test_terraform_root_modules_absorb_their_local_children(tmp_path: Path) -> None:
    write(tmp_path / "env" / "prod" / "main.tf", MAIN_TF)
    write(tmp_path / "env" / "modules" / "net" / "main.tf", NET_TF)
    write(tmp_path / "lonely" / "main.tf", 'resource "aws_sqs_queue" "q" {}\n')
    loaded = load_inputs([tmp_path])
    assert loaded.problems == []
    assert names([i.path for i in loaded.inputs], tmp_path) == ["env/prod", "lonely"]
    prod = loaded.inputs[0]
    assert prod.state.input_type == "tf_hcl"
    assert names(list(prod.source_files), tmp_path) == [
        "env/modules/net/main.tf",
        "env/prod/main.tf",
    ]
    # named on its own, the child module is a root
    alone = load_inputs([tmp_path / "env" / "modules" / "net"])
    assert names([i.path for i in alone.inputs], tmp_path) == ["env/modules/net"]


def test_units_are_directories_loaded_apart_and_merged_in_discovery_order(
    tmp_path: Path,
) -> None:
    write(tmp_path / "env" / "prod" / "main.tf", MAIN_TF)
    write(tmp_path / "env" / "prod" / "state.json", json.dumps(STATE))
    write(tmp_path / "env" / "modules" / "net" / "main.tf", NET_TF)
    write(tmp_path / "k8s" / "a.yaml", POD.format(name="a"))
    write(tmp_path / "k8s" / "b.yaml", POD.format(name="b"))
    write(tmp_path / "k8s" / "notes.txt", "not an input\n")
    write(tmp_path / "k8s" / "odd.json", "{}")
    plan = plan_loading([tmp_path])
    units = [names([str(f.path) for f in unit.files], tmp_path) for unit in plan.units]
    assert units == [
        ["env/modules/net/main.tf"],
        ["env/prod/main.tf", "env/prod/state.json"],
        ["k8s/a.yaml", "k8s/b.yaml", "k8s/odd.json"],
    ]
    assert [unit.positions for unit in plan.units] == [(0,), (1, 2), (3, 4, 5)]
    assert names(plan.skipped, tmp_path) == ["k8s/notes.txt"]
    assert plan.units[0].name.endswith("main.tf") and plan.units[2].name.endswith("k8s")
    # Loaded apart, the called module is a root of its own; merged, it is prod's child.
    loaded = [load_unit(unit) for unit in plan.units]
    (called,) = loaded[0].slots
    assert names([i.path for i in called.inputs], tmp_path) == ["env/modules/net"]
    prod = loaded[1].slots[0].module
    assert called.module is not None and prod is not None and called.module[0] <= prod[1]
    merged = loaded_inputs(plan, loaded)
    whole = load_inputs([tmp_path])
    assert [i.name for i in merged.inputs] == [i.name for i in whole.inputs]
    assert names([i.path for i in whole.inputs], tmp_path) == [
        "env/prod",
        "env/prod/state.json",
        "k8s",
    ]
    assert merged.problems == whole.problems == []
    assert merged.skipped == whole.skipped
    assert names(whole.skipped, tmp_path) == ["k8s/notes.txt", "k8s/odd.json"]


def test_split_units_defer_manifests_to_their_directory(tmp_path: Path) -> None:
    write(tmp_path / "env" / "prod" / "main.tf", MAIN_TF)
    write(tmp_path / "env" / "prod" / "state.json", json.dumps(STATE))
    write(tmp_path / "env" / "prod" / "vars.tf", 'variable "x" {\n  default = 1\n}\n')
    write(tmp_path / "k8s" / "a.yaml", POD.format(name="a"))
    write(tmp_path / "k8s" / "b.yaml", POD.format(name="b"))
    write(tmp_path / "k8s" / "cfn.yaml", CFN_YAML)
    plan = plan_loading([tmp_path])
    pieces = [piece for unit in plan.units for piece in split_unit(unit)]
    assert [piece.positions for piece in pieces] == [(0, 2), (1,), (3,), (4,), (5,)]
    loaded = [load_unit(piece, defer_manifests=True) for piece in pieces]
    assert [unit.deferred for unit in loaded] == [[], [], [3], [4], []]
    assert [len(unit.slots) for unit in loaded] == [1, 1, 0, 0, 1]
    (manifests,) = manifest_units(pieces, loaded)
    assert manifests.positions == (3, 4)
    loaded.append(load_unit(manifests))
    merged = loaded_inputs(plan, loaded)
    whole = load_inputs([tmp_path])
    assert [i.name for i in merged.inputs] == [i.name for i in whole.inputs]
    assert names([i.path for i in whole.inputs], tmp_path) == [
        "env/prod",
        "env/prod/state.json",
        "k8s",
        "k8s/cfn.yaml",
    ]
    assert [i.state.document for i in merged.inputs] == [i.state.document for i in whole.inputs]
    # Without deferring, a manifest alone is a State of its own.
    assert len(load_unit(pieces[2]).slots[0].inputs) == 1


def test_skip_paths_match_the_path_or_a_parent(tmp_path: Path) -> None:
    write(tmp_path / "charts" / "web" / "templates" / "pod.yaml", POD.format(name="t"))
    write(tmp_path / "charts" / "web" / "values.json", STATE)
    write(tmp_path / "vendor" / "x" / "state.json", STATE)
    write(tmp_path / "keep.json", STATE)
    everything = load_inputs([tmp_path])
    assert len(everything.inputs) == 4
    for globs in (("charts/*/templates/*", "vendor"), ("**/templates/**", "vendor/**")):
        loaded = load_inputs([tmp_path], LoadOptions(skip_paths=globs))
        assert names([i.path for i in loaded.inputs], tmp_path) == [
            "keep.json",
            "charts/web/values.json",
        ], globs
    named = tmp_path / "vendor" / "x" / "state.json"
    assert len(load_inputs([named], LoadOptions(skip_paths=("**/vendor/**",))).inputs) == 1


def test_symlinks_loops_and_duplicates(tmp_path: Path) -> None:
    write(tmp_path / "infra" / "state.json", STATE)
    (tmp_path / "infra" / "loop").symlink_to(tmp_path / "infra", target_is_directory=True)
    (tmp_path / "infra" / "alias.json").symlink_to(tmp_path / "infra" / "state.json")
    (tmp_path / "infra" / "gone.json").symlink_to(tmp_path / "infra" / "missing.json")
    write(tmp_path / "infra" / ".terraform" / "hidden.json", STATE)
    loaded = load_inputs([tmp_path / "infra", tmp_path / "infra" / "state.json"])
    # alias.json sorts first and is the same file as state.json: loaded once
    assert names([i.path for i in loaded.inputs], tmp_path) == ["infra/alias.json"]
    assert [(os.path.relpath(p.path, tmp_path), p.message) for p in loaded.problems] == [
        ("infra/gone.json", "broken symbolic link")
    ]


def test_unknown_files_are_skipped_in_walks_and_reported_when_named(tmp_path: Path) -> None:
    notes = write(tmp_path / "notes.txt", "hello")
    other = write(tmp_path / "package.json", {"name": "left-pad"})
    walked = load_inputs([tmp_path])
    assert walked.inputs == [] and walked.problems == []
    assert names(walked.skipped, tmp_path) == ["notes.txt", "package.json"]
    named = load_inputs([notes, other])
    assert [(os.path.relpath(p.path, tmp_path), p.message) for p in named.problems] == [
        ("notes.txt", "no supported input found"),
        ("package.json", "no supported input found"),
    ]


def test_named_files_load_whatever_their_extension(tmp_path: Path) -> None:
    plan = write(tmp_path / "plan.out", PLAN)
    template = write(tmp_path / "stack.txt", CFN_YAML)
    loaded = load_inputs([plan, template])
    assert loaded.problems == []
    assert [i.state.input_type for i in loaded.inputs] == ["tf_plan", "cfn"]
    assert load_inputs([tmp_path]).inputs == []  # not IaC names: skipped in a walk


def test_forced_input_type(tmp_path: Path) -> None:
    write(tmp_path / "plan.json", PLAN)
    write(tmp_path / "stack.yaml", CFN_YAML)
    write(tmp_path / "list.json", [STATE, {**STATE, "input_type": "cfn"}])
    loaded = load_inputs([tmp_path], LoadOptions(input_type="cfn"))
    assert [(os.path.relpath(i.name, tmp_path), i.state.input_type) for i in loaded.inputs] == [
        ("list.json[1]", "cfn"),
        ("stack.yaml", "cfn"),
    ]
    named = load_inputs([tmp_path / "plan.json"], LoadOptions(input_type="cfn"))
    assert [p.message for p in named.problems] == ["no supported cfn input found"]


def test_a_failing_loader_is_an_internal_error_and_the_rest_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.inputs.loaders import detection

    plan_module = detection.loader_module("tf_plan")

    def broken(doc: Any, raw: bytes, path: str) -> Any:
        raise KeyError("values")

    monkeypatch.setattr(plan_module, "load", broken)
    write(tmp_path / "a.json", PLAN)
    write(tmp_path / "b.json", STATE)
    loaded = load_inputs([tmp_path])
    assert names([i.path for i in loaded.inputs], tmp_path) == ["b.json"]
    (problem,) = loaded.problems
    assert problem.message == "internal error in the tf_plan loader: KeyError: 'values'"


def test_oversized_files_are_reported_not_read(tmp_path: Path) -> None:
    write(tmp_path / "big.json", {**STATE, "padding": "x" * 300_000})
    write(tmp_path / "small.json", STATE)
    loaded = load_inputs([tmp_path], LoadOptions(max_file_mb=0.25))
    assert names([i.path for i in loaded.inputs], tmp_path) == ["small.json"]
    (problem,) = loaded.problems
    assert problem.message == "file is 0.29 MB, over the --max-file-size limit of 0.25 MB"


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
def test_text_with_a_byte_order_mark_is_read(tmp_path: Path, encoding: str) -> None:
    (tmp_path / "stack.yaml").write_bytes(CFN_YAML.encode(encoding))
    loaded = load_inputs([tmp_path])
    assert loaded.problems == []
    assert [i.state.input_type for i in loaded.inputs] == ["cfn"]


def test_skip_path_classes_and_ranges(tmp_path: Path) -> None:
    for name in ("a", "b", "d", "-"):
        write(tmp_path / name / "state.json", STATE)
    loaded = load_inputs([tmp_path], LoadOptions(skip_paths=("[a-c]",)))
    assert sorted(Path(i.path).parent.name for i in loaded.inputs) == ["-", "d"]
    loaded = load_inputs([tmp_path], LoadOptions(skip_paths=("[!a-c]",)))
    assert sorted(Path(i.path).parent.name for i in loaded.inputs) == ["a", "b"]


def test_the_scanned_directory_is_resolved_per_scan_not_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "outside.json").write_text(json.dumps(STATE))
    resolutions: list[str] = []
    realpath = os.path.realpath

    def counting(path: Any, *args: Any, **kwargs: Any) -> str:
        resolutions.append(os.fspath(path))
        return realpath(path, *args, **kwargs)

    monkeypatch.setattr(os.path, "realpath", counting)

    def root_resolutions(files: int) -> int:
        root = tmp_path / f"infra{files}"
        for i in range(files):
            write(root / f"state{i:02}.json", STATE)
        (root / "leak.json").symlink_to(tmp_path / "outside.json")
        resolutions.clear()
        loaded = load_inputs([root])
        assert len(loaded.inputs) == files
        # the link leaving the directory is still refused
        assert [(p.path, p.message) for p in loaded.problems] == [
            (str(root / "leak.json"), f"symbolic link leads outside {root}")
        ]
        return resolutions.count(os.fspath(root))

    assert root_resolutions(12) == root_resolutions(2)
