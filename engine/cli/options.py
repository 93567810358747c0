"""The option and argument types commands share, each declared once as an
``Annotated`` type, and the validators they use.

A command's parameters are the fields of its settings class
(:mod:`engine.cli.settings`), each annotated with one of these types, e.g.
``skip_paths: SkipPaths = None``. Options whose help differs per command (the
``-d`` paths, ``--format``, bounds) are made by the functions below and used
in a field's ``Annotated`` type.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import click
import typer

from engine.inputs.loaders.input_types import LOADER_INPUT_TYPES
from engine.results.report import SEVERITY_LEVELS as SEVERITY_LEVELS
from engine.scanning.config import FAIL_ON_CHOICES as FAIL_ON_CHOICES


def option(*decls: str, label: str | None = None, help: str, **attrs: Any) -> Any:
    """An option named ``decls``; ``--help`` shows its type (``label``) and, when
    ``show_default`` is given, its default."""
    attrs.setdefault("show_default", False)
    return typer.Option(*decls, metavar=label, help=help, **attrs)


def argument(*, label: str, help: str, **attrs: Any) -> Any:
    """A positional argument; ``--help`` shows its type (``label``)."""
    return typer.Argument(metavar=label, help=help, show_default=False, **attrs)


# Validators, each for any set of choices


def choice_of(choices: Sequence[str], *, message: str = "{value!r} is not one of {choices}") -> Any:
    """A callback accepting one of ``choices`` (any case; given lower-cased) or
    None; anything else is a usage error worded by ``message``."""

    def validate(value: str | None) -> str | None:
        if value is None:
            return None
        if value.lower() not in choices:
            raise click.BadParameter(message.format(value=value, choices=", ".join(choices)))
        return value.lower()

    return validate


def completing(choices: Sequence[str]) -> Callable[[str], list[str]]:
    """Shell completion of a choice option (its ``autocompletion``): the choices
    that start with what is typed."""

    def complete(incomplete: str) -> list[str]:
        return [c for c in choices if c.startswith(incomplete.lower())]

    return complete


def check_bounds(param_hint: str, *bounds: float) -> None:
    """Time and size bounds must be positive finite numbers: ``nan``, ``inf``, zero or
    a negative value is a usage error (exit 2) naming the options."""
    if not all(math.isfinite(bound) and bound > 0 for bound in bounds):
        raise click.BadParameter("bounds must be positive finite numbers", param_hint=param_hint)


def one_rule_source(rules: list[Path] | None, bundle: Path | None) -> None:
    """Rules come from -d paths or a bundle, never both (a usage error)."""
    if bundle is not None and rules:
        raise click.BadParameter("give rules with -d or --bundle, not both", param_hint="--bundle")


# Options made per command: the same option, a different help line. A field
# takes one in its ``Annotated`` type: ``Annotated[int, memory_option("...")]``.


def input_paths(help: str) -> Any:
    """The input paths a command takes as arguments (``list[Path]``; ``| None``
    and a default of None when they may be left out)."""
    return argument(label="<list[Path]>", help=help)


def data_option(help: str) -> Any:
    """``-d``/``--data``: rule, policy or data files and directories (repeatable;
    ``list[Path]``)."""
    return option("-d", "--data", label="<list[Path]>", help=help)


def format_option(*choices: str) -> Any:
    """``--format``/``-f``: one of ``choices`` (``str``)."""
    return option(
        "--format",
        "-f",
        label="<str>",
        help=f"{', '.join(choices[:-1])} or {choices[-1]}.",
        show_default=True,
        callback=choice_of(
            choices, message="unknown format {value!r} (" + ", ".join(choices) + ")"
        ),
    )


def seconds_option(help: str, *names: str) -> Any:
    """A time bound in seconds (``float``; ``--timeout`` unless ``names`` are given)."""
    return option(*(names or ("--timeout",)), label="<float>", help=help, show_default=True)


def memory_option(help: str) -> Any:
    """``--max-memory``: MiB of Wasm memory (``int``)."""
    return option("--max-memory", label="<int>", help=help, show_default=True)


def output_option(help: str) -> Any:
    """``-o``/``--output``: the file to write (``Path | None``)."""
    return option("-o", "--output", label="<path>", help=help)


def bundle_option(help: str) -> Any:
    """``--bundle``: a bundle made by ``rego-engine build`` (``Path | None``)."""
    return option("--bundle", label="<path>", help=help)


# How inputs are loaded: the same in every command that loads them

InputType = Annotated[
    str | None,
    option(
        "--input-type",
        label="<str>",
        help="Load only inputs of this type: " + ", ".join(LOADER_INPUT_TYPES) + ".",
        callback=choice_of(LOADER_INPUT_TYPES),
    ),
]
SkipPaths = Annotated[
    list[str] | None,
    option(
        "--skip-path",
        label="<list[str]>",
        help="Skip walked files and directories matching GLOB (repeatable).",
    ),
]
VarFiles = Annotated[
    list[Path] | None,
    option(
        "--var-file",
        label="<list[Path]>",
        help="Terraform variables file for root modules (repeatable).",
    ),
]
Variables = Annotated[
    list[str] | None,
    option("--var", label="<list[str]>", help="Terraform variable NAME=VALUE (repeatable)."),
]
MaxFileSize = Annotated[
    float,
    option(
        "--max-file-size",
        label="<float>",
        help="Report files larger than this many MB.",
        show_default=True,
    ),
]
LoadTimeout = Annotated[
    float,
    option(
        "--load-timeout",
        label="<float>",
        help="Seconds evaluating one input (Terraform, ARM, CloudFormation) may take.",
        show_default=True,
    ),
]
SplitK8s = Annotated[
    bool, option("--split-k8s", help="One State per Kubernetes file, not per directory.")
]
