"""Where the shipped files are found: the wheel's ``engine/shipped`` or the checkout."""

from __future__ import annotations

from pathlib import Path

from engine.core import paths


def test_a_source_checkout_reads_the_top_level_tree(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "rego").mkdir()
    assert paths.shipped_root(tmp_path / "engine") == tmp_path


def test_an_installed_wheel_reads_engine_shipped(tmp_path: Path) -> None:
    (tmp_path / "engine" / "shipped" / "rego").mkdir(parents=True)
    assert paths.shipped_root(tmp_path / "engine") == tmp_path / "engine" / "shipped"


def test_a_shipped_directory_without_rego_is_not_taken(tmp_path: Path) -> None:
    (tmp_path / "engine" / "shipped").mkdir(parents=True)
    assert paths.shipped_root(tmp_path / "engine") == tmp_path


def test_this_checkout_finds_its_shipped_files() -> None:
    assert (paths.REGO_LIB_DIR / "type_hierarchy.json").is_file()
    assert (paths.BUILTINS_DIR / "snyk.json").is_file()
    assert paths.OPA_GO_MOD.is_file()
    assert paths.REGO_RULES_DIR.is_dir() and paths.REGO_RELATIONS_DIR.is_dir()
