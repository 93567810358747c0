"""The version of an installed distribution, read from its ``*.dist-info/METADATA``.

``importlib.metadata`` answers the same question but costs a start-up ~15 ms to
import (it brings in the ``email`` package); this reads the one file it would
read. Directories on ``sys.path`` are searched in order, as ``importlib.metadata``
searches them; only a distribution found nowhere there (in a zip, an egg) is
left to ``importlib.metadata``.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path


@functools.cache
def installed_version(name: str) -> str | None:
    """The version of the installed distribution ``name``; None when it is not installed."""
    prefix = re.sub(r"[-_.]+", "_", name).lower() + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for found in sorted(names):
            if found.endswith(".dist-info") and _normalized(found).startswith(prefix):
                version = metadata_version(Path(entry or ".", found, "METADATA"), name)
                if version is not None:
                    return version
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _normalized(directory: str) -> str:
    project, _, rest = directory.partition("-")
    return re.sub(r"[-_.]+", "_", project).lower() + "-" + rest


def metadata_version(path: Path, name: str) -> str | None:
    """The ``Version:`` header of the core metadata file at ``path`` when its
    ``Name:`` is ``name``; None when the file cannot be read or is another's."""
    try:
        head = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
    except (OSError, UnicodeDecodeError):
        return None
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    wanted = re.sub(r"[-_.]+", "-", name).lower()
    if re.sub(r"[-_.]+", "-", fields.get("Name", "")).lower() != wanted:
        return None
    version = fields.get("Version", "").strip()
    return version or None
