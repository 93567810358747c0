"""``rego.parse_module``: a module's AST, from the pinned ``opa parse``.

Only OPA's parser gives OPA's AST, so the host runs ``opa parse --format json``
on the source. Where no usable ``opa`` is present (a bundle scan on a machine
without it), the call fails with a builtin error saying so: the call is
undefined, or an error under strict builtin errors.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.core.child_processes import NEUTRAL_DIRECTORY
from engine.rules.opa import OpaNotFound, find_opa
from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import parse

NAME = "rego.parse_module"
DEFAULT_TIMEOUT_S = 30.0
"""How long ``opa parse`` may run when the evaluation has no time bound."""


def _timeout() -> float:
    deadline = current_context().deadline
    if deadline is None:
        return DEFAULT_TIMEOUT_S
    return max(deadline - time.monotonic(), 0.001)


def _parse_errors(stdout: bytes, filename: str) -> str:
    """OPA's error text for a failed parse: ``N error(s) occurred: file:row: code: msg``."""
    try:
        errors = json.loads(stdout).get("errors") or []
    except (ValueError, AttributeError):
        errors = []
    if not errors:
        return "opa parse failed"
    lines = []
    for err in errors:
        row = (err.get("location") or {}).get("row", 0)
        lines.append(f"{filename}:{row}: {err.get('code')}: {err.get('message')}")
    count = "1 error occurred" if len(lines) == 1 else f"{len(lines)} errors occurred"
    return f"{count}: " + "\n".join(lines)


def _with_filename(node: Any, filename: str) -> None:
    """Point every ``Location.file`` (comments carry one) at ``filename``."""
    if isinstance(node, dict):
        location = node.get("Location")
        if isinstance(location, dict) and "file" in location:
            location["file"] = filename
        for value in node.values():
            _with_filename(value, filename)
    elif isinstance(node, list):
        for value in node:
            _with_filename(value, filename)


@register(NAME)
def parse_module(filename: Any, source: Any) -> Any:
    """``rego.parse_module(filename, source)``: the module's AST as OPA's JSON."""
    if not isinstance(filename, str):
        raise BuiltinError(f"{NAME}: operand 1 must be string")
    if not isinstance(source, str):
        raise BuiltinError(f"{NAME}: operand 2 must be string")
    try:
        opa = find_opa()
    except OpaNotFound as exc:
        raise BuiltinError(f"{NAME}: needs the opa binary to parse Rego: {exc}") from None
    with tempfile.TemporaryDirectory(prefix="rego-parse-") as tmp:
        path = Path(tmp) / "module.rego"
        path.write_bytes(source.encode("utf-8", "surrogatepass"))
        try:
            proc = subprocess.run(
                [str(opa.path), "parse", "--format", "json", str(path)],
                capture_output=True,
                timeout=_timeout(),
                cwd=NEUTRAL_DIRECTORY,
            )
        except subprocess.TimeoutExpired:
            raise BuiltinError(f"{NAME}: opa parse ran past the time limit") from None
    if proc.returncode != 0:
        raise BuiltinError(f"{NAME}: {_parse_errors(proc.stdout or proc.stderr, filename)}")
    module = parse(proc.stdout)
    _with_filename(module, filename)
    return module
