"""A large test tree compiles in parts (test packages with the files they
need): verdicts do not change, and after editing one policy only the parts
holding it are compiled again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from oracle import needs_opa

from engine.rules import compiler
from engine.rules.opa import find_opa
from engine.testing import package_closures, runner
from engine.testing.package_closures import SourceModule, package_needs, parts

CORPUS = Path(__file__).parent.parent / "test_corpus"


def test_package_needs_follow_data_references_and_imports() -> None:
    modules = [
        SourceModule("a.rego", "a", "package a\nimport data.lib.util\nx := util.f(1)\n"),
        SourceModule("lib.rego", "lib.util", "package lib.util\nf(x) := data.lib.consts.k\n"),
        SourceModule("k.rego", "lib.consts", "package lib.consts\nk := 1\n"),
        SourceModule("b.rego", "b", "package b\ny := data.pkgs[input.name]\n"),
        SourceModule("p.rego", "pkgs.one", "package pkgs.one\nallow := true\n"),
        SourceModule("c.rego", "c", "package c\nz := 1 # data.a in a comment\n"),
        SourceModule("u.rego", "unused", "package unused\nbroken := \n"),
    ]
    needs = package_needs(modules)
    assert needs["a"] == {"a", "lib.util", "lib.consts"}
    assert needs["b"] == {"b", "pkgs.one"}  # a computed key reaches every package below
    assert needs["c"] == {"c"}  # comments are left out
    split = parts(modules, ["a", "b", "c"], size=2)
    assert split == [
        (["a", "b"], ["a.rego", "lib.rego", "k.rego", "b.rego", "p.rego", "u.rego"]),
        (["c"], ["c.rego"]),
    ]


@needs_opa
def test_parts_give_the_verdicts_of_one_module_and_an_edit_rebuilds_only_its_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "corpus"
    shutil.copytree(CORPUS, tree)
    monkeypatch.setenv("REGO_ENGINE_OPA", str(find_opa().path))
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(tmp_path / "cache"))
    whole = runner.run_tests([tree])
    monkeypatch.setattr(package_closures, "PACKAGES_PER_PART", 3)
    builds: list[int] = []
    real_build = compiler._run_build

    def counting_build(*args: object, **kwargs: object) -> tuple[bytes, bytes]:
        builds.append(1)
        return real_build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compiler, "_run_build", counting_build)
    split = runner.run_tests([tree])
    verdicts = [(o.test.full_name, o.verdict) for o in whole.outcomes]
    assert [(o.test.full_name, o.verdict) for o in split.outcomes] == verdicts
    cold = len(builds)
    assert cold >= 3
    runner.run_tests([tree])
    assert len(builds) == cold  # unchanged: every part from the cache
    # needed by two of the parts (one of them reads all of data), not the third
    leaf = tree / "rules" / "sg_open_ssh.rego"
    leaf.write_text(leaf.read_text() + "\nedited_leaf_marker := 1\n")
    again = runner.run_tests([tree])
    assert [(o.test.full_name, o.verdict) for o in again.outcomes] == verdicts
    assert 1 <= len(builds) - cold < cold


def test_a_name_starting_with_data_is_no_reference() -> None:
    modules = [
        SourceModule("a.rego", "a", "package a\nx := data_policy(1)\ny := metadata.z\n"),
        SourceModule("b.rego", "b", "package b\nz := 1\n"),
    ]
    assert package_needs(modules)["a"] == {"a"}


def test_parts_that_would_each_need_most_files_are_one_part() -> None:
    framework = "package lib\nall contains r if some r in data.rules\n"
    modules = [SourceModule("lib.rego", "lib", framework)] + [
        SourceModule(f"r{i}.rego", f"rules.r{i}", f"package rules.r{i}\nx := data.lib.all\n")
        for i in range(6)
    ]
    split = parts(modules, [f"rules.r{i}" for i in range(6)], size=2)
    assert split == [([f"rules.r{i}" for i in range(6)], [m.display for m in modules])]
