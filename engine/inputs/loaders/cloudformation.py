"""CloudFormation (and SAM) templates → a State: one resource per logical id.

A resource's type is its ``Type`` (SAM's ``AWS::Serverless::*`` kept as
written), its key and id its logical id, its namespace the template's path.
Its attributes are its ``Properties``, the values written in them coerced to
the type of their property in AWS's resource schema (see
:mod:`engine.inputs.loaders.cloudformation_schemas`), then with intrinsics evaluated (see
:mod:`engine.inputs.loaders.cloudformation_intrinsics`): ``Fn::GetAZs`` gives null.
A resource whose ``Condition`` is false whatever the parameters' values is
left out; a condition that depends on a parameter, a pseudo parameter or a
resource keeps it, marked ``meta.conditional``. ``meta.condition`` names the
condition; tags are the ``Tags`` property as an object (a list of
``Key``/``Value`` pairs, or a map), string values only.

In a SAM template (``Transform: AWS::Serverless-2016-10-31``) the
``Globals`` of each kind are merged into the properties of its resources as
SAM does: the resource's scalars win, maps merge, lists concatenate.
``Fn::ForEach`` loops of the ``AWS::LanguageExtensions`` transform are expanded
first (:mod:`engine.inputs.loaders.cloudformation_foreach`); in a template
without that transform a loop is an error, as CloudFormation refuses it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import yaml

from engine.inputs.loaders.cloudformation_foreach import (
    LANGUAGE_EXTENSIONS,
    ForEachError,
    expand_loops,
    has_loops,
)
from engine.inputs.loaders.cloudformation_intrinsics import (
    Evaluator,
    Site,
    Template,
    UnknownIntrinsic,
    is_intrinsic,
    parameter_value,
    plain,
)
from engine.inputs.loaders.cloudformation_schemas import coerce, resource_schema
from engine.inputs.loaders.evaluation_budget import MAX_UNITS, BudgetExhausted, evaluation_budget
from engine.inputs.loaders.loaded import (
    LoadedState,
    LoaderError,
    ResolvedReference,
    resource_entry,
    state_document,
)
from engine.inputs.source_map import AttributePath, DocumentPath, DocumentSourceMap
from engine.inputs.suppressions import find_suppressions

INPUT_TYPE = "cfn"

SAM_TRANSFORM = "AWS::Serverless-2016-10-31"
SAM_TYPE_PREFIX = "AWS::Serverless::"
RESOURCE_TYPE_PREFIXES = ("AWS::", "Alexa::", "Custom::")

_Composer = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def recognises(doc: Any) -> bool:
    """Whether ``doc`` is a CloudFormation template: an object with
    ``AWSTemplateFormatVersion``, or with ``Resources`` and a ``Transform``, a
    resource typed ``AWS::``/``Alexa::``/``Custom::``, or resources that are
    all objects with a string ``Type`` (registry types such as
    ``MongoDB::Atlas::Cluster``, and any other type, as snyk's loader reads them)."""
    if not isinstance(doc, dict):
        return False
    if "AWSTemplateFormatVersion" in doc:
        return True
    resources = doc.get("Resources")
    if not isinstance(resources, dict):
        return False
    if "Transform" in doc:
        return True
    typed = [
        isinstance(r, dict) and isinstance(r.get("Type"), str) and bool(r["Type"])
        for r in resources.values()
    ]
    if typed and all(typed):
        return True
    return any(
        isinstance(r, dict)
        and isinstance(r.get("Type"), str)
        and r["Type"].startswith(RESOURCE_TYPE_PREFIXES)
        for r in resources.values()
    )


def _line(raw: bytes, path: DocumentPath) -> int | None:
    """The line of the deepest written step of ``path`` in the template."""
    located = DocumentSourceMap("", raw, {("", ""): (0, path)}).resource_location("", "")
    return located.line if located is not None else None


def _key_line(raw: bytes, key: str) -> int | None:
    """The line of the first mapping key ``key`` (in document order) in the template."""
    try:
        pending = [n for n in yaml.compose_all(raw, Loader=_Composer) if n is not None]
    except yaml.YAMLError:
        return None
    pending.reverse()
    while pending:
        node = pending.pop()
        if isinstance(node, yaml.MappingNode):
            for key_node, _value in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                    return int(key_node.start_mark.line) + 1
            pending.extend(value for _key, value in reversed(node.value))
        elif isinstance(node, yaml.SequenceNode):
            pending.extend(reversed(node.value))
    return None


def _section(doc: dict[str, Any], name: str, raw: bytes) -> dict[str, Any]:
    value = doc.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise LoaderError(f"{name} must be an object", _line(raw, (name,)))
    return value


def _transforms(doc: dict[str, Any]) -> list[Any]:
    transform = doc.get("Transform")
    return transform if isinstance(transform, list) else [transform]


def merge_globals(globals_: Any, properties: Any) -> Any:
    """SAM's merge of a Globals section into a resource's properties: the
    resource's scalars (and intrinsics) win, maps merge, lists concatenate."""
    if isinstance(globals_, dict) and isinstance(properties, dict):
        if is_intrinsic(globals_) or is_intrinsic(properties):
            return properties
        merged = dict(globals_)
        for key, value in properties.items():
            merged[key] = merge_globals(globals_[key], value) if key in globals_ else value
        return merged
    if isinstance(globals_, list) and isinstance(properties, list):
        return [*globals_, *properties]
    return properties


def _tags(attributes: dict[str, Any]) -> dict[str, str]:
    """The ``Tags`` property as an object: its string values (as snyk's loader)."""
    tags = attributes.get("Tags")
    if isinstance(tags, dict):
        return {k: v for k, v in tags.items() if isinstance(v, str)}
    if not isinstance(tags, list):
        return {}
    return {
        tag["Key"]: tag["Value"]
        for tag in tags
        if isinstance(tag, dict)
        and isinstance(tag.get("Key"), str)
        and isinstance(tag.get("Value"), str)
    }


def _properties_path(_resource_type: str, path: AttributePath) -> DocumentPath:
    return ("Properties", *path)


def load(doc: Any, raw: bytes, path: str) -> LoadedState:
    """The State of one template; ``path`` is its display path."""
    try:
        with evaluation_budget():
            return _load(doc, raw, path)
    except BudgetExhausted:
        raise LoaderError(
            f"evaluating the template's intrinsic functions took more than {MAX_UNITS:,} "
            "steps (a long value referred to many times?); not loaded"
        ) from None
    except UnknownIntrinsic as exc:
        line = _key_line(raw, exc.name)
        raise LoaderError(f"unknown intrinsic function {exc.name}", line) from None
    except RecursionError:
        raise LoaderError("the template is nested too deeply") from None


def _depends_on(
    resource_type: str, logical_id: str, resource: dict[str, Any], kept: dict[str, Any]
) -> list[ResolvedReference]:
    """The resources of the State that ``DependsOn`` names (a name or a list)."""
    written = resource.get("DependsOn")
    names: list[tuple[tuple[int, ...], Any]] = [((), written)] if isinstance(written, str) else []
    if isinstance(written, list):
        names = [((i,), name) for i, name in enumerate(written)]
    return [
        ResolvedReference(
            resource_type,
            logical_id,
            ("DependsOn", *step),
            kept[name]["Type"],
            name,
            None,
            "DependsOn",
        )
        for step, name in names
        if isinstance(name, str) and name in kept
    ]


def _expand_loops(doc: dict[str, Any], raw: bytes) -> dict[str, Any]:
    """The template with its ``Fn::ForEach`` loops expanded (see
    :mod:`engine.inputs.loaders.cloudformation_foreach`)."""
    if not has_loops(doc):
        return doc
    if LANGUAGE_EXTENSIONS not in _transforms(doc):
        raise LoaderError(
            f"Fn::ForEach needs the {LANGUAGE_EXTENSIONS} transform, which the template "
            "does not declare",
            _key_line(raw, next(_loop_names(doc))),
        )
    declared = _section(doc, "Parameters", raw)
    parameters = {name: parameter_value(p, name) for name, p in declared.items()}
    try:
        return {
            key: expand_loops(value, parameters, (key,)) if key != "Parameters" else value
            for key, value in doc.items()
        }
    except ForEachError as exc:
        raise LoaderError(str(exc), _line(raw, exc.path)) from None


def _loop_names(value: Any) -> Any:
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and key.startswith("Fn::ForEach::"):
                yield key
            yield from _loop_names(item)
    elif isinstance(value, list):
        for item in value:
            yield from _loop_names(item)


def _checked_resource(logical_id: str, resource: Any, raw: bytes) -> dict[str, Any]:
    """``resource`` when it is an object with a ``Type`` and object ``Properties``;
    else an error at its line."""
    if not isinstance(resource, dict):
        where = _line(raw, ("Resources", logical_id))
        raise LoaderError(f"resource {logical_id} must be an object", where)
    if not isinstance(resource.get("Type"), str):
        where = _line(raw, ("Resources", logical_id))
        raise LoaderError(f"resource {logical_id} has no Type", where)
    properties = resource.get("Properties")
    if properties is not None and not isinstance(properties, dict):
        raise LoaderError(
            f"Properties of resource {logical_id} must be an object",
            _line(raw, ("Resources", logical_id, "Properties")),
        )
    return resource


def _load(doc: Any, raw: bytes, path: str) -> LoadedState:
    if not isinstance(doc, dict):
        raise LoaderError("a CloudFormation template must be an object", 1)
    doc = plain(doc)
    if "Resources" not in doc:
        raise LoaderError("the template has no Resources")
    _section(doc, "Resources", raw)
    doc = _expand_loops(doc, raw)
    declared = _section(doc, "Resources", raw)
    sam = SAM_TRANSFORM in _transforms(doc)
    globals_ = _section(doc, "Globals", raw) if sam else {}

    resources = {
        logical_id: _checked_resource(logical_id, resource, raw)
        for logical_id, resource in declared.items()
    }
    parameters = _section(doc, "Parameters", raw)
    evaluator = Evaluator(
        Template(
            parameters={name: parameter_value(p, name) for name, p in parameters.items()},
            resource_types={name: r["Type"] for name, r in resources.items()},
            present=frozenset(),
            mappings=_section(doc, "Mappings", raw),
            conditions=_section(doc, "Conditions", raw),
        )
    )
    deployed = {
        name: evaluator.deployed(r["Condition"])
        for name, r in resources.items()
        if "Condition" in r
    }
    kept = {name: r for name, r in resources.items() if deployed.get(name, True) is not False}
    evaluator.template = replace(evaluator.template, present=frozenset(kept))

    by_type: dict[str, dict[str, dict[str, Any]]] = {}
    resource_paths: dict[tuple[str, str], tuple[int, DocumentPath]] = {}
    for logical_id, resource in kept.items():
        resource_type = resource["Type"]
        properties = resource.get("Properties") or {}
        if sam and resource_type.startswith(SAM_TYPE_PREFIX):
            section = globals_.get(resource_type.removeprefix(SAM_TYPE_PREFIX))
            properties = merge_globals(section, properties) if section else properties
        properties = coerce(properties, resource_schema(resource_type))
        evaluated = evaluator.evaluate(properties, Site(resource_type, logical_id, ()))
        attributes = plain(evaluated) if isinstance(evaluated, dict) else {}
        condition = resource.get("Condition")
        meta: dict[str, Any] | None = None
        if isinstance(condition, str):
            meta = {"condition": condition}
            if deployed[logical_id] is None:
                meta["conditional"] = True
        by_type.setdefault(resource_type, {})[logical_id] = resource_entry(
            resource_type,
            logical_id,
            path,
            attributes,
            meta=meta,
            tags=_tags(attributes),
        )
        resource_paths[(resource_type, logical_id)] = (0, ("Resources", logical_id))
        evaluator.references += _depends_on(resource_type, logical_id, resource, kept)

    return LoadedState(
        document=state_document(INPUT_TYPE, by_type, filepath=path),
        source_map=DocumentSourceMap(path, raw, resource_paths, _properties_path),
        references=evaluator.references,
        source_files=[path],
        suppressions=list(find_suppressions(raw, path, "yaml")),
    )
