"""Each Terraform configuration file is parsed once per run, whatever number of
root modules reach it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.inputs.discovery import load_inputs
from engine.inputs.loaders import hcl_parser


def _tree(tmp_path: Path, roots: int) -> None:
    shared = tmp_path / "modules" / "bucket"
    shared.mkdir(parents=True)
    (shared / "main.tf").write_text(
        'variable "name" {}\nresource "aws_s3_bucket" "b" {\n  bucket = var.name\n}\n'
    )
    (shared / "variables.tf").write_text('variable "acl" {\n  default = "private"\n}\n')
    for n in range(roots):
        root = tmp_path / "examples" / f"r{n}"
        root.mkdir(parents=True)
        (root / "main.tf").write_text(
            f'module "m" {{\n  source = "../../modules/bucket"\n  name = "b{n}"\n}}\n'
        )


def test_a_module_reached_from_many_roots_is_parsed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path, roots=4)
    parses: list[str] = []
    real_parse = hcl_parser.parse

    def counting(text: str) -> object:
        parses.append(text)
        return real_parse(text)

    monkeypatch.setattr(hcl_parser, "parse", counting)
    loaded = load_inputs([tmp_path])
    assert not loaded.problems
    buckets = [
        r.attributes["bucket"] for i in loaded.inputs for r in i.state.resources["aws_s3_bucket"]
    ]
    assert sorted(buckets) == ["b0", "b1", "b2", "b3"]
    assert len(parses) == 6  # 4 roots + the module's 2 files, each once
