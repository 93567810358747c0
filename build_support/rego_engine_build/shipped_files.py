"""The wheel's ``build_py`` step: the shipped files, ``opa`` and the precompiled rule pack.

``rego/``, ``builtins/*.json`` and ``wasm/go.mod`` stay at the top of the source
tree; a wheel gets copies of them in ``engine/shipped/``, the pinned ``opa`` in
``engine/shipped/opa/`` (:mod:`rego_engine_build.bundled_opa`), and the shipped
rule pack compiled by ``rego-engine build`` with that ``opa`` into
``engine/shipped/rule-pack.tar.gz``. Without an ``opa`` the build fails, unless
it was told to leave ``opa`` out; then the pack is left out as well (with a
warning) and the installed engine compiles the shipped rules with the ``opa``
its user supplies. Editable installs read the source tree directly and get none
of these.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools.command.build_py import build_py

from rego_engine_build import bundled_opa

SHIPPED = Path("engine") / "shipped"
PACK = "rule-pack.tar.gz"
TEST_SUFFIX = "_test.rego"


def copy_shipped_files(source: Path, target: Path) -> None:
    """Copy the files the engine reads at run time from the tree ``source`` into ``target``."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source / "rego", target / "rego")
    (target / "builtins").mkdir(parents=True)
    for declarations in sorted((source / "builtins").glob("*.json")):
        shutil.copy2(declarations, target / "builtins" / declarations.name)
    (target / "wasm").mkdir()
    shutil.copy2(source / "wasm" / "go.mod", target / "wasm" / "go.mod")


def pack_rule_files(source: Path) -> list[Path]:
    """The shipped pack's policy files below ``source``, relative to it, sorted."""
    rules = source / "rego" / "rules"
    return sorted(
        p.relative_to(source)
        for p in rules.rglob("*.rego")
        if p.is_file() and not p.name.endswith(TEST_SUFFIX)
    )


def build_pack(source: Path, output: Path, opa: Path | None = None) -> str | None:
    """Compile the shipped pack of ``source`` into ``output`` with ``rego-engine build``
    run from that tree (with the ``opa`` given, else the one it finds); returns why
    it could not be built, or None."""
    args = [sys.executable, "-m", "engine", "build", "-o", str(output.resolve())]
    for rule_file in pack_rule_files(source):
        args += ["-d", str(rule_file)]
    # pip's isolated build environment reaches its packages through PYTHONPATH: keep it.
    inherited = os.environ.get("PYTHONPATH")
    search = [str(source.resolve()), *([inherited] if inherited else [])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(search)}
    if opa is not None:
        env["REGO_ENGINE_OPA"] = str(opa.resolve())
    proc = subprocess.run(args, cwd=source, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        output.unlink(missing_ok=True)
        return (proc.stderr or proc.stdout).strip() or f"exit code {proc.returncode}"
    return None


class BuildPy(build_py):
    """``build_py`` that adds the shipped files, ``opa`` and the precompiled rule pack."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        source = Path.cwd()
        target = Path(self.build_lib) / SHIPPED
        copy_shipped_files(source, target)
        if bundled_opa.opted_out():
            problem = build_pack(source, target / PACK)
            if problem is not None:
                self.warn(
                    f"{bundled_opa.OPT_OUT} is set and the shipped rule pack was not "
                    f"precompiled; the installed engine compiles it with opa at scan time:\n"
                    f"{problem}"
                )
            return
        version = bundled_opa.pinned_version(source)
        try:
            opa = bundled_opa.bundle(bundled_opa.locate(source), version, target / "opa")
        except bundled_opa.BundleError as exc:
            raise SystemExit(f"error: {exc}") from None
        problem = build_pack(source, target / PACK, opa)
        if problem is not None:
            raise SystemExit(f"error: the shipped rule pack could not be compiled:\n{problem}")
