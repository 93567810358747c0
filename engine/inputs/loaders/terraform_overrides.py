"""Override files merged into a module's configuration as Terraform's configuration
loader merges them.

A file named ``override.tf`` or ``*_override.tf`` (or their ``.tf.json`` forms) is
read after the module's other files, in name order, and each of its blocks changes
the block of the same kind and labels:

- an argument replaces the argument of the same name;
- nested blocks of one type (``dynamic`` blocks of that type included) replace
  every nested block of that type, except ``lifecycle``, merged argument by argument;
- a ``locals`` value replaces the local value of the same name;
- a ``terraform`` block is added to the others.

A block that overrides nothing (no ``resource``, ``data``, ``module``, ``variable``,
``output``, ``provider`` or local value to merge into) is an error naming it, as
Terraform refuses it.
"""

from __future__ import annotations

from dataclasses import replace

from engine.inputs.loaders.hcl_expressions import evaluate_or_null
from engine.inputs.loaders.loaded import LoaderError
from engine.inputs.loaders.terraform_blocks import Attribute, Block, Body, ModuleConfig, written_at
from engine.inputs.loaders.terraform_variables import LITERAL_CONTEXT

_MERGED_NESTED = frozenset({"lifecycle"})
"""Nested blocks merged argument by argument instead of replaced."""


def is_override_file(name: str) -> bool:
    """Whether a configuration file is an override file (``override.tf``,
    ``main_override.tf``, ``override.tf.json``...)."""
    stem = name.removesuffix(".json").removesuffix(".tf")
    return stem == "override" or stem.endswith("_override")


def merge_override(config: ModuleConfig, block: Block) -> None:
    """Merge one top-level block of an override file into ``config``."""
    if block.type == "locals":
        _merge_locals(config, block)
    elif block.type == "terraform":
        config.terraform.append(block)
    elif block.type in ("resource", "data", "module") and block.labels:
        base = config.declared.get((block.type, *block.labels))
        if base is None:
            _missing_base(config, block)
            return
        merged = _merged(base, block)
        config.declared[(block.type, *block.labels)] = merged
        kept = config.resources if block.type != "module" else config.modules
        kept[kept.index(base)] = merged
    elif block.type in ("variable", "output") and len(block.labels) == 1:
        found = config.variables if block.type == "variable" else config.outputs
        name = block.labels[0]
        if name not in found:
            _missing_base(config, block)
            return
        found[name] = _merged(found[name], block)
    elif block.type == "provider" and len(block.labels) == 1:
        _merge_provider(config, block)


def _merged(base: Block, override: Block) -> Block:
    """``base`` with ``override``'s arguments and nested blocks, where ``base`` is written."""
    return replace(base, body=_merged_body(base.body, override.body, override.file))


def _merged_body(base: Body, override: Body, file: str) -> Body:
    attributes = dict(base.attributes)
    for name, attribute in override.attributes.items():
        attributes[name] = _written_in(attribute, file)
    replaced = {_block_type(b) for b in override.blocks} - _MERGED_NESTED
    blocks = [b for b in base.blocks if _block_type(b) not in replaced]
    for nested in override.blocks:
        if nested.type in _MERGED_NESTED:
            position = next((i for i, b in enumerate(blocks) if b.type == nested.type), None)
            if position is not None:
                blocks[position] = _merged(blocks[position], nested)
                continue
        blocks.append(nested)
    return Body(attributes, blocks, base.json_syntax)


def _written_in(attribute: Attribute, file: str) -> Attribute:
    return replace(attribute, file=file) if attribute.line else attribute


def _block_type(block: Block) -> str:
    """The type of the blocks a nested block makes (a ``dynamic`` block's label)."""
    if block.type == "dynamic" and block.labels:
        return block.labels[0]
    return block.type


def _merge_locals(config: ModuleConfig, block: Block) -> None:
    for name, attribute in block.body.attributes.items():
        if name not in config.locals:
            _missing_base(config, replace(block, labels=(name,), line=attribute.line or block.line))
            continue
        config.locals[name] = _written_in(attribute, block.file)


def _provider_key(block: Block) -> tuple[str, str]:
    alias = block.body.attributes.get("alias")
    return block.labels[0], _literal_text(alias) if alias is not None else ""


def _literal_text(attribute: Attribute) -> str:
    """The text of a native-syntax string literal (an ``alias``), else ``""``."""
    value = evaluate_or_null(attribute.expression, LITERAL_CONTEXT)
    return value if isinstance(value, str) else ""


def _merge_provider(config: ModuleConfig, block: Block) -> None:
    key = _provider_key(block)
    for position, base in enumerate(config.providers):
        if _provider_key(base) == key:
            config.providers[position] = _merged(base, block)
            return
    _missing_base(config, block)


def _missing_base(config: ModuleConfig, block: Block) -> None:
    kind = "data source" if block.type == "data" else block.type
    name = ".".join(block.labels)
    text = (
        f"{written_at(block)}: override of {kind} {name!r} has no declaration to override "
        "(an override file only changes blocks of the module's other files); not loaded"
    )
    config.problems.append(LoaderError(text, block.line or None))
