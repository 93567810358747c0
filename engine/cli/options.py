"""Options shared by the commands that load inputs or take rules."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from engine.inputs.loaders.input_types import LOADER_INPUT_TYPES

if TYPE_CHECKING:
    from engine.inputs.discovery import LoadOptions

InputTypeOption = Annotated[
    str | None,
    typer.Option(
        "--input-type",
        help="Load only inputs of this type: " + ", ".join(LOADER_INPUT_TYPES) + ".",
    ),
]


SkipPathOption = Annotated[
    list[str] | None,
    typer.Option(
        "--skip-path", help="Skip walked files and directories matching GLOB (repeatable)."
    ),
]


VarFileOption = Annotated[
    list[Path] | None,
    typer.Option("--var-file", help="Terraform variables file for root modules (repeatable)."),
]


VarOption = Annotated[
    list[str] | None,
    typer.Option("--var", help="Terraform variable NAME=VALUE (repeatable)."),
]


MaxFileSizeOption = Annotated[
    float, typer.Option("--max-file-size", help="Report files larger than this many MB.")
]


SplitK8sOption = Annotated[
    bool,
    typer.Option("--split-k8s", help="One State per Kubernetes file, not per directory."),
]


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
        raise typer.BadParameter(
            f"{input_type!r} is not one of {', '.join(LOADER_INPUT_TYPES)}",
            param_hint="--input-type",
        )
    check_bounds("--max-file-size", max_file_size)
    named: dict[str, str] = {}
    for assignment in variables or []:
        name, equals, value = assignment.partition("=")
        if not equals or not name:
            raise typer.BadParameter(f"{assignment!r} is not NAME=VALUE", param_hint="--var")
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
        raise typer.BadParameter("give rules with -d or --bundle, not both", param_hint="--bundle")


def check_bounds(param_hint: str, *bounds: float) -> None:
    """Time and size bounds must be positive finite numbers: ``nan``, ``inf``, zero or
    a negative value is a usage error (exit 2) naming the options."""
    if not all(math.isfinite(bound) and bound > 0 for bound in bounds):
        raise typer.BadParameter("bounds must be positive finite numbers", param_hint=param_hint)
