"""Azure Resource Manager templates → a State: one resource per deployed resource.

Child resources nested in a resource's ``resources`` get their parent's type
and name as prefixes, as ARM does (``Microsoft.Network/virtualNetworks`` +
``subnets`` → ``Microsoft.Network/virtualNetworks/subnets``, name
``vnet1/subnet1``; a relative type may have several segments,
``blobServices/containers``); a nested type that starts with a namespace
(``Microsoft.Network/virtualNetworks/subnets``) is written in full. A
resource's key and id are its resource id, types and names interleaved as
Azure writes them
(``Microsoft.Network/virtualNetworks/vnet1/subnets/subnet1``), which is also
what ``resourceId()`` gives for it; its namespace is the template's path. Its
attributes are the resource object without ``name``, ``type``, ``tags``,
``resources``, ``copy`` and ``condition``, with expressions evaluated (see
:mod:`engine.inputs.loaders.arm_expressions`: ``resourceGroup().location``
gives ``"stub-location"``) and ``properties`` an empty object when not
written. A child resource (its type has more than one segment after the
namespace) has the id of its parent in the attribute ``_parent_id`` and in
``meta.arm.parent_id``. Its tags are its ``tags`` (an object).

``copy`` loops are expanded, one resource per ``copyIndex()`` (a count that
cannot be evaluated gives one resource, where ``copyIndex()`` is null). A resource
whose ``condition`` is false is left out (with its children); an unknown
condition keeps it, and ``meta.condition`` holds the condition as written.
A type written as an expression is evaluated. A name that cannot be
evaluated is used as written (with ``[i]``, or ``[*]`` for an unknown count,
appended in a copy loop); a key met again gets ``#2``, ``#3``... appended.
Resources declared ``existing`` are not part of the State. Nested
deployments (``Microsoft.Resources/deployments``) are one resource, their
inline template evaluated in the outer template's scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.inputs.loaders.arm_expressions import (
    Evaluator,
    Loops,
    Site,
    TemplateScope,
    parent_id,
    resource_id,
)
from engine.inputs.loaders.arm_functions import plain
from engine.inputs.loaders.evaluation_budget import MAX_UNITS, BudgetExhausted, evaluation_budget
from engine.inputs.loaders.loaded import (
    CONTAINS_KIND,
    LoadedState,
    LoaderError,
    ResolvedReference,
    resource_entry,
    state_document,
)
from engine.inputs.source_map import DocumentPath, DocumentSourceMap

INPUT_TYPE = "arm"

NOT_ATTRIBUTES = frozenset({"name", "type", "tags", "resources", "copy", "condition"})
"""Keys of a resource object that are not attributes: the name and type make
the id, tags are the resource's tags, and children, loops and conditions
decide which resources there are."""


def _is_arm_resource(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("type"), str)
        and value["type"].startswith("Microsoft.")
        and "apiVersion" in value
    )


def recognises(doc: Any) -> bool:
    """Whether ``doc`` is an ARM template: an object whose ``$schema`` names
    a deployment template, or whose ``resources`` list holds a
    ``Microsoft.*`` resource with an ``apiVersion``."""
    if not isinstance(doc, dict):
        return False
    schema = doc.get("$schema")
    if isinstance(schema, str) and "deploymenttemplate" in schema.lower():
        return True
    resources = doc.get("resources")
    return isinstance(resources, list) and any(_is_arm_resource(r) for r in resources)


@dataclass(frozen=True)
class _Instance:
    """One resource to be deployed: a declaration at one copy index."""

    resource_type: str
    name: str | None
    """The full name, evaluated; None when it cannot be."""
    name_text: str
    """The full name as the key shows it: evaluated, else as written."""
    body: dict[str, Any]
    loops: Loops
    document_path: DocumentPath
    parent: _Instance | None = None
    """The resource this one is nested in, in the template."""

    @property
    def key(self) -> str:
        return resource_id(self.resource_type, self.name_text)


def _line(raw: bytes, path: DocumentPath) -> int | None:
    located = DocumentSourceMap("", raw, {("", ""): (0, path)}).resource_location("", "")
    return located.line if located is not None else None


def _declarations(
    value: Any, path: DocumentPath, raw: bytes
) -> Iterator[tuple[DocumentPath, dict[str, Any]]]:
    """The resource objects of a ``resources`` list (or a language version 2
    object of symbolic names), with their document paths."""
    if isinstance(value, list):
        entries: list[tuple[str | int, Any]] = list(enumerate(value))
    elif isinstance(value, dict):
        entries = list(value.items())
    else:
        raise LoaderError("resources must be a list", _line(raw, path))
    for step, resource in entries:
        where = (*path, step)
        if not isinstance(resource, dict):
            raise LoaderError(f"resource {_shown(where)} must be an object", _line(raw, where))
        if not isinstance(resource.get("type"), str):
            raise LoaderError(f"resource {_shown(where)} has no type", _line(raw, where))
        if resource.get("existing") is not True:
            yield where, resource


def _shown(path: DocumentPath) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path)[1:]


def _name_text(name: Any, written: Any) -> str:
    if isinstance(name, str):
        return name
    return written if isinstance(written, str) else "?"


def _instances(
    evaluator: Evaluator,
    declarations: Iterator[tuple[DocumentPath, dict[str, Any]]],
    raw: bytes,
    parent: _Instance | None = None,
) -> Iterator[_Instance]:
    """Every deployed instance of ``declarations`` and their children."""
    for path, resource in declarations:
        loops = parent.loops if parent else ()
        copy = resource.get("copy")
        iterations: list[Loops] = [loops]
        if isinstance(copy, dict) and isinstance(copy.get("name"), str):
            count = evaluator.count(copy.get("count"), loops)
            indices = range(count) if count is not None else [None]
            iterations = [(*loops, (copy["name"], i)) for i in indices]
        for at in iterations:
            if evaluator.evaluate(resource.get("condition", True), None, at) is False:
                continue
            written = resource.get("name")
            name = evaluator.evaluate(written, None, at)
            text = _name_text(name, written)
            if not isinstance(name, str) and at is not loops:
                index = at[-1][1]
                text = f"{text}[{'*' if index is None else index}]"
            evaluated_type = evaluator.evaluate(resource["type"], None, at)
            resource_type = evaluated_type if isinstance(evaluated_type, str) else resource["type"]
            if parent is not None and not _qualified(resource_type):
                resource_type = f"{parent.resource_type}/{resource_type}"
                text = f"{parent.name_text}/{text}"
                name = f"{parent.name}/{name}" if parent.name and isinstance(name, str) else None
            instance = _Instance(
                resource_type,
                name if isinstance(name, str) else None,
                text,
                resource,
                at,
                path,
                parent,
            )
            yield instance
            children = resource.get("resources")
            if children is not None:
                nested = _declarations(children, (*path, "resources"), raw)
                yield from _instances(evaluator, nested, raw, instance)


def _qualified(resource_type: str) -> bool:
    """Whether a nested resource's type is written in full: it starts with a
    resource provider namespace (``Microsoft.Storage/...``), not with a type
    relative to its parent (``subnets``, ``blobServices/containers``)."""
    return "." in resource_type.split("/", 1)[0]


def _unique(instances: list[_Instance]) -> list[tuple[str, _Instance]]:
    """Each instance with its key; a key met again gets ``#2``, ``#3``..."""
    seen: dict[str, int] = {}
    keyed: list[tuple[str, _Instance]] = []
    for instance in instances:
        key = instance.key
        folded = key.casefold()
        seen[folded] = seen.get(folded, 0) + 1
        keyed.append((key if seen[folded] == 1 else f"{key}#{seen[folded]}", instance))
    return keyed


def _structure(evaluator: Evaluator, keyed: list[tuple[str, _Instance]]) -> list[ResolvedReference]:
    """Each child resource ``contains``-related to its parent, and each resource
    to what its ``dependsOn`` names (a ``resourceId()``, a key or a unique name)."""
    key_of = {id(instance): key for key, instance in keyed}
    by_name: dict[str, list[tuple[str, str]]] = {}
    for key, instance in keyed:
        by_name.setdefault(instance.name_text.casefold(), []).append((instance.resource_type, key))
    found: list[ResolvedReference] = []
    for key, instance in keyed:
        parent = instance.parent
        if parent is not None and id(parent) in key_of:
            found.append(
                ResolvedReference(
                    parent.resource_type,
                    key_of[id(parent)],
                    (),
                    instance.resource_type,
                    key,
                    None,
                    CONTAINS_KIND,
                )
            )
        depends = instance.body.get("dependsOn")
        for i, written in enumerate(depends if isinstance(depends, list) else []):
            value = evaluator.evaluate(written, None, instance.loops)
            if not isinstance(value, str):
                continue
            target = evaluator.scope.resource_keys.get(value.casefold())
            named = by_name.get(value.casefold(), [])
            if target is None and len(named) == 1:
                target = named[0]
            if target is not None and target[1] != key:
                found.append(
                    ResolvedReference(
                        instance.resource_type,
                        key,
                        ("dependsOn", i),
                        target[0],
                        target[1],
                        None,
                        "dependsOn",
                    )
                )
    return found


def _section(doc: dict[str, Any], name: str, raw: bytes) -> dict[str, Any]:
    value = doc.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise LoaderError(f"{name} must be an object", _line(raw, (name,)))
    return value


def load(doc: Any, raw: bytes, path: str) -> LoadedState:
    """The State of one template; ``path`` is its display path."""
    try:
        with evaluation_budget():
            return _load(doc, raw, path)
    except RecursionError:
        raise LoaderError("the template is nested too deeply") from None
    except BudgetExhausted:
        raise LoaderError(
            f"evaluating the template's expressions took more than {MAX_UNITS:,} steps "
            "(variables that double a value?); not loaded"
        ) from None


def _load(doc: Any, raw: bytes, path: str) -> LoadedState:
    if not isinstance(doc, dict):
        raise LoaderError("an ARM template must be an object", 1)
    if "resources" not in doc:
        raise LoaderError("the template has no resources")
    evaluator = Evaluator(
        TemplateScope(_section(doc, "parameters", raw), _section(doc, "variables", raw))
    )
    declared = _declarations(doc["resources"], ("resources",), raw)
    keyed = _unique(list(_instances(evaluator, declared, raw)))
    evaluator.scope = TemplateScope(
        evaluator.scope.parameters,
        evaluator.scope.variables,
        {key.casefold(): (instance.resource_type, key) for key, instance in keyed},
    )

    by_type: dict[str, dict[str, dict[str, Any]]] = {}
    resource_paths: dict[tuple[str, str], tuple[int, DocumentPath]] = {}
    for key, instance in keyed:
        body = {k: v for k, v in instance.body.items() if k not in NOT_ATTRIBUTES}
        site = Site(instance.resource_type, key, ())
        depends = body.pop("dependsOn", None)
        attributes = plain(evaluator.evaluate(body, site, instance.loops))
        if depends is not None:  # deployment order: a depends_on relation, not a reference
            attributes["dependsOn"] = plain(evaluator.evaluate(depends, None, instance.loops))
        if not isinstance(attributes.get("properties"), dict):
            attributes["properties"] = {}
        meta: dict[str, Any] = {}
        if "condition" in instance.body:
            meta["condition"] = plain(instance.body["condition"])
        parent = parent_id(instance.resource_type, instance.name_text)
        if parent is not None:
            attributes["_parent_id"] = parent
            meta["arm"] = {"parent_id": parent}
        written_tags = instance.body.get("tags")
        tags = plain(evaluator.evaluate(written_tags, site.child("tags"), instance.loops))
        by_type.setdefault(instance.resource_type, {})[key] = resource_entry(
            instance.resource_type,
            key,
            path,
            attributes,
            meta=meta,
            tags=tags if isinstance(tags, dict) else None,
        )
        resource_paths[(instance.resource_type, key)] = (0, instance.document_path)
    evaluator.references += _structure(evaluator, keyed)

    return LoadedState(
        document=state_document(INPUT_TYPE, by_type, filepath=path),
        source_map=DocumentSourceMap(path, raw, resource_paths),
        references=evaluator.references,
        source_files=[path],
    )
