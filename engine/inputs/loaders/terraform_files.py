"""Reading one module directory into its configuration: the files Terraform
reads (not those it ignores), each parsed once per run, their blocks by kind,
override files merged last; a duplicate address or an invalid name is refused,
naming the block."""

from __future__ import annotations

import re
from pathlib import Path

from engine.inputs.loaders.hcl_parse_cache import parsed
from engine.inputs.loaders.loaded import LoaderError
from engine.inputs.loaders.terraform_blocks import (
    Block,
    ModuleConfig,
    absolute,
    display_in,
    is_configuration_file,
    written_at,
)
from engine.inputs.loaders.terraform_overrides import is_override_file, merge_override
from engine.inputs.loaders.terraform_parse import parse_file, read_text


def read_module(
    directory: Path, display: str, root: Path | None = None, named: frozenset[Path] = frozenset()
) -> ModuleConfig:
    """Parse every configuration file of one module directory (not subdirectories),
    each read only inside ``root`` unless it is one of the ``named`` files."""
    config = ModuleConfig(directory, display, [], [], [], {}, {}, {}, [], {}, root)
    trusted = {absolute(p) for p in named}
    overrides: list[Block] = []
    try:
        paths = sorted(p for p in directory.iterdir() if p.is_file() and is_configuration_file(p))
    except OSError as exc:
        raise LoaderError(f"{display}: cannot read the module directory ({exc.strerror})") from None
    for path in paths:
        file_display = display_in(display, path.name)
        config.files.append(file_display)
        text = read_text(path, file_display, None if absolute(path) in trusted else root)
        if path.name.endswith(".json"):
            config.json_files[file_display] = text.encode()
        blocks, suppressions = parsed(file_display, text, parse_file)
        config.suppressions += suppressions
        if is_override_file(path.name):
            overrides += blocks
            continue
        for block in blocks:
            _add_block(config, block)
    for block in overrides:  # after every other file, in name order, as Terraform
        merge_override(config, block)
    return config


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
"""A name Terraform accepts for a resource, data source or module call."""


def _refuse_block(config: ModuleConfig, block: Block, message: str) -> None:
    text = f"{written_at(block)}: {message}; not loaded"
    config.problems.append(LoaderError(text, block.line or None))


def _declared_once(config: ModuleConfig, block: Block) -> bool:
    """Whether ``block`` has a valid name not declared before in its module; an
    invalid name (``"x[0]"``) and a second declaration are refused as Terraform
    refuses the configuration, naming the block (and the first one)."""
    kind = "data source" if block.type == "data" else block.type
    address = ".".join(block.labels if block.type != "data" else ("data", *block.labels))
    name = block.labels[-1]
    if not _IDENTIFIER.fullmatch(name):
        _refuse_block(
            config,
            block,
            f"{kind} {address}: invalid name {name!r} (a name starts with a letter or "
            "underscore and holds only letters, digits, underscores and dashes)",
        )
        return False
    first = config.declared.setdefault((block.type, *block.labels), block)
    if first is not block:
        _refuse_block(
            config, block, f"{kind} {address} is declared twice (first at {written_at(first)})"
        )
        return False
    return True


def _add_block(config: ModuleConfig, block: Block) -> None:
    if block.type in ("resource", "data") and len(block.labels) == 2:
        if _declared_once(config, block):
            config.resources.append(block)
    elif block.type == "module" and len(block.labels) == 1:
        if _declared_once(config, block):
            config.modules.append(block)
    elif block.type == "variable" and len(block.labels) == 1:
        config.variables[block.labels[0]] = block
    elif block.type == "output" and len(block.labels) == 1:
        config.outputs[block.labels[0]] = block
    elif block.type == "provider" and len(block.labels) == 1:
        config.providers.append(block)
    elif block.type == "locals":
        config.locals.update(block.body.attributes)
    elif block.type == "terraform" and not block.labels:
        config.terraform.append(block)
