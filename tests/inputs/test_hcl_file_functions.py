"""Terraform's file functions: read inside the scanned tree, null outside it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.inputs.loaders.evaluation_budget import evaluation_budget
from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    evaluate_or_null,
    parse_expression,
)
from engine.inputs.loaders.hcl_file_functions import file_functions
from engine.inputs.loaders.hcl_functions import FUNCTIONS


def _no_names(name: str) -> Any:
    raise EvaluationError(name)


def _value(source: str, root: Path, base: Path | None = None) -> Any:
    functions = {**FUNCTIONS, **file_functions(base or root, root, FUNCTIONS)}
    return evaluate_or_null(parse_expression(source), Context(_no_names, functions=functions))


def test_templatefile_renders_with_its_variables_and_functions(tmp_path: Path) -> None:
    (tmp_path / "t.tpl").write_text(
        "%{ for x in items ~}\n[${upper(x)}]\n%{ endfor ~}\n${name}-${file(\"v.txt\")}"
    )
    (tmp_path / "v.txt").write_text("1")
    source = 'templatefile("t.tpl", {name = "n", items = ["a", "b"]})'
    assert _value(source, tmp_path) == "[A]\n[B]\nn-1"
    assert _value('templatefile("t.tpl", {name = "n"})', tmp_path) is None


def test_templatefile_cannot_call_itself(tmp_path: Path) -> None:
    (tmp_path / "t.tpl").write_text('${templatefile("t.tpl", {})}')
    assert _value('templatefile("t.tpl", {})', tmp_path) is None


def test_relative_paths_start_at_the_root_module(tmp_path: Path) -> None:
    (tmp_path / "child").mkdir()
    (tmp_path / "child" / "c.txt").write_text("c")
    assert _value('file("child/c.txt")', tmp_path) == "c"
    assert _value('file("c.txt")', tmp_path) is None


def test_what_is_not_a_utf8_regular_file_inside_the_root_is_null(tmp_path: Path) -> None:
    (tmp_path / "bin").write_bytes(b"\xff\xfe")
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "fifo")
    assert _value('file("bin")', tmp_path) is None
    assert _value('filebase64("bin")', tmp_path) == "//4="
    assert [_value(f'{f}("dir")', tmp_path) for f in ("file", "fileexists")] == [None, None]
    assert [_value(f'{f}("fifo")', tmp_path) for f in ("file", "fileexists")] == [None, None]
    assert _value("file(1)", tmp_path) is None


def test_a_module_outside_the_scanned_directory_reads_inside_its_own(tmp_path: Path) -> None:
    scanned, module = tmp_path / "scanned", tmp_path / "modules" / "m"
    module.mkdir(parents=True)
    scanned.mkdir()
    (module / "m.txt").write_text("m")
    (scanned / "s.txt").write_text("s")
    assert _value('file("../modules/m/m.txt")', module, scanned) == "m"
    assert _value('file("s.txt")', module, scanned) is None


def test_the_text_read_is_charged_to_the_budget(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("x" * 16_000)
    with evaluation_budget(units=2_500) as budget:
        assert _value('file("big.txt")', tmp_path) == "x" * 16_000
        assert budget.remaining < 1_500 and not budget.exhausted
        _value('file("big.txt")', tmp_path)
        assert _value('file("big.txt")', tmp_path) is None
    assert budget.exhausted
