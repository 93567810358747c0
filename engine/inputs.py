"""Finding and loading scan inputs: files and directories → States.

A State JSON (or YAML) file holds one State or a list of States. Files that
hold no supported input are skipped; files that cannot be read or parsed, or
whose State is malformed, are reported with their path (and line where known)
while the other inputs are still loaded.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import yaml

from engine.collector import collector_paused
from engine.sources import display_path
from engine.state import State, StateError, parse_state, states_in_document

INPUT_SUFFIXES = frozenset({".json", ".yaml", ".yml"})

_YamlLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class ScanInput:
    """One State to scan and where it came from (``index`` within a list file)."""

    path: str
    index: int | None
    state: State

    @property
    def name(self) -> str:
        """``file`` or ``file[i]`` for the i-th State of a list file."""
        return self.path if self.index is None else f"{self.path}[{self.index}]"


@dataclass(frozen=True)
class InputProblem:
    """An input that could not be loaded."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass
class LoadedInputs:
    """The inputs found below the scan paths, the problems, and the files skipped."""

    inputs: list[ScanInput]
    problems: list[InputProblem]
    skipped: list[str]


def _candidate_files(paths: list[Path]) -> tuple[list[Path], list[InputProblem]]:
    files: list[Path] = []
    problems: list[InputProblem] = []
    seen: set[Path] = set()
    for root in paths:
        if not root.exists():
            problems.append(InputProblem(display_path(root), "no such file or directory"))
            continue
        if root.is_file():
            found = [root]
        else:
            found = []
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                found += [Path(dirpath) / n for n in sorted(filenames)]
        for path in found:
            real = path.resolve()
            if real not in seen:
                seen.add(real)
                files.append(path)
    return files, problems


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"number {text} is out of range")
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


_LONG_DIGITS = re.compile(rb"[0-9]{20,}")


def _parse_document(path: Path, raw: bytes) -> Any:
    if path.suffix == ".json":
        if not _LONG_DIGITS.search(raw):
            # orjson is exact below 20 digits and refuses infinities and NaN;
            # anything it refuses is parsed again for the precise error.
            try:
                return orjson.loads(raw)
            except orjson.JSONDecodeError:
                pass
        return json.loads(raw, parse_float=_finite, parse_constant=_no_constant)
    return yaml.load(raw, Loader=_YamlLoader)


def load_inputs(paths: list[Path]) -> LoadedInputs:
    """Load every State found below ``paths``, in path order."""
    with collector_paused():  # parsing allocates millions of acyclic objects
        return _load_inputs(paths)


def _load_inputs(paths: list[Path]) -> LoadedInputs:
    files, problems = _candidate_files(paths)
    inputs: list[ScanInput] = []
    skipped: list[str] = []
    for path in files:
        shown = display_path(path)
        if path.suffix not in INPUT_SUFFIXES:
            skipped.append(shown)
            continue
        try:
            doc = _parse_document(path, path.read_bytes())
        except OSError as exc:
            problems.append(InputProblem(shown, exc.strerror or str(exc)))
            continue
        except json.JSONDecodeError as exc:
            problems.append(InputProblem(shown, f"invalid JSON: {exc.msg}", exc.lineno))
            continue
        except UnicodeDecodeError as exc:
            problems.append(InputProblem(shown, f"not valid UTF-8 ({exc.reason})"))
            continue
        except ValueError as exc:
            problems.append(InputProblem(shown, f"invalid JSON: {exc}"))
            continue
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problems.append(
                InputProblem(
                    shown,
                    f"invalid YAML: {getattr(exc, 'problem', None) or exc}",
                    mark.line + 1 if mark is not None else None,
                )
            )
            continue
        docs = states_in_document(doc)
        if docs is None:
            skipped.append(shown)
            continue
        for i, state_doc in enumerate(docs):
            index = i if isinstance(doc, list) else None
            try:
                state: State = parse_state(state_doc)
            except StateError as exc:
                where = shown if index is None else f"{shown}[{index}]"
                problems.append(InputProblem(where, f"malformed State: {exc}"))
                continue
            inputs.append(ScanInput(shown, index, state))
    return LoadedInputs(inputs, problems, skipped)
