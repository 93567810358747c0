"""``rego-engine version``: the engine, the OPA compiler, wasmtime, the Wasm ABI."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated

import click
import orjson
import typer

from engine.core.engine_version import engine_version
from engine.rules.opa import OpaNotFound, find_opa, install_hint, pinned_version


@dataclass(frozen=True)
class VersionInfo:
    """What ``rego-engine version`` reports."""

    engine: str
    opa_version: str
    opa_path: str | None
    wasmtime: str
    abi: str | None

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` form."""
        return {
            "engine": self.engine,
            "opa": {"version": self.opa_version, "path": self.opa_path},
            "wasmtime": self.wasmtime,
            "abi": self.abi,
        }


def _abi_version() -> str | None:
    """The ABI version of modules the pinned compiler emits (a tiny cached
    module, read from its binary: no Wasm runtime is started)."""
    from pathlib import Path

    from engine.rules.compiler import compile_policy
    from engine.rules.sources import PolicySources, RegoFile
    from engine.wasm.module_abi import abi_version

    probe = RegoFile(Path("version.rego"), "version.rego", "package version\nx := 1\n", 1)
    try:
        policy = compile_policy(PolicySources(rego_files=[probe]), ["version/x"])
    except OpaNotFound:
        from engine.evaluation.bundle import bundle_abi
        from engine.evaluation.shipped_pack import precompiled_pack

        pack = precompiled_pack()
        return bundle_abi(pack) if pack is not None else None
    major, minor = abi_version(policy.wasm)
    return f"{major}.{minor}"


def version_info() -> VersionInfo:
    """Collect the versions (compiling a tiny module once to read the ABI)."""
    import importlib.metadata

    try:
        opa = find_opa()
        opa_version, opa_path = opa.version, str(opa.path)
    except OpaNotFound:
        opa_version, opa_path = pinned_version(), None
    return VersionInfo(
        engine=engine_version(),
        opa_version=opa_version,
        opa_path=opa_path,
        wasmtime=importlib.metadata.version("wasmtime"),
        abi=_abi_version(),
    )


def version_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the engine, OPA, wasmtime and Wasm ABI versions."""
    info = version_info()
    if as_json:
        sys.stdout.buffer.write(orjson.dumps(info.to_dict(), option=orjson.OPT_INDENT_2) + b"\n")
        return
    click.echo(f"rego-engine {info.engine}")
    click.echo(f"opa         {info.opa_version} ({info.opa_path or 'not found'})")
    click.echo(f"wasmtime    {info.wasmtime}")
    click.echo(f"wasm abi    {info.abi or 'unknown (no opa to compile a probe)'}")
    if info.opa_path is None:
        click.echo(f"Custom rules (-d) need opa. {install_hint()}", err=True)
