"""The native-code cache: wasmtime's compiled form of each policy module.

Deserializing native code runs whatever the file holds, so a cache entry is
used only when it carries an HMAC-SHA256 made with a per-user key kept
outside the cache directory (:func:`engine.core.paths.cache_key_path`, mode
0600, owned by the user): whoever can rewrite the cache but not read the key
cannot forge an entry. The tag covers the Wasm module's sha256, the wasmtime
version and the native bytes. An entry whose tag does not match is rebuilt;
when no key can be trusted (or the key would sit inside the cache) the
native cache is not used at all. Failing to write an entry (a read-only
cache) only costs the next process a compile.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from engine.core.atomic_files import write_atomically
from engine.core.distribution_version import installed_version
from engine.core.paths import cache_dir, cache_key_path

KEY_BYTES = 32
_TAG_BYTES = hashlib.sha256().digest_size
_DOMAIN = b"rego-engine native cache 1\0"
_MAX_ENTRY_BYTES = 1 << 30


def wasmtime_version() -> str:
    """The installed wasmtime-py version (part of every entry's name and tag)."""
    return installed_version("wasmtime") or "unknown"


def _inside(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(directory.resolve())
    except ValueError:
        return False
    return True


def _read_key(path: Path) -> bytes | None:
    """The key at ``path`` when it can be trusted: a regular file (not a link),
    owned by this user, readable and writable by nobody else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_uid != os.getuid()
            or info.st_mode & 0o077
            or info.st_size != KEY_BYTES
        ):
            return None
        key = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    return key if len(key) == KEY_BYTES else None


def _create_key(path: Path) -> bytes | None:
    """A new random key written to ``path`` (mode 0600); None when it cannot be."""
    key = secrets.token_bytes(KEY_BYTES)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return _read_key(path)  # another process made it first
    except OSError:
        return None
    try:
        os.write(fd, key)
    finally:
        os.close(fd)
    return key


def signing_key() -> bytes | None:
    """The per-user cache key (made on first use); None when the native cache
    cannot be trusted: the key is inside the cache directory, or is not the
    user's own 0600 file, or cannot be made."""
    path = cache_key_path()
    if _inside(path, cache_dir()):
        return None
    if path.exists() or path.is_symlink():
        return _read_key(path)
    return _create_key(path)


def entry_path(wasm: bytes) -> Path:
    """Where the native code of ``wasm`` is cached."""
    digest = hashlib.sha256(wasm).hexdigest()
    return cache_dir() / "native" / f"{digest}-wasmtime-{wasmtime_version()}.signed.cwasm"


def _tag(key: bytes, wasm: bytes, native: bytes | memoryview) -> bytes:
    mac = hmac.new(key, _DOMAIN, hashlib.sha256)
    mac.update(hashlib.sha256(wasm).digest())
    mac.update(wasmtime_version().encode() + b"\0")
    mac.update(native)
    return mac.digest()


def load(key: bytes, wasm: bytes) -> bytes | None:
    """The cached native code of ``wasm`` when its tag verifies under ``key``;
    None when there is no entry or it does not verify (it is then rebuilt)."""
    try:
        fd = os.open(entry_path(wasm), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _TAG_BYTES < info.st_size <= _MAX_ENTRY_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(info.st_size)
    except OSError:
        return None
    finally:
        os.close(fd)
    tag, native = data[:_TAG_BYTES], memoryview(data)[_TAG_BYTES:]
    if not hmac.compare_digest(tag, _tag(key, wasm, native)):
        return None
    return bytes(native)


def store(key: bytes, wasm: bytes, native: bytes) -> None:
    """Cache ``native`` (the native code of ``wasm``) with its tag, atomically;
    nothing happens when the cache cannot be written."""
    path = entry_path(wasm)
    try:
        write_atomically(path, _tag(key, wasm, native) + native, create_parents=True)
    except OSError:
        return
