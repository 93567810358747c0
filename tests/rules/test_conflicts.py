"""Conflicts named as opa names them: the rule's full path and its definitions."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from oracle import needs_opa

from engine.evaluation.data_reference import eval_ref
from engine.rules.conflicts import Conflict, find_conflict
from engine.rules.opa import find_opa
from engine.rules.sources import RegoFile
from engine.wasm.host import EvalConflict

C_REGO = "package c\n\ndefault p := 0\np := 1 if true\np := 2 if true\n"
C_MORE = "package c\n\np := 3 if input.x\nq := 1\n"
F_REGO = "package f\n\nf(x) := 1 if true\nf(x) := 2 if true\nr := f(1)\n"


def _file(name: str, text: str) -> RegoFile:
    return RegoFile(Path(name), name, text, 1)


def test_a_rule_conflict_names_the_rule_and_every_definition() -> None:
    files = [_file("c.rego", C_REGO), _file("more/c2.rego", C_MORE)]
    found = find_conflict("c.rego:5:1: var assignment conflict", files)
    assert found == Conflict(
        "c.rego",
        5,
        1,
        "rule data.c.p produced conflicting values",
        ("c.rego:4", "c.rego:5", "more/c2.rego:3"),
    )
    assert str(found) == (
        "c.rego:5: eval_conflict_error: rule data.c.p produced conflicting values "
        "(definitions at c.rego:4, c.rego:5, more/c2.rego:3)"
    )
    assert found.listing() == (
        "rule data.c.p produced conflicting values:\n"
        "  defined at c.rego:4\n  defined at c.rego:5\n  defined at more/c2.rego:3"
    )


def test_a_function_conflict_is_for_the_same_inputs() -> None:
    found = find_conflict("f.rego:4:1: var assignment conflict", [_file("f.rego", F_REGO)])
    assert found is not None
    assert found.message == "function data.f.f produced conflicting values for the same inputs"
    assert found.definitions == ("f.rego:3", "f.rego:4")


def test_a_quoted_head_reference_is_written_as_rego_writes_it() -> None:
    text = 'package a.b\n\nx["y-z"] := 1 if true\nx["y-z"] := 2 if true\n'
    found = find_conflict("a.rego:4:1: var assignment conflict", [_file("a.rego", text)])
    assert found is not None and found.message.startswith('rule data.a.b.x["y-z"] produced')


def test_an_object_key_conflict_is_opas_message() -> None:
    found = find_conflict("c.rego:5:1: object insert conflict", [_file("c.rego", C_REGO)])
    assert found is not None and found.message == "object keys must be unique"


def test_other_aborts_are_not_conflicts() -> None:
    assert find_conflict("c.rego:5:1: assertion failed", [_file("c.rego", C_REGO)]) is None


def test_an_unknown_file_still_gives_a_conflict() -> None:
    found = find_conflict("gen.rego:2:1: var assignment conflict", [_file("c.rego", C_REGO)])
    assert found is not None and found.message == "conflicting values"


def test_eval_reports_the_conflict_with_its_definitions(tmp_path: Path) -> None:
    (tmp_path / "c.rego").write_text(C_REGO)
    with pytest.raises(EvalConflict) as caught:
        eval_ref([tmp_path], "data.c.p")
    c_rego = str(caught.value.conflict.file)
    assert c_rego.endswith("c.rego")
    assert str(caught.value) == (
        f"{c_rego}:5: eval_conflict_error: rule data.c.p produced conflicting values "
        f"(definitions at {c_rego}:4, {c_rego}:5)"
    )


@needs_opa
def test_opa_eval_names_the_same_rule_and_locations(tmp_path: Path) -> None:
    (tmp_path / "f.rego").write_text(F_REGO)
    args = [str(find_opa().path), "eval", "--format", "json", "-d", str(tmp_path), "data.f.r"]
    out = json.loads(subprocess.run(args, capture_output=True).stdout)
    theirs = out["errors"][0]["message"]
    with pytest.raises(EvalConflict) as caught:
        eval_ref([tmp_path], "data.f.r")
    ours = caught.value.conflict
    assert theirs.split(":\n")[0] == ours.message
    listed = {line.rsplit(" at ", 1)[1] for line in theirs.splitlines()[1:]}
    assert {Path(d).name for d in ours.definitions} == {Path(d).name for d in listed}
