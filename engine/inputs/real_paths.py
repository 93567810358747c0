"""Real paths of many files in few directories: each directory is resolved once
and a file's own name is followed only when it is a symbolic link."""

from __future__ import annotations

import os
from pathlib import Path


class RealPaths:
    """``Path.resolve()`` (non-strict) of paths, remembering each directory's real
    path. For one run over files that do not move while it lasts."""

    def __init__(self) -> None:
        self._directories: dict[str, str] = {}

    def directory(self, path: Path | str) -> str:
        """The real path of a directory."""
        key = os.fspath(path)
        real = self._directories.get(key)
        if real is None:
            real = self._directories[key] = os.path.realpath(key)
        return real

    def resolve(self, path: Path | str) -> Path:
        """What ``Path(path).resolve()`` gives."""
        head, name = os.path.split(os.fspath(path))
        if name in ("", ".", "..") or os.path.islink(path):
            return Path(path).resolve()
        return Path(os.path.join(self.directory(head or "."), name))
