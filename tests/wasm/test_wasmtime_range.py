"""The wasmtime range: pyproject.toml's specifier, the releases ``make
wasmtime-range`` tests, and the installed release agree."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _specifier() -> tuple[tuple[int, ...], int]:
    """(lowest release, major bound) of the wasmtime dependency."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (spec,) = [d for d in deps if d.startswith("wasmtime")]
    match = re.fullmatch(r"wasmtime>=([\d.]+),<(\d+)", spec)
    assert match, f"wasmtime is not pinned to a range: {spec}"
    return _version(match.group(1)), int(match.group(2))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _tested() -> list[tuple[int, ...]]:
    match = re.search(r"^WASMTIME_RANGE := (.+)$", (ROOT / "Makefile").read_text(), re.M)
    assert match, "the Makefile names no WASMTIME_RANGE"
    return [_version(v) for v in match.group(1).split()]


def test_make_wasmtime_range_tests_both_ends_of_the_pinned_range() -> None:
    lowest, bound = _specifier()
    tested = _tested()
    assert tested[0] == lowest
    assert tested[-1][0] == bound - 1  # the newest release is of the last major allowed


def test_the_installed_wasmtime_is_in_the_range() -> None:
    lowest, bound = _specifier()
    installed = _version(importlib.metadata.version("wasmtime"))
    assert lowest <= installed and installed[0] < bound
