"""Verdicts of ``opa test`` and ``rego-engine test`` over one small tree, side by side."""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from engine.cli.main import app
from engine.rules.opa import find_opa


def verdicts(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """``data.pkg.name`` → verdict (and sub-results) of a ``--format json`` report."""
    out: dict[str, Any] = {}
    for e in entries:
        verdict = "error" if e.get("error") else "fail" if e.get("fail") else "pass"
        if e.get("skip"):
            verdict = "skip"
        out[f"{e['package']}.{e['name']}"] = (verdict, e.get("sub_results"))
    return out


def opa_verdicts(tree: Path, *args: str) -> dict[str, Any]:
    """``opa test --format json`` of ``tree`` (run inside it)."""
    proc = subprocess.run(
        [str(find_opa().path), "test", "--format", "json", *args, "."],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    return verdicts(json.loads(proc.stdout))


def engine_verdicts(tree: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    """Exit code, verdicts and stderr of ``rego-engine test --format json``."""
    with contextlib.chdir(tree):
        result = CliRunner().invoke(app, ["test", "--format", "json", *args, "."])
    return result.exit_code, verdicts(json.loads(result.stdout or "[]")), result.stderr


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
