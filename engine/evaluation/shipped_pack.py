"""The precompiled shipped rule pack: a wheel carries the pack built when the wheel
was built, so the default scan needs no ``opa``. A source checkout has none and
compiles ``rego/rules`` as ``-d`` paths are compiled."""

from __future__ import annotations

from pathlib import Path

from engine.core.paths import PRECOMPILED_PACK
from engine.evaluation.bundle import built_by_this_engine


def precompiled_pack(path: Path = PRECOMPILED_PACK) -> Path | None:
    """``path`` when it holds a pack built by this engine version, else None."""
    return path if path.is_file() and built_by_this_engine(path) else None
