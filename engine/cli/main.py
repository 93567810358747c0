"""The ``rego-engine`` command line: a thin layer over the library API.

Each command lives in the module of its group; this module registers them on
the Typer application in the order ``--help`` lists them.
"""

from __future__ import annotations

import sys

import click
import typer

from engine.cli import diff, evaluate, relations, rules, scan, state, testing, version
from engine.cli.app import EXIT_ERROR, Command, Group, debug_enabled, typer_app
from engine.core.cancellation import Cancelled, handling_signals
from engine.core.internal_errors import internal_error

_COMMANDS = (
    ("eval", evaluate.eval_command, "Evaluate a data reference and print its value as JSON."),
    ("state", state.state_command, "Print the States loaded from inputs: what rules see."),
    ("scan", scan.scan_command, "Run rules over inputs and write the results."),
    ("build", rules.build_command, "Compile rules into a bundle that runs without opa."),
    ("rules", rules.rules_command, "List rules: id, title, severity, input types, relations."),
    ("relations", relations.relations_command, "List relations and their edges on inputs."),
    ("test", testing.test_command, "Run Rego tests and golden scan cases."),
    ("fixture", state.fixture_command, "Turn IaC files into a Rego test fixture."),
    ("diff", diff.diff_command, "Report and judge the changes between two inputs."),
    ("graph", relations.graph_command, "Draw resources and relation edges (DOT, Mermaid, JSON)."),
    ("version", version.version_command, "Print the engine, OPA, wasmtime and Wasm ABI versions."),
)
"""Each command: its name, its function and the line ``--help`` lists it with."""

app = typer.main.get_command(typer_app)
"""The application as a click group (what the console script and tests run)."""

for _name, _function, _short_help in _COMMANDS:
    typer_app.command(_name, short_help=_short_help, cls=Command)(_function)
assert isinstance(app, Group)
app.register(typer_app.registered_commands)  # each built when it runs

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point. An unexpected failure is one line on stderr
    (exit 2); ``--debug`` shows its traceback instead. SIGINT and SIGTERM
    cancel the command: one line on stderr, exit 130 or 143."""
    try:
        with handling_signals():
            app()
    except Cancelled as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:
        if debug_enabled():
            raise
        click.echo(f"error: {internal_error(exc)}", err=True)
        sys.exit(EXIT_ERROR)
