"""Terraform state → a State: ``terraform show -json`` of a state, or a raw
``terraform.tfstate`` (version 4).

Every resource and data source of the root module and of its child modules
becomes a resource keyed by its full address (``module.a.aws_s3_bucket.b[0]``);
data sources have the type ``data.<type>``. Attributes are the recorded
values; ``tags`` is the ``tags`` attribute when it is an object of strings.
Each resource's meta holds its ``provider`` configuration key and, as snyk's
loader writes it, ``tfstate.name``: the name in its block (``b``).
"""

from __future__ import annotations

import re
from typing import Any

from engine.inputs.loaders.loaded import LoadedState, LoaderError, state_document
from engine.inputs.loaders.terraform_values import (
    ResourceTable,
    check_format_version,
    index_suffix,
    kind,
    module_resources,
    plain_copy,
    provider_short_name,
    require_list,
    require_object,
    require_string,
    state_type,
)

INPUT_TYPE = "tf_state"

RAW_STATE_VERSION = 4

_PROVIDER_ADDRESS = re.compile(r'(?:.*\.)?provider\["([^"]+)"\](?:\.([A-Za-z_][\w-]*))?$')
"""``module.a.provider["registry.terraform.io/hashicorp/aws"].west``."""


def _is_raw_state(doc: dict[str, Any]) -> bool:
    resources = doc.get("resources")
    if not isinstance(doc.get("version"), int) or isinstance(doc.get("version"), bool):
        return False
    if isinstance(doc.get("lineage"), str) and "serial" in doc:
        return True
    return (
        doc.get("version") == RAW_STATE_VERSION
        and isinstance(resources, list)
        and any(isinstance(r, dict) and "instances" in r for r in resources)
    )


def recognises(doc: Any) -> bool:
    """Whether ``doc`` is ``terraform show -json`` of a state, or a raw tfstate file."""
    if not isinstance(doc, dict) or "planned_values" in doc:
        return False
    values = doc.get("values")
    if isinstance(values, dict) and "root_module" in values:
        return True
    return _is_raw_state(doc)


def load(doc: Any, raw: bytes, path: str) -> LoadedState:
    """The State of one Terraform state file; ``path`` is its display path."""
    try:
        return _load(doc, raw, path)
    except RecursionError:
        raise LoaderError("the state is nested too deeply") from None


def _load(doc: Any, raw: bytes, path: str) -> LoadedState:
    doc = require_object(doc, "a Terraform state")
    table = ResourceTable(path)
    if "values" in doc:
        check_format_version(doc, "state")
        _load_shown(doc, table)
        attributes_at = "values"
    elif "version" in doc:
        _load_raw(doc, table)
        attributes_at = "attributes"
    else:
        raise LoaderError('a Terraform state needs "values" or "version" and "resources"')
    version = doc.get("terraform_version")
    meta = {"terraform_version": version if isinstance(version, str) else None}
    document = state_document(INPUT_TYPE, table.resources, filepath=path, meta=meta)
    return LoadedState(
        document, table.source_map(path, raw, attributes_at), [], source_files=[path]
    )


def _load_shown(doc: dict[str, Any], table: ResourceTable) -> None:
    values = require_object(doc["values"], "values")
    if "root_module" not in values:
        raise LoaderError("values has no root_module")
    for resource in module_resources(values["root_module"], ("values", "root_module")):
        meta: dict[str, Any] = {"provider": provider_short_name(resource.provider_name)}
        if resource.name:
            meta["tfstate"] = {"name": resource.name}
        table.add(resource.type, resource.address, resource.values, meta, resource.document_path)


def _provider_key(provider: Any) -> str:
    """``aws.west`` for ``provider["registry.terraform.io/hashicorp/aws"].west``."""
    if not isinstance(provider, str):
        return ""
    match = _PROVIDER_ADDRESS.match(provider)
    if match is None:
        return ""
    name = provider_short_name(match.group(1))
    return f"{name}.{match.group(2)}" if match.group(2) else name


def _load_raw(doc: dict[str, Any], table: ResourceTable) -> None:
    version = doc.get("version")
    if version != RAW_STATE_VERSION:
        raise LoaderError(
            f"unsupported terraform.tfstate version {version} "
            f"(this engine reads version {RAW_STATE_VERSION})"
        )
    for i, resource in enumerate(require_list(doc.get("resources"), "resources")):
        where = f"resources.{i}"
        resource = require_object(resource, where)
        mode = resource.get("mode", "managed")
        if mode not in ("managed", "data"):
            raise LoaderError(f'{where}.mode must be "managed" or "data", found {mode!r}')
        rtype = require_string(resource.get("type"), f"{where}.type")
        name = require_string(resource.get("name"), f"{where}.name")
        module = resource.get("module", "")
        if not isinstance(module, str):
            raise LoaderError(f"{where}.module must be a string, found {kind(module)}")
        base = f"{module}." if module else ""
        base += f"data.{rtype}.{name}" if mode == "data" else f"{rtype}.{name}"
        meta = {"provider": _provider_key(resource.get("provider"))}
        instances = require_list(resource.get("instances", []), f"{where}.instances")
        for j, instance in enumerate(instances):
            at = f"{where}.instances.{j}"
            instance = require_object(instance, at)
            if instance.get("deposed"):
                continue  # an object awaiting destruction, not part of the infrastructure
            index = instance.get("index_key")
            if index is not None and (isinstance(index, bool) or not isinstance(index, int | str)):
                raise LoaderError(f"{at}.index_key must be a number or a string")
            attributes = instance.get("attributes")
            attributes = require_object(
                {} if attributes is None else attributes, f"{at}.attributes"
            )
            table.add(
                state_type(mode, rtype),
                base + index_suffix(index),
                plain_copy(attributes),
                {**meta, "tfstate": {"name": name}},
                ("resources", i, "instances", j),
            )
