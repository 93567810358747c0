"""The native-code cache: wasmtime's compiled form of each policy module.

Deserializing native code runs whatever the file holds, so an entry is a
signed cache entry (:mod:`engine.core.signed_cache`): used only when its
HMAC-SHA256, made with a per-user key kept outside the cache directory,
verifies. The tag covers the Wasm module's sha256, the wasmtime version and
the native bytes. An entry whose tag does not match is rebuilt; when no key
can be trusted the native cache is not used at all. Failing to write an entry
(a read-only cache) only costs the next process a compile.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from engine.core import signed_cache
from engine.core.distribution_version import installed_version
from engine.core.paths import cache_dir
from engine.core.signed_cache import KEY_BYTES, signing_key

__all__ = ["KEY_BYTES", "entry_path", "load", "signing_key", "store"]

_DOMAIN = b"rego-engine native cache 1\0"
_MAX_ENTRY_BYTES = 1 << 30


def wasmtime_version() -> str:
    """The installed wasmtime-py version (part of every entry's name and tag)."""
    return installed_version("wasmtime") or "unknown"


def entry_path(wasm: bytes) -> Path:
    """Where the native code of ``wasm`` is cached."""
    digest = hashlib.sha256(wasm).hexdigest()
    return cache_dir() / "native" / f"{digest}-wasmtime-{wasmtime_version()}.signed.cwasm"


def _context(wasm: bytes) -> bytes:
    return hashlib.sha256(wasm).digest() + wasmtime_version().encode() + b"\0"


def load(key: bytes, wasm: bytes) -> bytes | None:
    """The cached native code of ``wasm`` when its tag verifies under ``key``;
    None when there is no entry or it does not verify (it is then rebuilt)."""
    return signed_cache.read_entry(key, entry_path(wasm), _DOMAIN, _context(wasm), _MAX_ENTRY_BYTES)


def store(key: bytes, wasm: bytes, native: bytes) -> None:
    """Cache ``native`` (the native code of ``wasm``) with its tag, atomically;
    nothing happens when the cache cannot be written."""
    signed_cache.write_entry(key, entry_path(wasm), _DOMAIN, _context(wasm), native)
