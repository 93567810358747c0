"""Differential suite: every package under tests/differential/ is evaluated by
the engine (Wasm + host builtins) and by the pinned `opa eval` over the same
staged bundle; the values must be identical, rule by rule. The engine runs
both the module as compiled and the instrumented copy a scan runs.

A file ``<name>.rego`` may have ``<name>.input.json`` beside it as the input.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from instrumented import MODULES, evaluate_ref

from engine.rules.compiler import stage_bundle
from engine.rules.opa import find_opa
from engine.rules.sources import load_sources
from engine.wasm import values

CASES = Path(__file__).parent.parent / "differential"
FILES = sorted(CASES.rglob("*.rego"))


def package_of(path: Path) -> str:
    match = re.search(r"^package\s+([\w.]+)", path.read_text(), re.M)
    assert match, f"{path} has no package"
    return match.group(1)


def opa_value(path: Path, ref: str, input_path: Path | None) -> Any:
    """The oracle: `opa eval` over the bundle the engine compiles."""
    with tempfile.TemporaryDirectory() as tmp:
        stage_bundle(load_sources([path]), Path(tmp))
        args = [str(find_opa().path), "eval", "--format", "json", "-b", tmp, ref]
        if input_path is not None:
            args += ["-i", str(input_path)]
        proc = subprocess.run(args, capture_output=True, check=False)
        assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
        doc = json.loads(proc.stdout)  # exact integers beyond 64 bits
    results = doc.get("result") or []
    return results[0]["expressions"][0]["value"] if results else None


def count_rules() -> int:
    """How many rules the suite compares (each is one query)."""
    names: set[tuple[Path, str]] = set()
    for path in FILES:
        for match in re.finditer(r"^([a-z_][a-z0-9_]*)\b", path.read_text(), re.M):
            if match.group(1) not in ("package", "import", "default"):
                names.add((path, match.group(1)))
    return len(names)


def test_suite_is_large_enough() -> None:
    assert count_rules() >= 60


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CASES)) for p in FILES])
def test_engine_matches_opa(path: Path, module: str) -> None:
    ref = f"data.{package_of(path)}"
    input_path = path.with_suffix(".input.json")
    input_path = input_path if input_path.is_file() else None
    expected = opa_value(path, ref, input_path)
    results, reads = evaluate_ref(
        [path], ref, module, input_json=input_path.read_bytes() if input_path else None
    )
    if module == "instrumented" and input_path is not None:
        assert reads.pairs, "the instrumented module recorded no read of the input"
    actual = json.loads(values.dumps_json(results[0])) if results else None
    assert isinstance(expected, dict) and isinstance(actual, dict)
    assert expected, f"{path}: opa found no defined rule; the case tests nothing"
    for rule in sorted(set(expected) | set(actual)):
        assert actual.get(rule, "<undefined>") == expected.get(rule, "<undefined>"), (
            f"{path.name}: rule {rule} differs"
        )
