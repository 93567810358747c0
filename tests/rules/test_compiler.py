"""The compiler driver: mixed Rego versions, data paths, caching, errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from engine.core.signed_cache import signing_key
from engine.evaluation.data_reference import eval_ref
from engine.rules.capabilities import opa_capabilities
from engine.rules.compiler import CompileError, _load_entry, compile_policy, entrypoint_for_ref
from engine.rules.opa import find_opa
from engine.rules.sources import load_sources

V0 = """package legacy
deny[msg] {
  re_match("^pub", input.acl)
  msg := concat(" ", ["acl", input.acl])
}
"""
V1 = """package modern
import rego.v1
deny contains msg if {
  some m in data.legacy.deny
  msg := concat(":", [m, data.settings.team])
}
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "legacy.rego").write_text(V0)
    (tmp_path / "modern.rego").write_text(V1)
    (tmp_path / "settings").mkdir()
    (tmp_path / "settings" / "team.yaml").write_text("team: platform\n")
    (tmp_path / "README.md").write_text("not loaded")
    return tmp_path


@pytest.fixture
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    cache = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("REGO_ENGINE_OPA", str(find_opa().path))
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(cache))
    return cache


def test_v0_and_v1_files_mix_in_one_tree(tree: Path) -> None:
    sources = load_sources([tree])
    versions = {f.path.name: f.rego_version for f in sources.rego_files}
    assert versions == {"legacy.rego": 0, "modern.rego": 1}
    result = eval_ref([tree], "data.modern.deny", input_json=b'{"acl": "public-read"}')
    assert result.defined
    assert list(result.value) == ["acl public-read:platform"]


def test_data_documents_load_at_their_directory_path(tree: Path) -> None:
    assert eval_ref([tree], "data.settings").value == {"team": "platform"}
    assert load_sources([tree]).data_files == ["settings/team.yaml"] or load_sources(
        [tree]
    ).data_files[0].endswith("settings/team.yaml")


def test_file_reached_through_two_roots_loads_once(tree: Path) -> None:
    sources = load_sources([tree, tree / "rules", tree / "rules" / "legacy.rego"])
    assert sorted(f.path.name for f in sources.rego_files) == ["legacy.rego", "modern.rego"]


def test_cache_hit_spawns_no_opa_process(
    tree: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = load_sources([tree])
    first = compile_policy(sources, ["modern/deny"])
    assert any(private_cache.joinpath("modules").rglob("*.signed"))

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"opa was spawned on a cache hit: {args}")

    monkeypatch.setattr(subprocess, "run", no_process)
    monkeypatch.setattr(subprocess, "Popen", no_process)
    second = compile_policy(load_sources([tree]), ["modern/deny"])
    assert second.wasm == first.wasm and second.key == first.key


def test_cache_key_changes_with_sources_and_entrypoints(tree: Path, private_cache: Path) -> None:
    a = compile_policy(load_sources([tree]), ["modern/deny"])
    b = compile_policy(load_sources([tree]), ["modern/deny", "legacy/deny"])
    (tree / "modern.rego").write_text(V1 + "\nextra := 1\n")
    c = compile_policy(load_sources([tree]), ["modern/deny"])
    assert len({a.key, b.key, c.key}) == 3


def test_compile_error_names_file_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "broken.rego").write_text("package broken\nimport rego.v1\n\nx := y + 1\n")
    with pytest.raises(CompileError) as info:
        compile_policy(load_sources([tmp_path]), ["broken/x"], use_cache=False)
    message = str(info.value)
    assert "broken.rego:4:6:" in message
    assert "var y is unsafe" in message


def test_every_failing_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.rego").write_text("package a\nx := \n")
    (tmp_path / "b.rego").write_text("package b\n\ny := 1 +\nz := input.\n")
    (tmp_path / "ok.rego").write_text("package ok\nimport rego.v1\nfine := true\n")
    (tmp_path / "old.rego").write_text("package old\nallow {\n  input.x ==\n}\n")
    with pytest.raises(CompileError) as info:
        compile_policy(load_sources([tmp_path]), ["ok/fine"], use_cache=False)
    files = [Path(f).name for f in info.value.files]
    assert sorted(files) == ["a.rego", "b.rego", "old.rego"]
    assert all(e.line for e in info.value.errors)


def test_a_v0_file_the_text_rules_miss_is_compiled_as_v0_as_opa_v0_compatible_reads_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "sets.rego").write_text("package sets\n\nn := count(q)\n\nq[1]\nq[2]\n")
    (tmp_path / "vals.rego").write_text('package vals\n\np = {"a": [x]} {\n  x = 1\n}\n')
    (tmp_path / "old.rego").write_text(
        'package old\n\nimport future.keywords.if\n\nm if re_match("^a", "ab")\n'
    )
    assert eval_ref([tmp_path], "data.sets.n").value == 2
    assert eval_ref([tmp_path], "data.vals.p").value == {"a": [1]}
    assert eval_ref([tmp_path], "data.old.m").value is True


def test_a_file_broken_either_way_reports_its_v1_parse_error(tmp_path: Path) -> None:
    # v1 stops at ``q[1]``; v0 would accept it and stop at ``contains ... if``
    (tmp_path / "bad.rego").write_text("package bad\n\nq[1]\n\nr contains 1 if { true }\n")
    with pytest.raises(CompileError) as info:
        compile_policy(load_sources([tmp_path]), ["bad/r"], use_cache=False)
    assert "bad.rego:3" in str(info.value)
    assert "`contains` keyword is required for partial set rules" in str(info.value)


@pytest.mark.parametrize(
    ("ref", "entrypoint"),
    [
        ("data.a.b", "a/b"),
        ('data.rules["snyk-001"].deny', "rules/snyk-001/deny"),
        ("data.x", "x"),
    ],
)
def test_entrypoint_for_ref(ref: str, entrypoint: str) -> None:
    assert entrypoint_for_ref(ref) == entrypoint


@pytest.mark.parametrize("ref", ["data", "input.x", "data.a[0]", "data.a.b + 1"])
def test_entrypoint_for_ref_rejects_non_refs(ref: str) -> None:
    with pytest.raises(ValueError):
        entrypoint_for_ref(ref)


def _entry(cache: Path) -> Path:
    (entry,) = cache.joinpath("modules").rglob("*.signed")
    return entry


def _forged(entry: bytes) -> bytes:
    """The entry's payload with another module's bytes, its tag left as it was."""
    return entry[:-10] + b"0123456789"


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],
        lambda b: b"",
        lambda b: b[:32] + b"\0\0\0\0\0\0\0\0\0asm",
        _forged,
    ],
    ids=["truncated", "empty", "no-data", "forged"],
)
def test_a_damaged_or_forged_cache_entry_is_rebuilt(
    tree: Path, private_cache: Path, damage
) -> None:
    first = compile_policy(load_sources([tree]), ["modern/deny"])
    damaged = _entry(private_cache)
    damaged.write_bytes(damage(damaged.read_bytes()))
    second = compile_policy(load_sources([tree]), ["modern/deny"])
    assert second.data == first.data and second.wasm.startswith(b"\0asm")
    assert len(second.wasm) == len(first.wasm) and second.wasm != damage(first.wasm)
    key = signing_key()
    assert key is not None
    stored = _load_entry(key, _entry(private_cache), second.key)
    assert stored == (second.wasm, second.data)  # stored whole


def test_opa_runs_outside_the_working_directory(
    tree: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directories: list[object] = []
    real = subprocess.run

    def recording(*args: object, **kwargs: object) -> object:
        directories.append(kwargs.get("cwd"))
        return real(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.chdir(tree)
    monkeypatch.setattr(subprocess, "run", recording)
    opa_capabilities.cache_clear()
    compile_policy(load_sources([tree]), ["modern/deny"], use_cache=False)
    with pytest.raises(CompileError):  # opa check runs too
        compile_policy(load_sources([tree]), ["modern/nothing"], use_cache=False)
    opa_capabilities.cache_clear()
    assert len(directories) >= 3
    assert all(d is not None for d in directories)
    assert not any(Path(str(d)).resolve().is_relative_to(tree) for d in directories)


def test_a_corrupt_capabilities_file_is_rebuilt(tree: Path, private_cache: Path) -> None:
    opa_capabilities.cache_clear()
    compile_policy(load_sources([tree]), ["modern/deny"], use_cache=False)
    (caps,) = private_cache.joinpath("capabilities").iterdir()
    good = caps.read_bytes()
    for bad in (good[:100], b'{"builtins": 3}'):
        caps.write_bytes(bad)
        opa_capabilities.cache_clear()
        assert compile_policy(load_sources([tree]), ["modern/deny"], use_cache=False).wasm
        assert caps.read_bytes() == good
    opa_capabilities.cache_clear()


def test_an_unwritable_cache_compiles_without_it(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("REGO_ENGINE_OPA", str(find_opa().path))
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(blocker / "cache"))
    opa_capabilities.cache_clear()
    try:
        policy = compile_policy(load_sources([tree]), ["modern/deny"])
    finally:
        opa_capabilities.cache_clear()
    assert policy.wasm.startswith(b"\0asm")
    assert not (blocker / "cache").exists()
