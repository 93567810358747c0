"""The root module's variable values: ``terraform.tfvars``, ``*.auto.tfvars``,
``--var-file`` and ``--var``, in Terraform's order of precedence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lark import Tree

from engine.inputs.loaders.documents import parse_json
from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    JsonExpression,
    evaluate,
    evaluate_or_null,
    identifier_name,
    materialize,
    parse_expression,
)
from engine.inputs.loaders.loaded import LoaderError
from engine.inputs.loaders.terraform_blocks import Block, ModuleConfig, display_in
from engine.inputs.loaders.terraform_parse import parse_native, read_text


def _no_names(name: str) -> Any:
    raise EvaluationError(f"unknown name {name!r}")


LITERAL_CONTEXT = Context(resolve=_no_names)


def _tfvars(path: Path, display: str, root: Path | None) -> dict[str, Any]:
    raw = read_text(path, display, root)
    if path.name.endswith(".json"):
        try:
            document = parse_json(raw.encode())
        except LoaderError as exc:
            raise LoaderError(f"{display}: {exc.message}", exc.line) from None
        return dict(document) if isinstance(document, dict) else {}
    body = parse_native(raw, display)
    return {
        name: evaluate_or_null(attr.expression, LITERAL_CONTEXT)
        for name, attr in body.attributes.items()
    }


def _command_line_value(text: str, declared: Block | None) -> Any:
    """A ``-var`` value: an HCL literal when it reads as one (unless declared a string)."""
    if declared is not None and "type" in declared.body.attributes:
        type_expression = declared.body.attributes["type"].expression
        if isinstance(type_expression, Tree) and identifier_name(type_expression) == "string":
            return text
    try:
        return materialize(evaluate(parse_expression(text), LITERAL_CONTEXT))
    except EvaluationError:
        return text


def root_variable_values(
    config: ModuleConfig,
    var_files: Sequence[Path],
    variables: Mapping[str, str],
    files_read: set[str],
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    directory = config.directory
    automatic = [directory / "terraform.tfvars", directory / "terraform.tfvars.json"]
    automatic += sorted(
        p
        for p in directory.iterdir()
        if p.is_file() and p.name.endswith((".auto.tfvars", ".auto.tfvars.json"))
    )
    for path in automatic:
        if path.is_file():
            display = display_in(config.display, path.name)
            files_read.add(display)
            values.update(_tfvars(path, display, config.root))
    for path in var_files:  # named by the user: read as given
        files_read.add(str(path))
        values.update(_tfvars(path, str(path), None))
    for name, text in variables.items():
        values[name] = _command_line_value(text, config.variables.get(name))
    return values


def declared_type(declared: Block) -> str:
    """The ``type`` of a ``variable`` block when it is one name (``string``), else ``""``."""
    written = declared.body.attributes.get("type")
    if written is None:
        return ""
    if isinstance(written.expression, JsonExpression):
        return str(written.expression.value).strip("${}")
    return identifier_name(written.expression) or ""
