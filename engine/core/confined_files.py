"""Reading a file only when it lies inside the directory tree it was found under.

A file found below a root (a scanned directory, a ``-d`` directory) may be a
symbolic link, or sit below one. It is read only when the file actually
opened lies inside the root's real path. The check is made on the open file
descriptor: its path as the kernel reports it (``/proc/self/fd``), or where
that is not available, its device and inode compared with those of the
resolved path. Replacing a link between the check and the read therefore
cannot make the engine read another file. A root of None means the path was
given by the user and is read as given.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from engine.core.paths import display_path


class OutsideRootError(OSError):
    """A file whose real path leaves the root it was found under; not read."""

    def __init__(self, path: Path, root: Path) -> None:
        super().__init__(errno.EACCES, f"symbolic link leads outside {display_path(root)}")
        self.filename = str(path)
        self.root = root


class NotRegularFileError(OSError):
    """The opened file is a FIFO, device, socket or directory; not read."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, "not a regular file; not read")
        self.filename = str(path)


def is_inside(real: str, root_real: str) -> bool:
    """Whether the real path ``real`` is ``root_real`` or below it."""
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _opened_path(fd: int, path: Path) -> str:
    """The real path of the file open as ``fd``."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        pass
    real = os.path.realpath(path)
    found, opened = os.stat(real), os.fstat(fd)
    if (found.st_dev, found.st_ino) != (opened.st_dev, opened.st_ino):
        return ""  # the path changed under us: treat as outside
    return real


def open_confined(path: Path, root: Path | None, root_real: str | None = None) -> BinaryIO:
    """``path`` opened for reading, when it is a regular file inside ``root``.

    ``root_real`` is ``root``'s real path when the caller has resolved it
    already (once per scan, not once per file); else it is resolved here.
    Raises :class:`OutsideRootError` when the opened file's real path leaves
    ``root``, :class:`NotRegularFileError` for anything but a regular file,
    and :class:`OSError` when it cannot be opened.
    """
    # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFileError(path)
        if root is not None:
            if root_real is None:
                root_real = os.path.realpath(root)
            if not is_inside(_opened_path(fd, path), root_real):
                raise OutsideRootError(path, root)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_confined(path: Path, root: Path | None, root_real: str | None = None) -> bytes:
    """The bytes of ``path``, read only when it lies inside ``root`` (see :func:`open_confined`)."""
    with open_confined(path, root, root_real) as handle:
        return handle.read()
