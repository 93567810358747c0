"""Cache entries signed with a per-user key kept outside the cache directory.

Some cached files run code when read (native code, pickled parser tables), so
an entry is used only when it carries an HMAC-SHA256 made with a per-user key
(:func:`engine.core.paths.cache_key_path`, mode 0600, owned by the user):
whoever can rewrite the cache but not read the key cannot forge an entry. The
tag covers a domain naming the kind of entry, a context naming what the entry
was made from, and the entry's bytes. An entry whose tag does not match reads
as absent; when no key can be trusted (or the key would sit inside the cache)
the caller does without the cache. Failing to write an entry (a read-only
cache) only costs the next process the rebuild.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from engine.core.atomic_files import write_atomically
from engine.core.paths import cache_dir, cache_key_path

KEY_BYTES = 32
_TAG_BYTES = hashlib.sha256().digest_size


def _inside(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(directory.resolve())
    except ValueError:
        return False
    return True


def _open_regular(path: Path) -> tuple[int, os.stat_result] | None:
    """``path`` opened for reading with its status, when it is a regular file (not
    a link); None otherwise. Opened without blocking, so a FIFO put where a file
    was expected is refused at once instead of waiting for a writer forever."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            return None
        os.set_blocking(fd, True)
    except OSError:
        os.close(fd)
        return None
    return fd, info


def _read_key(path: Path) -> bytes | None:
    """The key at ``path`` when it can be trusted: a regular file (not a link),
    owned by this user, readable and writable by nobody else."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    try:
        if info.st_uid != os.getuid() or info.st_mode & 0o077 or info.st_size != KEY_BYTES:
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
    """The per-user cache key (made on first use); None when signed entries
    cannot be trusted: the key is inside the cache directory, or is not the
    user's own 0600 file, or cannot be made."""
    path = cache_key_path()
    if _inside(path, cache_dir()):
        return None
    if path.exists() or path.is_symlink():
        return _read_key(path)
    return _create_key(path)


def key_problem() -> str | None:
    """Why the cache key at its path is not used, when a file is there that is not
    a key this user may trust (a FIFO, a device, another owner's file, a file
    others can read); None otherwise. Never blocks."""
    path = cache_key_path()
    if _inside(path, cache_dir()):
        return f"{path}: the cache key lies inside the cache directory; it is not used"
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        kind = "a FIFO" if stat.S_ISFIFO(info.st_mode) else "not a regular file"
        return f"{path}: the cache key is {kind}; it is not used and no cache entry is trusted"
    if info.st_uid != os.getuid() or info.st_mode & 0o077 or info.st_size != KEY_BYTES:
        return (
            f"{path}: the cache key is not this user's own {KEY_BYTES}-byte file of mode "
            "0600; it is not used and no cache entry is trusted"
        )
    return None


def tag(key: bytes, domain: bytes, context: bytes, payload: bytes | memoryview) -> bytes:
    """The HMAC-SHA256 under ``key`` of ``domain``, ``context`` and ``payload``."""
    mac = hmac.new(key, domain, hashlib.sha256)
    mac.update(context)
    mac.update(payload)
    return mac.digest()


def read_entry(
    key: bytes, path: Path, domain: bytes, context: bytes, max_bytes: int
) -> bytes | None:
    """The payload of the entry at ``path`` when its tag verifies under ``key``;
    None when there is no entry (or not a regular file, or over ``max_bytes``)
    or it does not verify. Nothing blocks: a FIFO at ``path`` is no entry."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    try:
        if not _TAG_BYTES < info.st_size <= max_bytes:
            return None
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(info.st_size)
    except OSError:
        return None
    finally:
        os.close(fd)
    found, payload = data[:_TAG_BYTES], memoryview(data)[_TAG_BYTES:]
    if not hmac.compare_digest(found, tag(key, domain, context, payload)):
        return None
    return bytes(payload)


def write_entry(key: bytes, path: Path, domain: bytes, context: bytes, payload: bytes) -> None:
    """Store ``payload`` at ``path`` with its tag, atomically; nothing happens
    when the cache cannot be written."""
    try:
        write_atomically(path, tag(key, domain, context, payload) + payload, create_parents=True)
    except OSError:
        return
