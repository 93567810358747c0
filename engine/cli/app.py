"""The Typer application every command registers on, and what commands share:
the ``--debug`` flag, printing problems, failing with exit code 2, and how
parameters are shown in ``--help``.

The help pages show each parameter's type in angle brackets (``<str>``,
``<list[Path]>``, the ``metavar`` of its option type) and list positional
arguments under "Arguments", named ``{name}`` in the usage line when
required and ``[name]`` when not. Help is rendered as plain text (no Rich):
it costs no start-up time and reads the same in every terminal.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import click
import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup
from typer.main import get_command_from_info
from typer.models import ArgumentInfo, CommandInfo

from engine.cli.completion import install_completion, run_completion, show_completion
from engine.core.terminal_text import printable

EXIT_ERROR = 2

_DEBUG = False


def debug_enabled() -> bool:
    """Whether ``--debug`` was given: errors then raise with their tracebacks."""
    return _DEBUG


def echo_problems(warnings: list[str], errors: list[str]) -> None:
    """Print warnings and errors to stderr, one per line."""
    for warning in warnings:
        click.echo(f"warning: {printable(warning)}", err=True)
    for error in errors:
        click.echo(f"error: {printable(error)}", err=True)


def fail(message: str) -> None:
    """Print ``message`` as an error and end the command with exit code 2."""
    click.echo(f"error: {printable(message)}", err=True)
    raise click.exceptions.Exit(EXIT_ERROR)


class Argument(TyperArgument):
    """A positional argument named by its name in usage lines and errors; its
    type (``metavar``) is shown beside it under "Arguments"."""

    def make_metavar(self, ctx: click.Context | None = None) -> str:
        name = f"{{{self.name}}}" if self.required else f"[{self.name}]"
        return f"{name}..." if self.nargs != 1 else name

    def get_error_hint(self, ctx: click.Context | None) -> str:
        return f"'{self.name}'"

    def get_help_record(self, ctx: click.Context) -> tuple[str, str]:
        name = f"{self.name}..." if self.nargs != 1 else str(self.name)
        help_text = self.help or ""
        if self.required:
            help_text = f"{help_text}  [required]" if help_text else "[required]"
        return f"{name} {self.metavar}", help_text


class Command(TyperCommand):
    """A command whose positional arguments are shown as :class:`Argument` does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        helps = _argument_helps(self.callback)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = Argument  # Typer builds its own; only the rendering differs
                # click's Argument sets its own help (None) after Typer's: give it back
                param.help = helps.get(str(param.name))

    def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Nothing: the arguments are listed under "Arguments" with the options."""


def _argument_helps(callback: Any) -> dict[str, str]:
    """The help of each positional argument of a command function, by name."""
    if callback is None:
        return {}
    helps = {}
    for name, parameter in inspect.signature(callback).parameters.items():
        for info in getattr(parameter.annotation, "__metadata__", ()):
            if isinstance(info, ArgumentInfo) and info.help:
                helps[name] = info.help
    return helps


class Group(TyperGroup):
    """The application: commands listed in the order they were registered, each
    built from its Typer registration only when it runs (or its help or its
    completion is asked for), so a run pays for one command's parameters; the
    shell-completion protocol answered before anything else runs."""

    registered: dict[str, CommandInfo]
    """Commands by name, as registered on the Typer application, not yet built."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.registered = {}

    def register(self, infos: list[CommandInfo]) -> None:
        """Add Typer-registered commands, to be built when first asked for."""
        for info in infos:
            self.registered[str(info.name)] = info

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.registered, *(n for n in self.commands if n not in self.registered)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.registered:
            self.commands[cmd_name] = get_command_from_info(
                self.registered[cmd_name], pretty_exceptions_short=True, rich_markup_mode=None
            )
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The "Commands" section: each command's short help, none of them built."""
        rows = [(name, info.short_help or "") for name, info in self.registered.items()]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def _main_shell_completion(
        self, ctx_args: Any, prog_name: str, complete_var: str | None = None
    ) -> None:
        run_completion(self, ctx_args, prog_name)


def _print_version(value: bool) -> None:
    if value:
        from engine.core.engine_version import engine_version

        click.echo(f"rego-engine {engine_version()}")
        raise typer.Exit()


def _set_debug(value: bool) -> bool:
    global _DEBUG
    _DEBUG = value
    return value


typer_app = typer.Typer(
    cls=Group,
    name="rego-engine",
    help="Run Rego policies over infrastructure resources, compiled to WebAssembly.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
"""The application; :mod:`engine.cli.main` registers the commands on it."""


@typer_app.callback()
def application(
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="Show tracebacks on errors.", callback=_set_debug, expose_value=False
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the engine's version and exit (see also: version).",
            callback=_print_version,
            is_eager=True,
            expose_value=False,
        ),
    ] = False,
    install: Annotated[
        bool,
        typer.Option(
            "--install-completion",
            help="Install completion for the current shell.",
            callback=install_completion,
            is_eager=True,
            expose_value=False,
        ),
    ] = False,
    show: Annotated[
        bool,
        typer.Option(
            "--show-completion",
            help="Show completion for the current shell, to copy it or customize the installation.",
            callback=show_completion,
            is_eager=True,
            expose_value=False,
        ),
    ] = False,
) -> None:
    pass  # the application's callback: no docstring, so --help shows the app's help
