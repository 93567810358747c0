"""Loading policy sources from ``-d`` paths, the way ``opa eval -d`` does.

A ``-d`` path is a directory or a file. ``.rego`` files are policy modules;
``.json``, ``.yaml`` and ``.yml`` files are data documents, merged into
``data`` at the path of their directory relative to the ``-d`` root (a file
named directly lands at the root). Other files are ignored, and so are
directories whose names start with a dot. A file reached through several
roots is loaded once. A file found below a ``-d`` directory is read only when
its real path stays inside that directory (:mod:`engine.core.confined_files`);
a file named directly is read as given.
"""

from __future__ import annotations

import fnmatch
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from engine.core.confined_files import read_confined
from engine.core.paths import display_path
from engine.rules.rego_version import detect_rego_version

REGO_SUFFIXES = frozenset({".rego"})
DATA_SUFFIXES = frozenset({".json", ".yaml", ".yml"})


class SourceError(Exception):
    """A policy source could not be read; ``path`` names the file."""

    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass(frozen=True)
class RegoFile:
    """One Rego module: where it came from, its text, and its syntax version."""

    path: Path
    display: str
    text: str
    rego_version: int


@dataclass
class PolicySources:
    """Everything one compilation takes: Rego modules and the merged data document."""

    rego_files: list[RegoFile] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    data_files: list[str] = field(default_factory=list)


def ignored_name(name: str, patterns: Sequence[str]) -> bool:
    """Whether a file or directory name matches one of the ``--ignore`` glob
    patterns (Go's ``filepath.Match`` on the base name, as ``opa test --ignore``)."""
    return any(fnmatch.fnmatchcase(name, p.replace("[^", "[!")) for p in patterns)


def policy_files(root: Path, ignore: Sequence[str] = ()) -> list[Path]:
    """The policy modules and data documents below ``root`` that are read, in
    order (hidden directories and symlinked directories are not entered, nor
    files and directories whose names match an ``ignore`` pattern; ``root``
    itself is always read, as in ``opa``)."""
    if root.is_file():
        return [root]
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and not ignored_name(d, ignore)
        )
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if ignored_name(name, ignore):
                continue
            if path.suffix in REGO_SUFFIXES or path.suffix in DATA_SUFFIXES:
                found.append(path)
    return found


def _read_text(path: Path, root: Path | None) -> str:
    """The file's text exactly as its bytes say: line ends are kept, so a raw
    string spanning ``\r\n`` keeps its carriage return, as ``opa`` reads it."""
    try:  # a FIFO, a device or a link leaving ``root`` is refused before reading
        return read_confined(path, root).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(display_path(path), f"not valid UTF-8 ({exc.reason})") from None
    except OSError as exc:
        raise SourceError(display_path(path), exc.strerror or str(exc)) from None


_MAX_EXACT_DIGITS = 4000
"""Digits of the largest number beyond float64 a JSON data document may hold
(written exactly as an integer; Python writes integers up to 4,300 digits)."""


class _NumberOutOfRange(ValueError):
    pass


def _json_float(text: str) -> float | int:
    """A JSON number with a fraction or exponent: a float, or the exact integer
    when it is beyond float64's range (``1e1000``), as OPA keeps it exactly."""
    value = float(text)
    if math.isfinite(value):
        return value
    exact = Decimal(text)
    digits = exact.adjusted() + 1
    if digits > _MAX_EXACT_DIGITS or exact != exact.to_integral_value():
        raise _NumberOutOfRange(
            f"number {text[:40]} is beyond float64 and not an integer of at most "
            f"{_MAX_EXACT_DIGITS} digits"
        )
    return int(exact)


def _json_constant(name: str) -> Any:
    raise _NumberOutOfRange(f"{name} is not JSON")


def parse_data_document(path: Path, text: str) -> Any:
    """The value of a JSON or YAML data document (the YAML parser is imported
    with the first YAML document). JSON numbers beyond float64 are kept exact."""
    if path.suffix == ".json":
        try:
            return json.loads(text, parse_float=_json_float, parse_constant=_json_constant)
        except json.JSONDecodeError as exc:
            raise SourceError(display_path(path), exc.msg, exc.lineno) from None
        except ValueError as exc:  # out of range, or an integer past Python's digit limit
            raise SourceError(display_path(path), f"invalid JSON: {exc}") from None
        except RecursionError:
            from engine.inputs.loaders.limits import too_deep_message

            raise SourceError(display_path(path), too_deep_message()) from None
    import yaml

    from engine.core.go_yaml import load_yaml_document
    from engine.inputs.loaders.loaded import LoaderError

    try:
        return load_yaml_document(text)  # within the nesting and alias limits
    except LoaderError as exc:
        raise SourceError(display_path(path), exc.message, exc.line) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise SourceError(display_path(path), f"invalid YAML: {problem}", line) from None


def _deep_merge(target: dict[str, Any], doc: dict[str, Any], origin: str, at: str = "") -> None:
    for key, value in doc.items():
        path = f"{at}.{key}" if at else key
        current = target.get(key)
        if isinstance(current, dict) and isinstance(value, dict):
            _deep_merge(current, value, origin, path)
        elif key in target and current != value:
            raise SourceError(origin, f"data.{path} is also defined by another document")
        else:
            target[key] = value


def _merge_document(data: dict[str, Any], value: Any, at: list[str], origin: str) -> None:
    """Merge one document into ``data`` at path ``at`` (its directory)."""
    for key in reversed(at):
        value = {key: value}
    if not isinstance(value, dict):
        raise SourceError(origin, "a data document at the root of data must be an object")
    _deep_merge(data, value, origin)


def load_sources(
    paths: list[Path],
    *,
    on_error: Callable[[SourceError], None] | None = None,
    ignore: Sequence[str] = (),
) -> PolicySources:
    """Read every policy module and data document below ``paths`` (but those
    :func:`policy_files` leaves out for ``ignore``).

    Without ``on_error`` the first bad file raises :class:`SourceError`; with
    it, each bad file is reported there and skipped.
    """
    sources = PolicySources()
    seen: set[Path] = set()
    for root in paths:
        try:
            if not root.exists():
                raise SourceError(display_path(root), "no such file or directory")
        except SourceError as exc:
            if on_error is None:
                raise
            on_error(exc)
            continue
        files = policy_files(root, ignore)
        for path in files:
            real = path.resolve()
            if real in seen:
                continue
            seen.add(real)
            try:
                _load_file(sources, root, path, real)
            except SourceError as exc:
                if on_error is None:
                    raise
                on_error(exc)
    return sources


def _load_file(sources: PolicySources, root: Path, path: Path, real: Path) -> None:
    text = _read_text(path, None if path == root else root)
    if path.suffix in REGO_SUFFIXES:
        sources.rego_files.append(
            RegoFile(real, display_path(path), text, detect_rego_version(text))
        )
        return
    value = parse_data_document(path, text)  # an empty YAML file is null, as in OPA
    at = [] if root.is_file() else list(path.parent.relative_to(root).parts)
    _merge_document(sources.data, value, at, display_path(path))
    sources.data_files.append(display_path(path))
