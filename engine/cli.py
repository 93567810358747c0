"""The ``rego-engine`` command line: a thin layer over the library API."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import orjson
import typer

from engine import values
from engine.compiler import CompileError
from engine.evaluation import eval_ref, read_input
from engine.opa import OpaNotFound
from engine.sources import SourceError
from engine.version import version_info
from engine.wasm_host import EvalError, Limits

EXIT_ERROR = 2

app = typer.Typer(
    name="rego-engine",
    help="Run Rego policies over infrastructure resources, compiled to WebAssembly.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_DEBUG = False


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_ERROR)


@app.callback()
def _main(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
) -> None:
    global _DEBUG
    _DEBUG = debug


@app.command("eval")
def eval_command(
    ref: Annotated[str, typer.Argument(help="The data reference to evaluate, e.g. data.pkg.rule.")],
    data: Annotated[
        list[Path],
        typer.Option("-d", "--data", help="Policy or data file or directory (repeatable)."),
    ],
    input_path: Annotated[
        Path | None, typer.Option("-i", "--input", help="Input document (JSON or YAML).")
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds the evaluation may take.")
    ] = 30.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", help="MiB of Wasm memory the evaluation may use.")
    ] = 2048,
) -> None:
    """Evaluate REF and print its value as JSON (nothing when it is undefined)."""
    try:
        input_json = read_input(input_path) if input_path is not None else None
        result = eval_ref(
            data,
            ref,
            input_json=input_json,
            limits=Limits(timeout_seconds=timeout, max_memory_mb=max_memory),
        )
    except (SourceError, CompileError, EvalError, OpaNotFound, ValueError) as exc:
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    if result.defined:
        sys.stdout.buffer.write(values.dumps_json(result.value, indent=True) + b"\n")


@app.command("version")
def version_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the engine, OPA, wasmtime and Wasm ABI versions."""
    info = version_info()
    if as_json:
        sys.stdout.buffer.write(orjson.dumps(info.to_dict(), option=orjson.OPT_INDENT_2) + b"\n")
        return
    typer.echo(f"rego-engine {info.engine}")
    typer.echo(f"opa         {info.opa_version} ({info.opa_path or 'not found: run make opa'})")
    typer.echo(f"wasmtime    {info.wasmtime}")
    typer.echo(f"wasm abi    {info.abi or 'unknown (no opa to compile a probe)'}")


def main() -> None:
    """Console-script entry point."""
    app()
