"""The ``rego-engine`` command line: a thin layer over the library API.

Each command lives in the module of its group; this module registers them on
the application in the order ``--help`` lists them.
"""

from __future__ import annotations

import sys

import typer

from engine.cli import diff, evaluate, relations, rules, scan, state, testing, version
from engine.cli.app import EXIT_ERROR, app, debug_enabled
from engine.core.cancellation import Cancelled, handling_signals
from engine.core.internal_errors import internal_error

app.command("eval")(evaluate.eval_command)
app.command("state")(state.state_command)
app.command("scan")(scan.scan_command)
app.command("build")(rules.build_command)
app.command("rules")(rules.rules_command)
app.command("relations")(relations.relations_command)
app.command("test")(testing.test_command)
app.command("fixture")(state.fixture_command)
app.command("diff")(diff.diff_command)
app.command("graph")(relations.graph_command)
app.command("version")(version.version_command)

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point. An unexpected failure is one line on stderr
    (exit 2); ``--debug`` shows its traceback instead. SIGINT and SIGTERM
    cancel the command: one line on stderr, exit 130 or 143."""
    try:
        with handling_signals():
            app()
    except Cancelled as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:
        if debug_enabled():
            raise
        typer.echo(f"error: {internal_error(exc)}", err=True)
        sys.exit(EXIT_ERROR)
