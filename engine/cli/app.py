"""The Typer application every command registers on, and what commands share:
the ``--debug`` flag, printing problems, failing with exit code 2."""

from __future__ import annotations

from typing import Annotated

import typer

from engine.core.engine_version import engine_version
from engine.core.terminal_text import printable

EXIT_ERROR = 2


app = typer.Typer(
    name="rego-engine",
    help="Run Rego policies over infrastructure resources, compiled to WebAssembly.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

_DEBUG = False


def debug_enabled() -> bool:
    """Whether ``--debug`` was given: errors then raise with their tracebacks."""
    return _DEBUG


def echo_problems(warnings: list[str], errors: list[str]) -> None:
    """Print warnings and errors to stderr, one per line."""
    for warning in warnings:
        typer.echo(f"warning: {printable(warning)}", err=True)
    for error in errors:
        typer.echo(f"error: {printable(error)}", err=True)


def fail(message: str) -> None:
    """Print ``message`` as an error and end the command with exit code 2."""
    typer.echo(f"error: {printable(message)}", err=True)
    raise typer.Exit(EXIT_ERROR)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"rego-engine {engine_version()}")
        raise typer.Exit()


@app.callback()
def _main(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the engine's version and exit (see also: version).",
            callback=_print_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    global _DEBUG  # the application's callback: no docstring, so --help shows the app's help
    _DEBUG = debug
