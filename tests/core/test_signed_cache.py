"""A signed cache entry reads back only under the key, domain and context it was
written with, and only as written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.core import signed_cache

KEY = b"k" * signed_cache.KEY_BYTES
OTHER_KEY = b"o" * signed_cache.KEY_BYTES


def test_an_entry_reads_back_under_its_key_domain_and_context(tmp_path: Path) -> None:
    entry = tmp_path / "cache" / "kind" / "entry"
    signed_cache.write_entry(KEY, entry, b"domain\0", b"made from", b"payload")
    assert signed_cache.read_entry(KEY, entry, b"domain\0", b"made from", 1 << 20) == b"payload"
    assert signed_cache.read_entry(OTHER_KEY, entry, b"domain\0", b"made from", 1 << 20) is None
    assert signed_cache.read_entry(KEY, entry, b"other\0", b"made from", 1 << 20) is None
    assert signed_cache.read_entry(KEY, entry, b"domain\0", b"made from v2", 1 << 20) is None


def test_a_changed_missing_oversized_or_linked_entry_reads_as_absent(tmp_path: Path) -> None:
    entry = tmp_path / "entry"
    signed_cache.write_entry(KEY, entry, b"d", b"c", b"payload")
    data = bytearray(entry.read_bytes())
    data[-1] ^= 0xFF
    changed = tmp_path / "changed"
    changed.write_bytes(bytes(data))
    assert signed_cache.read_entry(KEY, changed, b"d", b"c", 1 << 20) is None
    assert signed_cache.read_entry(KEY, tmp_path / "missing", b"d", b"c", 1 << 20) is None
    assert signed_cache.read_entry(KEY, entry, b"d", b"c", 10) is None
    link = tmp_path / "link"
    link.symlink_to(entry)
    assert signed_cache.read_entry(KEY, link, b"d", b"c", 1 << 20) is None
    assert signed_cache.read_entry(KEY, entry, b"d", b"c", 1 << 20) == b"payload"


def test_an_unwritable_cache_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    signed_cache.write_entry(KEY, blocker / "cache" / "entry", b"d", b"c", b"payload")
    assert not (blocker / "cache").exists()


def test_the_key_is_private_and_never_inside_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, key = tmp_path / "cache", tmp_path / "config" / "cache.key"
    monkeypatch.setenv("REGO_ENGINE_CACHE", str(cache))
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(key))
    made = signed_cache.signing_key()
    assert made is not None and len(made) == signed_cache.KEY_BYTES
    assert key.stat().st_mode & 0o777 == 0o600
    assert signed_cache.signing_key() == made
    key.chmod(0o640)
    assert signed_cache.signing_key() is None
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(cache / "cache.key"))
    assert signed_cache.signing_key() is None
    assert not os.path.exists(cache / "cache.key")


def test_a_key_that_cannot_be_trusted_is_named_in_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.core.signed_cache import key_problem

    monkeypatch.setenv("REGO_ENGINE_CACHE", str(tmp_path / "cache"))
    key = tmp_path / "keys" / "cache.key"
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(key))
    assert key_problem() is None  # none yet: it is made on first use
    key.parent.mkdir()
    os.mkfifo(key, 0o600)
    assert key_problem() == (
        f"{key}: the cache key is a FIFO; it is not used and no cache entry is trusted"
    )
    key.unlink()
    key.write_bytes(b"k" * 32)
    key.chmod(0o644)
    assert "is not this user's own 32-byte file of mode 0600" in (key_problem() or "")
    key.chmod(0o600)
    assert key_problem() is None
    monkeypatch.setenv("REGO_ENGINE_CACHE_KEY", str(tmp_path / "cache" / "k"))
    assert "lies inside the cache directory" in (key_problem() or "")
