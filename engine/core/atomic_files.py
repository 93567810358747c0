"""Writing output files atomically: readers see the old file or the whole new one.

A scan cancelled mid-write, or a disk that fills up, must not leave a
truncated results document where CI expects one (or where the previous run's
file was). The bytes go to a temporary file in the same directory, are
flushed to disk, and the temporary file is renamed over the target.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def _default_mode() -> int:
    """The mode a newly created file gets under the process's umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: Path, data: bytes, *, create_parents: bool = False) -> None:
    """Replace ``path`` with ``data`` in one rename; on any failure ``path`` is left
    as it was and no temporary file remains. A symbolic link at ``path`` is
    replaced, not written through. ``create_parents`` makes missing directories."""
    if create_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        try:
            mode = os.stat(path).st_mode & 0o777
        except OSError:
            mode = _default_mode()
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
