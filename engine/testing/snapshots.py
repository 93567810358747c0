"""Snapshot files for ``snyk.test.matches_snapshot(value, path)``.

A snapshot is a JSON file next to the test file that asks for it (``path`` is
relative to the test file's directory). It matches when the stored JSON
equals ``value`` (sets as sorted arrays, as ``opa`` reports them). Paths are
confined to the test tree the test file was found under: absolute paths,
``..`` and symlinks leading out of it are refused. With ``update`` the file
is written (or overwritten) and the check passes.
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from engine.wasm import values

SNAPSHOT_BUILTIN = "__snyk_test_snapshot"


class SnapshotPathError(Exception):
    """A snapshot path that is absolute, climbs out, or leads outside the test tree."""


@dataclass(frozen=True)
class SnapshotCheck:
    """The outcome of one comparison: ``ok``, and a message when it is not."""

    ok: bool
    message: str = ""
    written: Path | None = None


def snapshot_text(value: Any) -> str:
    """The stored form of a value: indented JSON with sorted keys and a final newline."""
    return json.dumps(values.to_json(value), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def resolve_snapshot(root: Path, test_file: Path, relative: str) -> Path:
    """The snapshot file ``relative`` names for ``test_file``, inside ``root``."""
    if not relative:
        raise SnapshotPathError("snapshot path is empty")
    pure = PurePosixPath(relative.replace("\\", "/"))
    if pure.is_absolute() or os.path.isabs(relative) or (relative[1:2] == ":"):
        raise SnapshotPathError(f"snapshot path {relative!r} must be relative to the test file")
    if ".." in pure.parts:
        raise SnapshotPathError(f"snapshot path {relative!r} must not contain '..'")
    tree = root.resolve()
    target = (test_file.resolve().parent / Path(*pure.parts)).resolve()
    if not target.is_relative_to(tree):
        raise SnapshotPathError(
            f"snapshot path {relative!r} leads outside the test tree {root} (through a symlink)"
        )
    if target.is_dir():
        raise SnapshotPathError(f"snapshot path {relative!r} is a directory")
    return target


def check_snapshot(target: Path, value: Any, *, update: bool, shown: str) -> SnapshotCheck:
    """Compare ``value`` with the snapshot at ``target`` (or write it with ``update``)."""
    actual = snapshot_text(value)
    if update:
        try:
            current = target.read_text(encoding="utf-8") if target.is_file() else None
        except OSError:
            current = None
        if current != actual:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(actual, encoding="utf-8")
            return SnapshotCheck(True, f"snapshot {shown} written", target)
        return SnapshotCheck(True)
    if not target.is_file():
        return SnapshotCheck(
            False, f"snapshot {shown} does not exist (run with --update-snapshots to create it)"
        )
    try:
        stored_text = target.read_text(encoding="utf-8")
        stored = json.loads(stored_text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return SnapshotCheck(False, f"snapshot {shown} is not readable JSON: {exc}")
    expected = json.dumps(stored, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if expected == actual:
        return SnapshotCheck(True)
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=f"{shown} (snapshot)",
        tofile=f"{shown} (actual)",
    )
    return SnapshotCheck(False, f"snapshot {shown} does not match:\n" + "".join(diff).rstrip("\n"))
