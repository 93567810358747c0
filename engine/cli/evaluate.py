"""``rego-engine eval``: a data reference evaluated over policies and data."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from engine.cli.app import debug_enabled, fail
from engine.cli.options import (
    argument,
    check_bounds,
    data_option,
    memory_option,
    option,
    seconds_option,
)
from engine.cli.settings import command, settings


@settings
class EvalSettings:
    ref: Annotated[
        str, argument(label="<str>", help="The data reference to evaluate, e.g. data.pkg.rule.")
    ]
    data: Annotated[list[Path], data_option("Policy or data file or directory (repeatable).")]
    input_path: Annotated[
        Path | None,
        option("-i", "--input", label="<path>", help="Input document (JSON or YAML)."),
    ] = None
    timeout: Annotated[float, seconds_option("Seconds the evaluation may take.")] = 30.0
    max_memory: Annotated[int, memory_option("MiB of Wasm memory the evaluation may use.")] = 2048


@command(EvalSettings)
def eval_command(settings: EvalSettings) -> None:
    """Evaluate REF and print its value as JSON (nothing when it is undefined)."""
    from engine.evaluation.data_reference import eval_ref, read_input
    from engine.rules.compiler import CompileError
    from engine.rules.opa import OpaNotFound
    from engine.rules.sources import SourceError
    from engine.wasm import values
    from engine.wasm.host import EvalError, Limits

    timeout, max_memory, ref = settings.timeout, settings.max_memory, settings.ref
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    try:
        input_json = read_input(settings.input_path) if settings.input_path is not None else None
        result = eval_ref(
            settings.data,
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
