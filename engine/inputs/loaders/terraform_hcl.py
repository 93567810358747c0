"""Terraform configuration (``*.tf`` and ``*.tf.json``) → one State per root module:
the loader's entry, which builds the State from the stages the data flows through.

Files are parsed (:mod:`terraform_parse`, once per run: :mod:`hcl_parse_cache`)
into one configuration per module directory (:mod:`terraform_files`), which the
module tree instantiates (:mod:`terraform_modules`, root variables from
:mod:`terraform_variables`); resources are expanded into instances whose arguments
are evaluated (:mod:`terraform_instances`, :mod:`hcl_expressions`,
:mod:`hcl_functions`), and located (:mod:`terraform_source_map`).

Every resource and data source of the root module and of its child modules
(local sources, and remote ones found through ``.terraform/modules/modules.json``)
becomes a resource of the State, expanded by ``count`` and ``for_each``, with
its arguments evaluated (variables, locals, functions, references to other
resources and module outputs). What cannot be evaluated is null; a ``string``
variable with neither a value nor a default is its own name (``var.name``), as
snyk's loader gives it. A reference to a resource attribute that is not written
in configuration (or to anything below it) evaluates to the resource's address
(``aws_s3_bucket.b``), and is recorded. ``.tf.json`` objects and arrays stay as
written.

Files are read only inside the root they were found under
(:mod:`engine.core.confined_files`): the scanned directory, or for a module
source outside it, that module's directory. Modules nest at most
:data:`MAX_MODULE_DEPTH` deep; a call past it, a module cycle and a module
that sources its own directory are errors naming the ``module`` block, and
the rest of the configuration is still loaded.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.internal_errors import internal_error
from engine.inputs.loaders.evaluation_budget import (
    MAX_UNITS,
    BudgetExhausted,
    evaluation_budget,
)
from engine.inputs.loaders.loaded import (
    LoadedState,
    LoaderError,
    ResolvedReference,
    resource_entry,
    state_document,
)
from engine.inputs.loaders.terraform_blocks import is_configuration_file
from engine.inputs.loaders.terraform_instances import ResourceInstance, all_instances
from engine.inputs.loaders.terraform_modules import (
    MAX_MODULE_DEPTH,
    LoadRun,
    ModuleInstance,
    all_modules,
    read_manifest,
)
from engine.inputs.loaders.terraform_source_map import Placement, TerraformSourceMap
from engine.inputs.loaders.terraform_tags import resource_tags
from engine.inputs.loaders.terraform_variables import root_variable_values
from engine.inputs.suppressions import InlineSuppression

INPUT_TYPE = "tf_hcl"


def load_module(
    directory: Path,
    display: str,
    *,
    root: Path | None = None,
    named: frozenset[Path] = frozenset(),
    var_files: Sequence[Path] = (),
    variables: Mapping[str, str] = {},
) -> LoadedState:
    """The State of the root module in ``directory`` and every module it calls.

    Files are read only inside ``root`` (default: ``directory``), except the
    ``named`` files and ``var_files``, which the user gave.
    """
    try:
        with evaluation_budget() as budget, contextlib.suppress(BudgetExhausted):
            loaded = _load_module(
                directory, display, directory if root is None else root, named, var_files, variables
            )
        if budget.exhausted:
            raise LoaderError(
                "evaluating the configuration took more than "
                f"{MAX_UNITS:,} steps (a count, for_each or for expression, or a function "
                "result, too large?); not loaded"
            )
        return loaded
    except (LoaderError, MemoryError):
        raise
    except Exception as exc:  # a bug here is reported, and the other inputs still scanned
        raise LoaderError(f"{display}: {internal_error(exc)}") from exc


def _load_module(
    directory: Path,
    display: str,
    root: Path,
    named: frozenset[Path],
    var_files: Sequence[Path],
    variables: Mapping[str, str],
) -> LoadedState:
    run = LoadRun(directory, display, read_manifest(directory, display, root))
    config = run.config(directory, display, root, named)
    values = root_variable_values(config, var_files, variables, run.files_read)

    def root_inputs(name: str) -> Any:
        if name not in values:
            raise KeyError(name)
        return values[name]

    root_module = ModuleInstance(run, config, "", "", root_inputs, (), {})
    resources: dict[str, dict[str, dict[str, Any]]] = {}
    placements: dict[tuple[str, str], Placement] = {}
    references: set[ResolvedReference] = set()
    json_files: dict[str, bytes] = {}
    suppressions: set[InlineSuppression] = set()
    for module in all_modules(root_module):
        json_files.update(module.config.json_files)
        suppressions.update(module.config.suppressions)
        for instance in all_instances(module):
            resources.setdefault(instance.resource_type, {})[instance.key] = _entry(
                instance, display
            )
            block = instance.group.block
            placements[(instance.resource_type, instance.key)] = Placement(
                block, (block.type, *block.labels)
            )
            instance.record_dependencies()
            references.update(instance.references)
    document = state_document(
        INPUT_TYPE,
        {rtype: dict(sorted(by_key.items())) for rtype, by_key in sorted(resources.items())},
        filepath=display,
    )
    return LoadedState(
        document,
        TerraformSourceMap(placements, json_files),
        sorted(references, key=_reference_order),
        sorted(run.files_read),
        [run.errors[message] for message in sorted(run.errors)],
        sorted(suppressions),
        sorted(run.warnings),
    )


def _reference_order(reference: ResolvedReference) -> tuple[str, ...]:
    return (
        reference.source_type,
        reference.source_key,
        *(str(step) for step in reference.attribute),
        "\0",
        reference.target_type,
        reference.target_key,
        reference.target_attribute or "",
        reference.kind,
    )


def _entry(instance: ResourceInstance, namespace: str) -> dict[str, Any]:
    attributes = instance.attributes()
    module = instance.group.module
    block = instance.group.block
    provider = module.provider(block)
    meta: dict[str, Any] = {"filepath": block.file, "provider": provider.name}
    if isinstance(provider.region, str):
        meta["region"] = provider.region
    if instance.unknown_expansion is not None:
        meta["unknown_instances"] = instance.unknown_expansion
    terraform: dict[str, Any] = {}
    if provider.config is not None:
        terraform["provider_config"] = provider.config
    constraint = module.version_constraints.get(provider.name.split(".", 1)[0])
    if constraint is not None:
        terraform["provider_version_constraint"] = constraint
    if terraform:
        meta["terraform"] = terraform
    return resource_entry(
        instance.resource_type,
        instance.key,
        namespace,
        attributes,
        meta=meta,
        tags=resource_tags(instance.resource_type, attributes),
    )


__all__ = ["INPUT_TYPE", "MAX_MODULE_DEPTH", "is_configuration_file", "load_module"]
