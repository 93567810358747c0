"""The configuration file ``.rego-engine.yaml``: scan options kept in the repository.

Found in the current directory or, walking up, in the nearest directory up
to the git root (the first directory holding ``.git``); outside a git
repository only the current directory is looked at. Keys are the long
names of ``scan``'s options; flags given on the command line win. Relative
paths are relative to the file's directory. Unknown keys and bad values are
errors naming the file and line.

A file named with ``--config`` is trusted: every key applies. A file *found*
(from the working directory up to the git root) belongs to the scanned tree,
which may come from anyone who can open a pull request, so it may not widen
what is read, redirect output, weaken what is checked or the exit policy:

* ``output``, ``format``, ``fail-on``, ``rules``, ``bundle``, ``rule``,
  ``exclude-rule``, ``skip-path``, ``input-type``, ``jobs`` and ``cluster`` are
  refused (a found file may not send the scanned tree to other machines);
* so are ``inputs``, ``var`` and ``var-file``: only the operator chooses which
  inputs are scanned and the value of any variable;
* ``ignore-file`` must stay inside the file's directory, symbolic links resolved;
* bounds (``rule-timeout``, ``max-memory``, ``max-output``,
  ``max-file-size``, ``load-timeout``) may only be tightened below their defaults.

A refused key is dropped and reported as an error naming the file and line
(the scan goes on and exits 2).

Example::

    rules: [policies]
    inputs: [infra]
    format: [sarif, json]
    output: [scan.sarif, scan.json]
    fail-on: high
    exclude-rule: [EXAMPLE_004]
    var: {region: eu-west-1}
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.yaml_nodes import YamlFileError, compose_file, line_of, mapping_items, plain_value
from engine.results.formats import FORMATS, STDOUT
from engine.results.report import SEVERITY_LEVELS

CONFIG_FILE = ".rego-engine.yaml"
FAIL_ON_CHOICES = (*SEVERITY_LEVELS, "none")

SCAN_KEYS: dict[str, tuple[str, str]] = {
    "inputs": ("paths", "paths"),
    "rules": ("rules", "paths"),
    "format": ("output_formats", "formats"),
    "output": ("outputs", "outputs"),
    "fail-on": ("fail_on", "fail_on"),
    "ignore-file": ("ignore_file", "path"),
    "rule": ("rule_ids", "strings"),
    "exclude-rule": ("exclude_rule_ids", "strings"),
    "rule-timeout": ("rule_timeout", "positive_number"),
    "max-memory": ("max_memory", "positive_integer"),
    "max-output": ("max_output", "positive_number"),
    "input-type": ("input_type", "string"),
    "skip-path": ("skip_paths", "strings"),
    "var-file": ("var_files", "paths"),
    "var": ("variables", "variables"),
    "max-file-size": ("max_file_size", "positive_number"),
    "load-timeout": ("load_timeout", "positive_number"),
    "split-k8s": ("split_k8s", "boolean"),
    "bundle": ("bundle", "path"),
    "jobs": ("jobs", "positive_integer"),
    "cluster": ("cluster", "string"),
}
"""Configuration key → (``scan`` parameter it sets, kind of value)."""

REFUSED_WHEN_FOUND = frozenset(
    {
        "output",
        "format",
        "fail-on",
        "rules",
        "bundle",
        "rule",
        "exclude-rule",
        "skip-path",
        "input-type",
        "jobs",
        "cluster",
        "inputs",
        "var",
        "var-file",
    }
)
"""Keys a configuration file found in the scanned tree may not set: they redirect
output, weaken the exit policy, change which rules and inputs are checked, or
set a variable's value."""


@functools.cache
def ceilings_when_found() -> dict[str, float | None]:
    """Bounds a found configuration file may only tighten: their defaults."""
    from engine.inputs.discovery import LoadOptions  # the scan itself, loaded when used
    from engine.scanning.scanner import ScanOptions

    return {
        "rule-timeout": ScanOptions.rule_timeout,
        "max-memory": ScanOptions.max_memory_mb,
        "max-output": ScanOptions.max_output_mb,
        "max-file-size": LoadOptions.max_file_mb,
        "load-timeout": LoadOptions.load_timeout,
    }


_TRUST_HINT = "name the file with --config to trust it"


@dataclass(frozen=True)
class ScanConfig:
    """The options a configuration file sets, by ``scan`` parameter name."""

    path: Path
    values: dict[str, Any]
    refused: list[str] = field(default_factory=list)
    """Keys dropped because the file was found in the scanned tree, one message each
    (``FILE:LINE: why``)."""


def find_config(start: Path) -> Path | None:
    """The configuration file for a run started in ``start``, if any."""
    start = start.resolve()
    chain = [start, *start.parents]
    if not any((d / ".git").exists() for d in chain):
        chain = [start]
    for directory in chain:
        candidate = directory / CONFIG_FILE
        if candidate.is_file():
            return candidate
        if (directory / ".git").exists():
            break
    return None


def load_config(path: Path, cwd: Path | None = None, *, trusted: bool = True) -> ScanConfig:
    """Read a configuration file; raises :class:`YamlFileError` naming file and line.

    Relative paths in it become paths relative to ``cwd`` (default: the
    current directory), so they name what they name from the file's directory.
    An untrusted file (found in the scanned tree, not named by the user) has
    the keys it may not set dropped into :attr:`ScanConfig.refused`, and is read only
    when it really lies in the directory it was found in (not through a symbolic
    link leading out of it)."""
    root = compose_file(path, None if trusted else path.parent)
    config = ScanConfig(path, {})
    if root is None:
        return config
    base = path.resolve().parent
    here = (cwd or Path.cwd()).resolve()
    for key, line, node in mapping_items(root, path, "the configuration"):
        if key not in SCAN_KEYS:
            raise YamlFileError(
                path, line, f"unknown key {key!r} (known: {', '.join(sorted(SCAN_KEYS))})"
            )
        param, kind = SCAN_KEYS[key]
        value = _value(kind, plain_value(node, path), key, path, line_of(node), base, here)
        refusal = None if trusted else _refusal(key, kind, value, base, here)
        if refusal is None:
            config.values[param] = value
        else:
            config.refused.append(f"{path}:{line_of(node)}: {refusal}; {_TRUST_HINT}")
    return config


def _refusal(key: str, kind: str, value: Any, base: Path, here: Path) -> str | None:
    """Why a file found in the scanned tree may not set ``key`` to ``value`` (None: it may)."""
    if key in REFUSED_WHEN_FOUND:
        return f"{key!r} is not taken from a configuration file found in the scanned tree"
    if kind in ("path", "paths"):
        for item in value if isinstance(value, list) else [value]:
            if not (here / item).resolve().is_relative_to(base):
                return (
                    f"{key!r} names {str(item)!r}, outside {base}, in a configuration file "
                    "found in the scanned tree"
                )
    ceiling = ceilings_when_found().get(key)
    if ceiling is not None and value > ceiling:
        return (
            f"{key!r} may only be lowered from its default ({ceiling:g}) in a configuration "
            "file found in the scanned tree"
        )
    return None


def _relative(value: str, base: Path, here: Path) -> Path:
    given = Path(value).expanduser()
    if given.is_absolute():
        return given
    return Path(os.path.relpath(base / given, here))


def _strings(value: Any, key: str, path: Path, line: int) -> list[str]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(i, str) and i for i in items):
        raise YamlFileError(path, line, f"{key!r} must be a string or a list of strings")
    return items


def _value(kind: str, value: Any, key: str, path: Path, line: int, base: Path, here: Path) -> Any:
    def bad(expected: str) -> YamlFileError:
        return YamlFileError(path, line, f"{key!r} must be {expected}, found {value!r}")

    if kind == "paths":
        return [_relative(v, base, here) for v in _strings(value, key, path, line)]
    if kind == "path":
        if not isinstance(value, str) or not value:
            raise bad("a path")
        return _relative(value, base, here)
    if kind == "outputs":
        return [
            v if v == STDOUT else str(_relative(v, base, here))
            for v in _strings(value, key, path, line)
        ]
    if kind == "formats":
        formats = _strings(value, key, path, line)
        for fmt in formats:
            if fmt.lower() not in FORMATS:
                raise bad(f"one of {', '.join(FORMATS)}")
        return formats
    if kind == "fail_on":
        if not isinstance(value, str) or value.lower() not in FAIL_ON_CHOICES:
            raise bad(f"one of {', '.join(FAIL_ON_CHOICES)}")
        return value.lower()
    if kind == "strings":
        return _strings(value, key, path, line)
    if kind == "string":
        if not isinstance(value, str) or not value:
            raise bad("a string")
        return value
    if kind == "boolean":
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if kind == "variables":
        return _variables(value, key, path, line)
    number_ok = (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and value > 0
        and not (isinstance(value, float) and not math.isfinite(value))
    )
    if kind == "positive_integer" and not (number_ok and isinstance(value, int)):
        raise bad("a positive integer")
    if kind == "positive_number" and not number_ok:
        raise bad("a positive number")
    return value


def _variables(value: Any, key: str, path: Path, line: int) -> list[str]:
    """``{name: value}`` or a list of ``NAME=VALUE``, as ``--var`` takes them."""
    if isinstance(value, dict):
        out = []
        for name, item in value.items():
            if not isinstance(name, str) or isinstance(item, dict | list) or item is None:
                raise YamlFileError(
                    path, line, f"{key!r}: {name!r} must map to a string, number or boolean"
                )
            text = ("true" if item else "false") if isinstance(item, bool) else str(item)
            out.append(f"{name}={text}")
        return out
    items = _strings(value, key, path, line)
    for item in items:
        if "=" not in item or item.startswith("="):
            raise YamlFileError(path, line, f"{key!r}: {item!r} is not NAME=VALUE")
    return items
