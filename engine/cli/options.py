"""Options shared by the commands that load inputs or take rules."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.inputs.loaders.input_types import LOADER_INPUT_TYPES

if TYPE_CHECKING:
    from engine.inputs.discovery import LoadOptions

PATHS = click.Path(path_type=Path)
"""A path parameter (not checked for existence here: loading reports it)."""


def _none_when_empty(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A repeatable option given no times is None, as the commands expect."""
    return list(value) if value else None


def repeatable(*decls: str, label: str, help: str, type: Any = None, required: bool = False) -> Any:
    """An option that may be given several times: a list, or None when not given."""
    return click.option(
        *decls,
        multiple=True,
        type=type,
        metavar=label,
        help=help,
        required=required,
        callback=_none_when_empty,
    )


def value_option(
    *decls: str, label: str, help: str, type: Any = None, default: Any = None, **attrs: Any
) -> Any:
    """An option taking one value; ``--help`` shows its type (``label``) and its
    default when it has one."""
    return click.option(
        *decls,
        type=type,
        default=default,
        show_default=default is not None,
        metavar=label,
        help=help,
        **attrs,
    )


def input_type_option() -> Any:
    return click.option(
        "--input-type",
        metavar="<str>",
        help="Load only inputs of this type: " + ", ".join(LOADER_INPUT_TYPES) + ".",
    )


def skip_path_option() -> Any:
    return repeatable(
        "--skip-path",
        "skip_paths",
        label="<list[str]>",
        help="Skip walked files and directories matching GLOB (repeatable).",
    )


def var_file_option() -> Any:
    return repeatable(
        "--var-file",
        "var_files",
        type=PATHS,
        label="<list[Path]>",
        help="Terraform variables file for root modules (repeatable).",
    )


def var_option() -> Any:
    return repeatable(
        "--var",
        "variables",
        label="<list[str]>",
        help="Terraform variable NAME=VALUE (repeatable).",
    )


def max_file_size_option() -> Any:
    return click.option(
        "--max-file-size",
        type=float,
        default=256,
        show_default=True,
        metavar="<float>",
        help="Report files larger than this many MB.",
    )


def split_k8s_option() -> Any:
    return click.option(
        "--split-k8s", is_flag=True, help="One State per Kubernetes file, not per directory."
    )


def load_option_group(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options that say how inputs are loaded, in the order ``--help`` lists them."""
    for option in reversed(
        (
            input_type_option(),
            skip_path_option(),
            var_file_option(),
            var_option(),
            max_file_size_option(),
            split_k8s_option(),
        )
    ):
        function = option(function)
    return function


def load_options(
    input_type: str | None,
    skip_paths: list[str] | None,
    var_files: list[Path] | None,
    variables: list[str] | None,
    max_file_size: float,
    split_k8s: bool,
) -> LoadOptions:
    from engine.inputs.discovery import LoadOptions

    if input_type is not None and input_type not in LOADER_INPUT_TYPES:
        raise click.BadParameter(
            f"{input_type!r} is not one of {', '.join(LOADER_INPUT_TYPES)}",
            param_hint="--input-type",
        )
    check_bounds("--max-file-size", max_file_size)
    named: dict[str, str] = {}
    for assignment in variables or []:
        name, equals, value = assignment.partition("=")
        if not equals or not name:
            raise click.BadParameter(f"{assignment!r} is not NAME=VALUE", param_hint="--var")
        named[name] = value
    return LoadOptions(
        input_type=input_type,
        skip_paths=tuple(skip_paths or ()),
        max_file_mb=max_file_size,
        var_files=tuple(var_files or ()),
        variables=named,
        split_k8s=split_k8s,
    )


def one_rule_source(rules: list[Path] | None, bundle: Path | None) -> None:
    """Rules come from -d paths or a bundle, never both (a usage error)."""
    if bundle is not None and rules:
        raise click.BadParameter("give rules with -d or --bundle, not both", param_hint="--bundle")


def check_bounds(param_hint: str, *bounds: float) -> None:
    """Time and size bounds must be positive finite numbers: ``nan``, ``inf``, zero or
    a negative value is a usage error (exit 2) naming the options."""
    if not all(math.isfinite(bound) and bound > 0 for bound in bounds):
        raise click.BadParameter("bounds must be positive finite numbers", param_hint=param_hint)
