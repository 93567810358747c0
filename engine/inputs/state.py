"""The State: the canonical input, resources grouped by type.

A State document is ``{format, format_version, input_type,
environment_provider, meta, scope, resources: {type: {key: resource}}}``
where each resource is ``{id, resource_type, namespace, meta, tags,
attributes}``. It is recognised by its shape, not by ``format`` (producers
often leave that empty). Rules see each resource as a *resource object*:
its attributes plus engine fields (:func:`resource_object`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.inputs.loaders.loaded import ResolvedReference
    from engine.inputs.source_map import SourceMap

INPUT_TYPES = ("tf_hcl", "tf_plan", "tf_state", "cloud_scan", "cfn", "k8s", "arm")
"""Input types a State may declare."""


class StateError(ValueError):
    """A document looks like a State but is malformed; ``path`` says where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


@dataclass(frozen=True)
class Resource:
    """One resource of a State, as its producer wrote it."""

    key: str
    id: str
    type: str
    namespace: str
    meta: dict[str, Any]
    tags: dict[str, Any]
    attributes: dict[str, Any]

    @property
    def visible_id(self) -> str:
        """The ``id`` rules see: the non-empty string attribute ``id``, else the logical id."""
        attr = self.attributes.get("id")
        return attr if isinstance(attr, str) and attr else self.id


@dataclass(frozen=True)
class State:
    """One input: its type, scope and resources by type (keys in sorted order).

    A State loaded from IaC files also carries its loader's ``source_map``
    (where resources and attributes are written) and the ``references`` it
    resolved; neither takes part in equality.
    """

    input_type: str
    scope: dict[str, Any]
    meta: dict[str, Any]
    resources: dict[str, tuple[Resource, ...]]
    document: dict[str, Any] = field(repr=False)
    source_map: SourceMap | None = field(default=None, repr=False, compare=False)
    references: tuple[ResolvedReference, ...] = field(default=(), repr=False, compare=False)

    @property
    def resource_types(self) -> list[str]:
        """Every resource type of the State, sorted."""
        return sorted(self.resources)

    def all_resources(self) -> Iterator[Resource]:
        """Every resource, by type then key."""
        for rtype in self.resource_types:
            yield from self.resources[rtype]

    def resource_objects(self, resource_type: str) -> list[dict[str, Any]]:
        """The resource objects of one type, in key order."""
        return [resource_object(r, self) for r in self.resources.get(resource_type, ())]


def looks_like_state(doc: Any) -> bool:
    """Whether ``doc`` has the shape of a State: a string ``input_type`` and an
    object of ``resources`` grouped by type. (:func:`parse_state` then checks
    every entry, so a malformed State is reported, not skipped.)"""
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("input_type"), str)
        and isinstance(doc.get("resources"), dict)
    )


def states_in_document(doc: Any) -> list[dict[str, Any]] | None:
    """The State documents ``doc`` holds (one, or a list), or None when it holds none."""
    if looks_like_state(doc):
        return [doc]
    if isinstance(doc, list) and doc and all(looks_like_state(d) for d in doc):
        return list(doc)
    return None


def _string(value: Any, path: str, default: str = "") -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise StateError(path, f"expected a string, found {type(value).__name__}")
    return value


def _object(value: Any, path: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise StateError(path, f"expected an object, found {type(value).__name__}")
    return value


def parse_state(doc: dict[str, Any]) -> State:
    """Validate a State document and index its resources."""
    input_type = _string(doc.get("input_type"), "input_type")
    resources: dict[str, tuple[Resource, ...]] = {}
    for rtype, by_key in sorted(_object(doc.get("resources"), "resources").items()):
        at = f"resources.{rtype}"
        entries: list[Resource] = []
        for key, entry in sorted(_object(by_key, at).items()):
            if (
                type(entry) is dict
                and type(entry.get("attributes")) is dict
                and entry.get("resource_type", rtype) == rtype
                and type(entry.get("id", "")) is str
                and type(entry.get("namespace", "")) is str
                and type(entry.get("meta", {})) is dict
                and type(entry.get("tags", {})) is dict
            ):
                # The usual well-formed entry, checked at once (the same values
                # as the checks below give).
                entries.append(
                    Resource(
                        key,
                        entry.get("id") or key,
                        rtype,
                        entry.get("namespace") or "",
                        entry.get("meta") or {},
                        entry.get("tags") or {},
                        entry["attributes"],
                    )
                )
                continue
            where = f"{at}.{key}"
            entry = _object(entry, where)
            if not isinstance(entry.get("attributes"), dict):
                raise StateError(f"{where}.attributes", "missing or not an object")
            declared = _string(entry.get("resource_type"), f"{where}.resource_type", rtype)
            if declared != rtype:
                raise StateError(
                    f"{where}.resource_type", f"{declared!r} differs from its group {rtype!r}"
                )
            entries.append(
                Resource(
                    key=key,
                    id=_string(entry.get("id"), f"{where}.id", key) or key,
                    type=rtype,
                    namespace=_string(entry.get("namespace"), f"{where}.namespace"),
                    meta=_object(entry.get("meta"), f"{where}.meta"),
                    tags=_object(entry.get("tags"), f"{where}.tags"),
                    attributes=_object(entry.get("attributes"), f"{where}.attributes"),
                )
            )
        resources[rtype] = tuple(entries)
    return State(
        input_type=input_type,
        scope=_object(doc.get("scope"), "scope"),
        meta=_object(doc.get("meta"), "meta"),
        resources=resources,
        document=doc,
    )


def resource_object(resource: Resource, state: State) -> dict[str, Any]:
    """The resource as rules see it: attributes plus ``id``, ``_id``, ``_type``,
    ``_namespace``, ``_meta``, ``_tags``, ``_provider`` and ``_filepath``.

    ``_provider`` is the resource's ``meta.provider``; ``_filepath`` its
    ``meta.filepath``, else the State's; both default to ``""``.
    """
    provider = resource.meta.get("provider")
    filepath = resource.meta.get("filepath")
    if not isinstance(filepath, str):
        filepath = state.meta.get("filepath")
    return {
        **resource.attributes,
        "id": resource.visible_id,
        "_id": resource.id,
        "_type": resource.type,
        "_namespace": resource.namespace,
        "_meta": resource.meta,
        "_tags": resource.tags,
        "_provider": provider if isinstance(provider, str) else "",
        "_filepath": filepath if isinstance(filepath, str) else "",
    }
