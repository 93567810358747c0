"""The prepared-rules cache: a second scan of the same rules reads them back
instead of compiling, with the same report; any change to the rules is a miss."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from scan_fixtures import ACL_RULE, BROKEN_RULE, ENC_RULE, state, write, write_json

import engine
from engine.evaluation import prepared_cache
from engine.rules.opa import find_opa
from engine.scanning import scanner


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory for this test, with the pinned opa kept reachable."""
    monkeypatch.setenv("REGO_ENGINE_OPA", str(find_opa().path))
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "rules" / "enc.rego", ENC_RULE)
    write(tmp_path / "rules" / "acl.rego", ACL_RULE)
    write_json(tmp_path / "in" / "s.json", state({"a": {"acl": "public-read"}, "b": {}}))
    return tmp_path


def _count_compiles(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = scanner.compile_rules

    def counting(rule_paths: list[Path]) -> object:
        calls.append(1)
        return real(rule_paths)

    monkeypatch.setattr(scanner, "compile_rules", counting)
    return calls


def _scan() -> bytes:
    return engine.scan([Path("in")], [Path("rules")]).to_json()


def test_a_second_scan_reads_the_rules_back_with_the_same_report(
    cache: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiles = _count_compiles(monkeypatch)
    first = _scan()
    assert len(list((cache / "prepared").iterdir())) == 1
    second = _scan()
    assert compiles == [1]
    assert second == first
    assert b'"public"' in first  # the rules ran and found something


def test_changing_a_rule_file_is_a_miss(
    cache: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiles = _count_compiles(monkeypatch)
    _scan()
    write(workdir / "rules" / "acl.rego", ACL_RULE.replace('"public"', '"open"'))
    changed = _scan()
    assert compiles == [1, 1]
    assert b'"open"' in changed
    assert len(list((cache / "prepared").iterdir())) == 2


def test_the_key_covers_the_paths_and_the_working_directory(
    cache: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = prepared_cache.cache_key([Path("rules")])
    assert key is not None
    assert prepared_cache.cache_key([workdir / "rules"]) != key
    monkeypatch.chdir(workdir / "in")
    assert prepared_cache.cache_key([Path("../rules")]) != key
    assert prepared_cache.cache_key([Path("no-such-dir")]) is None


def test_an_unreadable_cache_entry_is_compiled_again(
    cache: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _scan()
    (entry,) = (cache / "prepared").iterdir()
    entry.write_bytes(b"not a bundle")
    compiles = _count_compiles(monkeypatch)
    assert _scan() == first
    assert compiles == [1]
    assert entry.read_bytes() != b"not a bundle"  # stored again


def test_rules_that_fail_to_compile_are_not_stored(
    cache: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(workdir / "rules" / "broken.rego", BROKEN_RULE)
    compiles = _count_compiles(monkeypatch)
    first = _scan()
    assert _scan() == first
    assert compiles == [1, 1]
    assert not (cache / "prepared").exists()


def test_special_files_beside_the_rules_are_not_read_for_the_key(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    write(rules / "acl.rego", ACL_RULE)
    os.mkfifo(rules / "blocking.rego")
    keys: list[str | None] = []
    worker = threading.Thread(target=lambda: keys.append(prepared_cache.cache_key([rules])))
    worker.daemon = True  # a blocked read must not keep the test process alive
    worker.start()
    worker.join(timeout=30)
    assert keys == [None]


def test_only_policy_files_are_in_the_key(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    write(rules / "acl.rego", ACL_RULE)
    key = prepared_cache.cache_key([rules])
    write(rules / "notes.txt", "not read by the scan")
    write(rules / ".hidden" / "x.rego", "package not.read\n")
    assert prepared_cache.cache_key([rules]) == key
    write(rules / "data.json", "{}")
    assert prepared_cache.cache_key([rules]) != key
