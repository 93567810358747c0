"""Loading -d paths: which files, where data lands, errors that name files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from engine.evaluation.data_reference import eval_ref
from engine.rules.opa import find_opa
from engine.rules.rego_version import detect_rego_version
from engine.rules.sources import SourceError, load_sources


def test_only_rego_and_data_files_are_loaded(tmp_path: Path) -> None:
    (tmp_path / "a.rego").write_text("package a\nx := 1\n")
    (tmp_path / "notes.txt").write_text("ignored")
    (tmp_path / "main.tf").write_text("ignored")
    (tmp_path / "nested" / "deeper").mkdir(parents=True)
    (tmp_path / "nested" / "deeper" / "d.yml").write_text("k: v\n")
    (tmp_path / "top.json").write_text('{"t": 1}')
    sources = load_sources([tmp_path])
    assert [f.path.name for f in sources.rego_files] == ["a.rego"]
    assert sources.data == {"t": 1, "nested": {"deeper": {"k": "v"}}}


def test_a_data_file_named_directly_lands_at_the_root(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "d.json").write_text('{"x": 1}')
    assert load_sources([tmp_path / "sub" / "d.json"]).data == {"x": 1}


def test_conflicting_data_names_both_paths(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"k": 1}')
    (tmp_path / "b.json").write_text('{"k": 2}')
    with pytest.raises(SourceError, match=r"b\.json: data\.k is also defined"):
        load_sources([tmp_path])


def test_invalid_yaml_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("a: 1\nb: [unclosed\nc: 2\n")
    with pytest.raises(SourceError) as info:
        load_sources([tmp_path])
    assert "bad.yaml:" in str(info.value) and info.value.line is not None


def test_missing_path_is_named(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="nope: no such file"):
        load_sources([tmp_path / "nope"])


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("package a\ndeny[msg] {\n msg := 1\n}", 0),
        ("package a\nallow { true }", 0),
        ("package a\nf(x) = y { y := x }", 0),
        ("package a\np = 1 { false } else = 2 { true }", 0),
        ("package a\nimport future.keywords.if\ndeny contains x if { x := 1 }", 1),
        ("package a\nimport future.keywords.in\ndeny[x] { some x in [1] }", 0),
        ("package a\nimport future.keywords.and\np if { true and true }", 1),
        ("package a\nimport future.keywords.not\np if not { false; true }", 1),
        ("package a\nimport future.keywords\nimport future.keywords.or\np if { 1 or 2 }", 1),
        ("package a\nimport rego.v2\np if { true and true }", 1),
        ("package a\nimport rego.v1\ndeny contains x if { x := 1 }", 1),
        ("package a\ndeny contains x if { x := 1 }", 1),
        ('package a\nx := {"a": {"b": 1}}\ny = {1}', 1),
        ('package a\n# allow {\nallow if { "{" == "{" }', 1),
        ("package a\np := 1 if { true } else := 2", 1),
    ],
)
def test_rego_version_detection(text: str, version: int) -> None:
    assert detect_rego_version(text) == version


def test_files_linked_outside_the_rules_directory_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text('{"token": "SECRET"}')
    (outside / "leak.rego").write_text('package leak\ntoken := "SECRET"\n')
    rules = tmp_path / "rules"
    (rules / "lib").mkdir(parents=True)
    (rules / "a.rego").write_text("package a\nx := 1\n")
    (rules / "conf.json").symlink_to(outside / "secret.json")
    (rules / "lib" / "leak.rego").symlink_to("../../outside/leak.rego")
    errors: list[SourceError] = []
    sources = load_sources([rules], on_error=errors.append)
    assert [f.display for f in sources.rego_files] == [str(rules / "a.rego")]
    assert sources.data == {} and sources.data_files == []
    assert sorted((e.path, e.message) for e in errors) == [
        (str(rules / "conf.json"), f"symbolic link leads outside {rules}"),
        (str(rules / "lib" / "leak.rego"), f"symbolic link leads outside {rules}"),
    ]
    with pytest.raises(SourceError, match=r"conf\.json: symbolic link leads outside"):
        load_sources([rules])


def test_links_inside_the_rules_directory_and_named_files_are_read(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / ".shared").mkdir(parents=True)
    (rules / ".shared" / "d.json").write_text('{"x": 1}')
    (rules / "d.json").symlink_to(".shared/d.json")
    assert load_sources([rules]).data == {"x": 1}
    (tmp_path / "named.json").symlink_to(rules / ".shared" / "d.json")
    assert load_sources([tmp_path / "named.json"]).data == {"x": 1}


def test_windows_line_endings_are_kept_as_the_bytes_say(tmp_path: Path) -> None:
    (tmp_path / "a.rego").write_bytes(b"package a\r\nx := 1\r\n")
    (rego,) = load_sources([tmp_path]).rego_files
    assert rego.text == "package a\r\nx := 1\r\n"


def test_a_raw_string_across_a_windows_line_end_keeps_its_carriage_return(
    tmp_path: Path,
) -> None:
    path = tmp_path / "raw.rego"
    path.write_bytes(b"package raw\r\n\r\ns := `a\r\nb`\r\nn := count(s)\r\n")
    oracle = subprocess.run(
        [str(find_opa().path), "eval", "--format", "json", "-d", str(path), "data.raw"],
        capture_output=True,
        check=True,
    )
    expected = json.loads(oracle.stdout)["result"][0]["expressions"][0]["value"]
    assert expected == {"s": "a\r\nb", "n": 4}
    assert eval_ref([path], "data.raw").value == expected
