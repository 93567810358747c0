"""``rego-engine eval``: a data reference evaluated over policies and data."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engine.cli.app import argument, debug_enabled, fail
from engine.cli.options import PATHS, check_bounds, repeatable


@argument("ref", label="<str>", help="The data reference to evaluate, e.g. data.pkg.rule.")
@repeatable(
    "-d",
    "--data",
    "data",
    type=PATHS,
    label="<list[Path]>",
    help="Policy or data file or directory (repeatable).",
    required=True,
)
@click.option(
    "-i",
    "--input",
    "input_path",
    type=PATHS,
    metavar="<path>",
    help="Input document (JSON or YAML).",
)
@click.option(
    "--timeout",
    type=float,
    default=30.0,
    show_default=True,
    metavar="<float>",
    help="Seconds the evaluation may take.",
)
@click.option(
    "--max-memory",
    type=int,
    default=2048,
    show_default=True,
    metavar="<int>",
    help="MiB of Wasm memory the evaluation may use.",
)
def eval_command(
    ref: str,
    data: list[Path],
    input_path: Path | None,
    timeout: float,
    max_memory: int,
) -> None:
    """Evaluate REF and print its value as JSON (nothing when it is undefined)."""
    from engine.evaluation.data_reference import eval_ref, read_input
    from engine.rules.compiler import CompileError
    from engine.rules.opa import OpaNotFound
    from engine.rules.sources import SourceError
    from engine.wasm import values
    from engine.wasm.host import EvalError, Limits

    check_bounds("--timeout/--max-memory", timeout, max_memory)
    try:
        input_json = read_input(input_path) if input_path is not None else None
        result = eval_ref(
            data,
            ref,
            input_json=input_json,
            # The value asked for is the output: bounded only by the Wasm memory.
            limits=Limits(timeout, max_memory, max_memory, timeout_option="--timeout"),
        )
    except (SourceError, CompileError, EvalError, OpaNotFound, ValueError) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    if result.defined:
        try:
            text = values.dumps_json(result.value, indent=True)
        except ValueError as exc:  # a value nested too deep to write
            fail(f"{ref}: {exc}")
            return
        sys.stdout.buffer.write(text + b"\n")
