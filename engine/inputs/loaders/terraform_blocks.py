"""The Terraform configuration model: attributes, bodies and blocks as written,
and one module directory's top-level blocks by kind (:class:`ModuleConfig`)."""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from engine.inputs.loaders.hcl_expressions import (
    Expression,
    JsonExpression,
)
from engine.inputs.loaders.loaded import LoaderError
from engine.inputs.suppressions import InlineSuppression

RESOURCE_META_ARGUMENTS = frozenset({"count", "for_each", "provider", "depends_on"})
KEPT_META_ARGUMENTS = frozenset({"provider"})
"""Meta-arguments kept among a resource's attributes (as snyk's loader keeps them)."""
RESOURCE_META_BLOCKS = frozenset({"lifecycle", "provisioner", "connection"})
MODULE_META_ARGUMENTS = frozenset(
    {"source", "version", "count", "for_each", "providers", "depends_on"}
)


def is_configuration_file(path: Path) -> bool:
    """Whether ``path`` is a Terraform configuration file (``*.tf`` or ``*.tf.json``)
    that Terraform reads: not one it ignores (:func:`is_ignored_file`)."""
    return path.name.endswith((".tf", ".tf.json")) and not is_ignored_file(path.name)


def is_ignored_file(name: str) -> bool:
    """Whether Terraform's configuration loader skips a file of a module directory:
    a hidden file (``.a.tf``), an editor backup (``main.tf~``) or an Emacs autosave
    file (``#main.tf#``)."""
    autosave = name.startswith("#") and name.endswith("#")
    return name.startswith(".") or name.endswith("~") or autosave


@dataclass
class Attribute:
    """``name = expression``; line and column 0 when unknown (JSON syntax)."""

    name: str
    expression: Expression
    line: int = 0
    column: int = 0
    file: str = ""
    """The file it is written in when not its block's (merged from an override file)."""


@dataclass
class Body:
    """The arguments and nested blocks of a block."""

    attributes: dict[str, Attribute] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)
    json_syntax: bool = False
    """Written in JSON syntax (``*.tf.json``)."""


@dataclass
class Block:
    """``type "label"... { body }`` and where it is written."""

    type: str
    labels: tuple[str, ...]
    body: Body
    file: str
    line: int = 0
    column: int = 0


@dataclass
class ModuleConfig:
    """Every top-level block of one module directory, by kind."""

    directory: Path
    display: str
    files: list[str]
    resources: list[Block]
    modules: list[Block]
    variables: dict[str, Block]
    locals: dict[str, Attribute]
    outputs: dict[str, Block]
    providers: list[Block]
    json_files: dict[str, bytes]
    """Raw text of each JSON-syntax file, by display path (for source locations)."""
    root: Path | None = None
    """The directory its files were read inside (None: read as given)."""
    suppressions: list[InlineSuppression] = field(default_factory=list)
    """The inline suppression comments of its native-syntax files."""
    terraform: list[Block] = field(default_factory=list)
    """The ``terraform`` blocks (``required_providers``)."""
    problems: list[LoaderError] = field(default_factory=list)
    """Blocks left out, and why (a duplicate address, an invalid name)."""
    declared: dict[tuple[str, ...], Block] = field(default_factory=dict)
    """Resources, data sources and module calls by kind and labels."""


def display_in(directory_display: str, name: str) -> str:
    return posixpath.normpath(posixpath.join(directory_display, name))


def absolute(path: Path) -> str:
    return os.path.normpath(os.path.abspath(path))


def written_at(block: Block) -> str:
    return f"{block.file}:{block.line}" if block.line else block.file


def argument_expression(block: Block, name: str) -> Expression:
    found = block.body.attributes.get(name)
    return found.expression if found is not None else JsonExpression(None)
