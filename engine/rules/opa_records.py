"""Which ``opa`` binaries the engine may run without the operator naming them.

Two kinds of binary are found by the engine itself, and each is run only after
its bytes are checked against a sha256 recorded when it was made:

- the ``opa`` an installed wheel carries (``engine/shipped/opa/opa``): its
  sha256 is written beside it (``opa.json``) when the wheel is built;
- the ``opa`` the project's build script made in the cache
  (``<cache>/opa-<version>/opa``): its sha256 is kept in a cache entry signed
  with the per-user key (:mod:`engine.core.signed_cache`), so an ``opa``
  planted in a writable cache has no valid record and is never run.

Hashing a 60 MB binary takes up to a second on a busy machine, so a record
also keeps the file's identity (device, inode, size, modification and change
times); while that identity is unchanged the bytes are not hashed again. A
replaced or rewritten file gets a new inode or change time, which a user
cannot set back, and is hashed in full.

``python -m engine.rules.opa_records record PATH`` records a binary the build
script has just built; ``check PATH`` exits 0 when a binary's record holds.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.core.paths import cache_dir
from engine.core.signed_cache import read_entry, signing_key, write_entry

DOMAIN = b"rego-engine opa binary v1"
RECORD_SUFFIX = ".record"
MAX_RECORD_BYTES = 4096
CHUNK_BYTES = 1 << 20

SHIPPED_MANIFEST = "opa.json"
"""Beside a wheel's ``opa``: its version and sha256, written when the wheel is built."""


class NotRecorded(RuntimeError):
    """A binary cannot be recorded (no trusted key, not a regular file)."""


@dataclass(frozen=True)
class BinaryRecord:
    """A binary's sha256 and the identity of the file it was computed from."""

    sha256: str
    identity: tuple[int, ...]

    def to_bytes(self) -> bytes:
        return json.dumps({"sha256": self.sha256, "identity": list(self.identity)}).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> BinaryRecord | None:
        try:
            doc = json.loads(data)
            return cls(str(doc["sha256"]), tuple(int(n) for n in doc["identity"]))
        except (ValueError, KeyError, TypeError):
            return None


def file_identity(info: os.stat_result) -> tuple[int, ...]:
    """What changes when a file is replaced or rewritten."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _open_regular(path: Path) -> tuple[int, os.stat_result] | None:
    """A read descriptor on ``path`` when it is a regular file (not a link, FIFO, device)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info


def hash_binary(path: Path) -> BinaryRecord | None:
    """The sha256 and identity of the regular file at ``path``; None when it is not one."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    digest = hashlib.sha256()
    try:
        while chunk := os.read(fd, CHUNK_BYTES):
            digest.update(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return BinaryRecord(digest.hexdigest(), file_identity(info))


def _current_identity(path: Path) -> tuple[int, ...] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return file_identity(info) if stat.S_ISREG(info.st_mode) else None


def _context(binary: Path) -> bytes:
    return os.fsencode(os.path.abspath(binary))


def build_record_path(binary: Path) -> Path:
    """The signed record of a binary the build script made: beside it."""
    return binary.with_name(binary.name + RECORD_SUFFIX)


def shipped_record_path(expected_sha256: str) -> Path:
    """The signed note that a wheel's ``opa`` was hashed: in the cache, by digest."""
    return cache_dir() / "opa-shipped" / f"{expected_sha256}{RECORD_SUFFIX}"


def _read_record(key: bytes, record: Path, binary: Path) -> BinaryRecord | None:
    data = read_entry(key, record, DOMAIN, _context(binary), MAX_RECORD_BYTES)
    return None if data is None else BinaryRecord.from_bytes(data)


def record_build(binary: Path) -> BinaryRecord:
    """Hash ``binary`` (just built by this user) and sign its record; raises
    :class:`NotRecorded` when there is no trusted key or no regular file."""
    key = signing_key()
    if key is None:
        raise NotRecorded("no trusted per-user cache key to sign the opa build record with")
    record = hash_binary(binary)
    if record is None:
        raise NotRecorded(f"{binary} is not a regular file")
    write_entry(key, build_record_path(binary), DOMAIN, _context(binary), record.to_bytes())
    if _read_record(key, build_record_path(binary), binary) != record:
        raise NotRecorded(f"the record of {binary} could not be written")
    return record


def _holds(binary: Path, record_file: Path, expected_sha256: str | None) -> bool:
    """Whether ``binary`` has the sha256 expected (given, or the signed record's)."""
    key = signing_key()
    record = _read_record(key, record_file, binary) if key is not None else None
    wanted = expected_sha256 or (record.sha256 if record is not None else None)
    if wanted is None:
        return False  # a build with no signed record is never run
    if (
        record is not None
        and record.sha256 == wanted
        and record.identity == _current_identity(binary)
    ):
        return True
    current = hash_binary(binary)
    if current is None or current.sha256 != wanted:
        return False
    if key is not None:
        write_entry(key, record_file, DOMAIN, _context(binary), current.to_bytes())
    return True


def build_holds(binary: Path) -> bool:
    """Whether the build script's ``binary`` is the one whose hash it signed."""
    return _holds(binary, build_record_path(binary), None)


@dataclass(frozen=True)
class ShippedOpa:
    """The ``opa`` a wheel carries, as its manifest describes it."""

    path: Path
    version: str
    sha256: str


def read_shipped(directory: Path) -> ShippedOpa | None:
    """The wheel's ``opa`` in ``directory`` (``engine/shipped/opa``); None when the
    wheel carries none or its manifest is unreadable."""
    try:
        doc = json.loads((directory / SHIPPED_MANIFEST).read_text())
        return ShippedOpa(directory / "opa", str(doc["version"]), str(doc["sha256"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def shipped_holds(shipped: ShippedOpa) -> bool:
    """Whether the wheel's ``opa`` has the sha256 recorded when the wheel was built."""
    return _holds(shipped.path, shipped_record_path(shipped.sha256), shipped.sha256)


def main(argv: list[str]) -> int:
    """``record PATH`` or ``check PATH`` (see the module docstring)."""
    if len(argv) != 2 or argv[0] not in {"record", "check"}:
        print("usage: python -m engine.rules.opa_records record|check PATH", file=sys.stderr)
        return 2
    binary = Path(argv[1])
    if argv[0] == "check":
        return 0 if build_holds(binary) else 1
    try:
        record = record_build(binary)
    except NotRecorded as exc:
        print(f"cannot record {binary}: {exc}", file=sys.stderr)
        return 1
    print(f"recorded {binary}: sha256 {record.sha256}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
