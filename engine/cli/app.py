"""The click group every command registers on, and what commands share: the
``--debug`` flag, printing problems, failing with exit code 2, and how
parameters are shown in ``--help``.

The help pages show each parameter's type in angle brackets (``<str>``,
``<list[Path]>``) and list positional arguments under "Arguments", named
``{name}`` in the usage line when required and ``[name]`` when not.
"""

from __future__ import annotations

from typing import Any

import click

from engine.cli.completion import completion_options, run_completion
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


class Argument(click.Argument):
    """A positional argument with its type shown in ``--help`` (``label``)."""

    def __init__(self, param_decls: list[str], *, label: str, **attrs: Any) -> None:
        super().__init__(param_decls, **attrs)
        self.label = label

    def make_metavar(self, ctx: click.Context) -> str:
        name = f"{{{self.name}}}" if self.required else f"[{self.name}]"
        return f"{name}..." if self.nargs != 1 else name

    def get_error_hint(self, ctx: click.Context | None) -> str:
        return f"'{self.name}'"

    def get_help_record(self, ctx: click.Context) -> tuple[str, str]:
        name = f"{self.name}..." if self.nargs != 1 else str(self.name)
        help_text = self.help or ""
        if self.required:
            help_text = f"{help_text}  [required]" if help_text else "[required]"
        return f"{name} {self.label}", help_text


def _listed(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    return list(value) if value else None


def argument(name: str, *, label: str, help: str, **attrs: Any) -> Any:
    """A positional argument (``label``: its type as ``--help`` shows it); one
    taking any number of values gives a list, or None when it is given none."""
    if attrs.get("nargs") == -1:
        attrs.setdefault("callback", _listed)
    return click.argument(name, cls=Argument, label=label, help=help, **attrs)


class Command(click.Command):
    """A command whose help lists its positional arguments under "Arguments"."""

    def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [p.get_help_record(ctx) for p in self.get_params(ctx) if isinstance(p, Argument)]
        if rows:
            with formatter.section("Arguments"):
                formatter.write_dl(rows)


class Group(click.Group):
    """The application: commands listed in the order they were added; the
    shell-completion protocol answered before anything else runs."""

    command_class = Command

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)

    def _main_shell_completion(
        self, ctx_args: Any, prog_name: str, complete_var: str | None = None
    ) -> None:
        run_completion(self, ctx_args, prog_name)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from engine.core.engine_version import engine_version

        click.echo(f"rego-engine {engine_version()}")
        ctx.exit()


def _set_debug(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    global _DEBUG
    _DEBUG = value
    return value


@click.group(
    cls=Group,
    name="rego-engine",
    help="Run Rego policies over infrastructure resources, compiled to WebAssembly.",
    no_args_is_help=True,
)
@click.option(
    "--debug",
    is_flag=True,
    help="Show tracebacks on errors.",
    callback=_set_debug,
    expose_value=False,
)
@click.option(
    "--version",
    is_flag=True,
    help="Print the engine's version and exit (see also: version).",
    callback=_print_version,
    is_eager=True,
    expose_value=False,
)
@completion_options
def app() -> None:
    pass  # the application's callback: no docstring, so --help shows the app's help
