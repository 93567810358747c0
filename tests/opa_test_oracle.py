"""`opa test` as the oracle for `rego-engine test`.

The test tree is staged as a bundle beside the test-mode library (the same
pure-Rego `snyk`, `fugue` and shipped relations the engine compiles in test
mode); the manifest records each file's Rego version, so v0 and v1 files mix
as they do under `rego-engine test`. Locations come out relative to the tree.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from engine.rules.compiler import stage_bundle
from engine.rules.opa import find_opa
from engine.rules.rego_outline import outline
from engine.rules.rego_version import detect_rego_version
from engine.rules.sources import PolicySources, RegoFile
from engine.testing.runner import test_mode_library

LIBRARY_DIR = "__rego_engine_lib"


def _opa_version(path: Path, text: str) -> int:
    """The file's Rego version as ``opa`` settles it: v1 unless only
    ``opa check --v0-compatible`` accepts it (the engine's compile fallback)."""
    if detect_rego_version(text) == 0:
        return 0
    opa = str(find_opa().path)
    if subprocess.run([opa, "check", str(path)], capture_output=True).returncode == 0:
        return 1
    v0 = subprocess.run([opa, "check", "--v0-compatible", str(path)], capture_output=True)
    return 0 if v0.returncode == 0 else 1


def stage_oracle_bundle(tree: Path, directory: Path) -> None:
    """Copy ``tree`` into ``directory`` with the test-mode library and a manifest."""
    shutil.copytree(tree, directory, dirs_exist_ok=True)
    user = []
    for path in sorted(directory.rglob("*.rego")):
        text = path.read_text()
        shown = str(path.relative_to(directory))
        user.append(RegoFile(path, shown, text, _opa_version(path, text)))
    packages = {outline(f.text).package for f in user}
    lib = [f for f in test_mode_library(packages) if "snapshot" not in f.display]
    library = directory / LIBRARY_DIR
    library.mkdir()
    stage_bundle(PolicySources(lib, {}), library)
    (library / ".manifest").unlink()
    (library / "data.json").unlink()
    v0 = {f"/{f.display}": 0 for f in user if f.rego_version == 0}
    for staged in sorted(library.rglob("*.rego")):
        text = staged.read_text()
        if detect_rego_version(text) == 0:
            v0[f"/{staged.relative_to(directory)}"] = 0
    manifest = {"rego_version": 1, "file_rego_versions": v0}
    (directory / ".manifest").write_text(json.dumps(manifest, sort_keys=True))


def opa_test_json(bundle: Path, *extra: str) -> list[dict[str, Any]]:
    """``opa test -b BUNDLE --format json`` run from the bundle directory."""
    proc = subprocess.run(
        [str(find_opa().path), "test", "-b", ".", "--format", "json", *extra],
        cwd=bundle,
        capture_output=True,
        text=True,
    )
    if proc.returncode not in (0, 2):
        raise RuntimeError(f"opa test failed ({proc.returncode}): {proc.stderr}")
    return list(json.loads(proc.stdout))
