"""Starting processes that never run code from the scanned tree.

A Python process started with ``-c`` (as :mod:`multiprocessing`'s spawn and
Dask's nanny start workers) puts its working directory first on ``sys.path``,
so a ``multiprocessing.py`` in the directory a scan runs in would be imported
by every worker. Children started inside :func:`safe_python_children` get
``PYTHONSAFEPATH=1`` (no working directory on ``sys.path`` while they start)
and the ``sys.path`` they copy from this process without its working
directory (unless the engine itself is imported from there). Non-Python
children (``opa``) run in :data:`NEUTRAL_DIRECTORY`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

SAFE_PATH_VARIABLE = "PYTHONSAFEPATH"
"""Python 3.11+: when set, ``-c``, ``-m`` and scripts add no directory to ``sys.path``."""

NEUTRAL_DIRECTORY = os.path.abspath(os.sep)
"""The working directory of the ``opa`` processes the engine runs: outside any
scanned tree, and writable by the administrator only."""

_ENGINE_ROOT = Path(__file__).resolve().parents[2]
"""The directory the ``engine`` package is imported from."""


def _same_directory(entry: str, directory: Path) -> bool:
    """Whether ``entry`` of ``sys.path`` (relative ones are taken from
    ``directory``, the working directory) names ``directory``."""
    try:
        return (directory / entry).resolve() == directory
    except (OSError, RuntimeError):
        return False


def safe_sys_path(path: list[str], working_directory: Path) -> list[str]:
    """``path`` without the entries naming ``working_directory`` (``""`` included),
    kept when the engine itself is imported from there."""
    directory = working_directory.resolve()
    if directory == _ENGINE_ROOT:
        return list(path)
    return [entry for entry in path if not _same_directory(entry, directory)]


@contextmanager
def safe_python_children() -> Iterator[None]:
    """While the block runs, Python processes started from this one import nothing
    from the working directory: ``PYTHONSAFEPATH=1`` in their environment and the
    working directory out of the ``sys.path`` they inherit. Both are restored after."""
    previous_variable = os.environ.get(SAFE_PATH_VARIABLE)
    previous_path = list(sys.path)
    os.environ[SAFE_PATH_VARIABLE] = "1"
    with suppress(OSError):  # no working directory any more: nothing of it to drop
        sys.path[:] = safe_sys_path(sys.path, Path.cwd())
    try:
        yield
    finally:
        sys.path[:] = previous_path
        if previous_variable is None:
            os.environ.pop(SAFE_PATH_VARIABLE, None)
        else:
            os.environ[SAFE_PATH_VARIABLE] = previous_variable
