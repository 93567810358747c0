"""What the Terraform plan and state loaders share: the ``terraform show -json``
values representation (a root module, its resources and nested child
modules), resource addresses and types, tags, shape checks and the source map.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.inputs.loaders.loaded import LoaderError, resource_entry
from engine.inputs.loaders.terraform_tags import resource_tags
from engine.inputs.source_map import AttributePath, DocumentPath, DocumentSourceMap


def kind(value: Any) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def require_object(value: Any, where: str) -> dict[str, Any]:
    """``value`` when it is a JSON object, else :class:`LoaderError`."""
    if not isinstance(value, dict):
        raise LoaderError(f"{where} must be an object, found {kind(value)}")
    return value


def require_list(value: Any, where: str) -> list[Any]:
    """``value`` when it is a JSON array, else :class:`LoaderError`."""
    if not isinstance(value, list):
        raise LoaderError(f"{where} must be an array, found {kind(value)}")
    return value


def require_string(value: Any, where: str) -> str:
    """``value`` when it is a non-empty string, else :class:`LoaderError`."""
    if not isinstance(value, str) or not value:
        raise LoaderError(f"{where} must be a non-empty string, found {kind(value)}")
    return value


def check_format_version(doc: dict[str, Any], what: str, oldest: tuple[int, int] = (1, 0)) -> None:
    """Refuse a ``format_version`` older than ``oldest`` (major, minor) or of
    major version 2 or later; ``0.x`` versions are compared by their minor."""
    version = doc.get("format_version")
    if not isinstance(version, str):
        raise LoaderError(f"{what} format_version must be a string, found {kind(version)}")
    major, _, rest = version.partition(".")
    minor = rest.partition(".")[0]
    if major == "1" or (major == "0" and minor.isdigit() and (0, int(minor)) >= oldest):
        return
    reads = "1.x" if oldest == (1, 0) else f"{oldest[0]}.{oldest[1]} to 1.x"
    raise LoaderError(f"unsupported {what} format_version {version} (this engine reads {reads})")


def state_type(mode: str, resource_type: str) -> str:
    """The State's resource type: the Terraform type, ``data.<type>`` for data sources."""
    return f"data.{resource_type}" if mode == "data" else resource_type


def provider_short_name(provider_name: str) -> str:
    """``aws`` for ``registry.terraform.io/hashicorp/aws``."""
    return provider_name.rsplit("/", 1)[-1]


def index_suffix(index: Any) -> str:
    """The address suffix of a ``count`` (``[0]``) or ``for_each`` (``["k"]``) instance."""
    if index is None:
        return ""
    if isinstance(index, str):
        return "[" + json.dumps(index, ensure_ascii=False) + "]"
    return f"[{index}]"


def plain_copy(value: Any) -> Any:
    """A copy of a JSON value (objects and arrays copied, scalars shared)."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    return value


@dataclass(frozen=True)
class ModuleResource:
    """One resource of a values representation and where the document holds it."""

    address: str
    type: str
    """The State's resource type (``data.<type>`` for data sources)."""
    module_address: str
    """``""`` in the root module, else e.g. ``module.a[0].module.b``."""
    provider_name: str
    values: dict[str, Any]
    document_path: DocumentPath
    name: str = ""
    """The resource's name in its block (``b`` of ``aws_s3_bucket.b[0]``)."""


def module_resources(module: Any, path: DocumentPath) -> Iterator[ModuleResource]:
    """Every resource of a values module and of its child modules, recursively."""
    where = ".".join(str(step) for step in path)
    module = require_object(module, where)
    address = module.get("address", "")
    if not isinstance(address, str):
        raise LoaderError(f"{where}.address must be a string, found {kind(address)}")
    for i, resource in enumerate(require_list(module.get("resources", []), f"{where}.resources")):
        at = (*path, "resources", i)
        yield _module_resource(resource, address, at)
    children = require_list(module.get("child_modules", []), f"{where}.child_modules")
    for i, child in enumerate(children):
        yield from module_resources(child, (*path, "child_modules", i))


def _module_resource(resource: Any, module_address: str, at: DocumentPath) -> ModuleResource:
    where = ".".join(str(step) for step in at)
    resource = require_object(resource, where)
    address = require_string(resource.get("address"), f"{where}.address")
    mode = resource.get("mode", "managed")
    if mode not in ("managed", "data"):
        raise LoaderError(f'{where}.mode must be "managed" or "data", found {mode!r}')
    rtype = require_string(resource.get("type"), f"{where}.type")
    provider = resource.get("provider_name", "")
    values = resource.get("values", {})
    if values is None:
        values = {}
    return ModuleResource(
        address=address,
        type=state_type(mode, rtype),
        module_address=module_address,
        provider_name=provider if isinstance(provider, str) else "",
        values=plain_copy(require_object(values, f"{where}.values")),
        document_path=at,
        name=resource["name"] if isinstance(resource.get("name"), str) else "",
    )


class ResourceTable:
    """The resources of a State being built, with their document paths."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self.resources: dict[str, dict[str, dict[str, Any]]] = {}
        self.paths: dict[tuple[str, str], tuple[int, DocumentPath]] = {}
        self.instanced: set[tuple[str, str]] = set()
        """(type, address without its instance key) of resources with one (``x[0]``)."""

    def __contains__(self, type_and_key: tuple[str, str]) -> bool:
        return type_and_key in self.paths

    def add(
        self,
        resource_type: str,
        key: str,
        attributes: dict[str, Any],
        meta: dict[str, Any],
        document_path: DocumentPath,
    ) -> None:
        """Add one resource; a second resource at the same address is an error."""
        if (resource_type, key) in self.paths:
            raise LoaderError(f"resource {key} appears twice")
        self.resources.setdefault(resource_type, {})[key] = resource_entry(
            resource_type,
            key,
            self.namespace,
            attributes,
            meta=meta,
            tags=resource_tags(resource_type.removeprefix("data."), attributes),
        )
        self.paths[(resource_type, key)] = (0, document_path)
        if key.endswith("]") and "[" in key:
            self.instanced.add((resource_type, key[: key.rindex("[")]))

    def source_map(self, path: str, raw: bytes, attributes_at: str) -> DocumentSourceMap:
        """A source map over the file: an attribute path lies below ``attributes_at``."""

        def attribute_path(_type: str, attribute: AttributePath) -> DocumentPath:
            return (attributes_at, *attribute)

        return DocumentSourceMap(path, raw, dict(self.paths), attribute_path)
