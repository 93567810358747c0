"""Terraform plan (``terraform show -json`` of a plan file) → a State.

The resources are those of ``planned_values`` (the root module and its child
modules, recursively), keyed by their full address; data sources have the
type ``data.<type>``. Data sources read while planning are recorded only in
``prior_state``, so those missing from ``planned_values`` are taken from there.

Attributes are the planned values. An attribute unknown until apply
(``resource_changes[].change.after_unknown``) is resolved from the
configuration when its expression references another resource, directly or
through module variables and outputs: it becomes that resource's address
(``module.a.aws_s3_bucket.b``), and the resolution is recorded. Any other
unknown is left out, as the plan's values leave it out: an object key is
absent; a list element stays ``null`` at its index (the plan keeps the
element's place so that later elements keep their indexes); a wholly unknown
list or block is absent.

Plans of ``format_version`` 0.1 and 0.2 (Terraform 0.12 to 1.0) are read like
1.x: their expressions may name only the referenced object
(``aws_s3_bucket.b``, not also ``aws_s3_bucket.b.id``), their providers may
have short names (``aws``), and they lack the fields later versions added
(sensitivity, ``relevant_attributes``, checks), which this loader does not read.

Each resource's meta holds its ``planned_actions``, its ``provider``
configuration key (``aws``, ``aws.west``) and the provider's ``region`` when
the configuration gives it as a constant or through a root variable. As
snyk's loader writes them, it also holds ``tfplan.resource_actions`` (the
planned actions, for a resource the plan changes) and ``terraform``: the
provider configuration's ``provider_version_constraint`` and, as
``provider_config``, its arguments that are constants (see
:func:`constant_value`), each only when there is one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.inputs.loaders.loaded import (
    LoadedState,
    LoaderError,
    ResolvedReference,
    state_document,
)
from engine.inputs.loaders.terraform_tags import resource_tags
from engine.inputs.loaders.terraform_values import (
    ModuleResource,
    ResourceTable,
    check_format_version,
    kind,
    module_resources,
    provider_short_name,
    require_list,
    require_object,
)
from engine.inputs.source_map import AttributePath

INPUT_TYPE = "tf_plan"

_MAX_INDIRECTION = 16
"""How many module variables and outputs a reference is followed through."""

_STEP = re.compile(r'\.?([A-Za-z_][\w-]*)|\[([0-9]+|"(?:[^"\\]|\\.)*")\]')
"""One step of a traversal: ``.name`` or ``[0]`` or ``["key"]``."""

_NOT_RESOURCES = frozenset({"var", "local", "each", "count", "path", "terraform", "self"})


def recognises(doc: Any) -> bool:
    """Whether ``doc`` is ``terraform show -json`` of a plan."""
    return (
        isinstance(doc, dict)
        and "format_version" in doc
        and ("planned_values" in doc or "resource_changes" in doc)
    )


def load(doc: Any, raw: bytes, path: str) -> LoadedState:
    """The State of one Terraform plan file; ``path`` is its display path."""
    try:
        return _load(doc, raw, path)
    except RecursionError:
        raise LoaderError("the plan is nested too deeply") from None


def _load(doc: Any, raw: bytes, path: str) -> LoadedState:
    doc = require_object(doc, "a Terraform plan")
    check_format_version(doc, "plan", oldest=(0, 1))
    planned = require_object(doc.get("planned_values"), "planned_values")
    if "root_module" not in planned:
        raise LoaderError("planned_values has no root_module")
    changes = _resource_changes(doc.get("resource_changes", []))
    configuration = _Configuration(doc)
    found = list(module_resources(planned["root_module"], ("planned_values", "root_module")))
    found += _prior_data_sources(doc, {r.address for r in found})

    table = ResourceTable(path)
    for resource in found:
        table.add(resource.type, resource.address, resource.values, {}, resource.document_path)
    references: list[ResolvedReference] = []
    for resource in found:
        entry = table.resources[resource.type][resource.address]
        config = configuration.resource(resource)
        change = changes.get(resource.address, {})
        unknown = change.get("after_unknown")
        resolver = _Resolver(configuration, table, resource, config)
        resolved: list[ResolvedReference] = []
        for attribute_path in _unknown_paths(unknown, ()):
            target = resolver.resolve(attribute_path)
            if target is not None:
                _assign(entry["attributes"], attribute_path, target.key)
                resolved.append(
                    ResolvedReference(
                        resource.type,
                        resource.address,
                        attribute_path,
                        target.type,
                        target.key,
                        target.attribute,
                    )
                )
        references += resolved
        references += resolver.written_references(resource, resolved)
        actions = change.get("actions")
        entry["meta"] = configuration.meta(resource, config, actions)
        entry["tags"] = resource_tags(resource.type.removeprefix("data."), entry["attributes"])
    version = doc.get("terraform_version")
    meta = {"terraform_version": version if isinstance(version, str) else None}
    document = state_document(INPUT_TYPE, table.resources, filepath=path, meta=meta)
    return LoadedState(
        document, table.source_map(path, raw, "values"), sorted(references), source_files=[path]
    )


# ---------------------------------------------------------------- plan pieces


def _resource_changes(value: Any) -> dict[str, dict[str, Any]]:
    """``{address: {"actions": [...], "after_unknown": ...}}`` of the current objects."""
    changes: dict[str, dict[str, Any]] = {}
    for i, change in enumerate(require_list(value, "resource_changes")):
        where = f"resource_changes.{i}"
        change = require_object(change, where)
        address = change.get("address")
        if not isinstance(address, str):
            raise LoaderError(f"{where}.address must be a string, found {kind(address)}")
        if change.get("deposed"):
            continue
        body = require_object(change.get("change", {}), f"{where}.change")
        actions = body.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise LoaderError(f"{where}.change.actions must be an array of strings")
        changes[address] = {"actions": actions, "after_unknown": body.get("after_unknown")}
    return changes


def _prior_data_sources(doc: dict[str, Any], planned: set[str]) -> list[ModuleResource]:
    """The data sources of ``prior_state`` that ``planned_values`` lacks."""
    prior = doc.get("prior_state")
    if prior is None:
        return []
    prior = require_object(prior, "prior_state")
    values = require_object(prior.get("values", {}), "prior_state.values")
    if "root_module" not in values:
        return []
    found = module_resources(values["root_module"], ("prior_state", "values", "root_module"))
    return [r for r in found if r.type.startswith("data.") and r.address not in planned]


def _unknown_paths(unknown: Any, path: AttributePath) -> Iterator[AttributePath]:
    """Every attribute path that ``after_unknown`` marks ``true``."""
    if unknown is True:
        if path:
            yield path
    elif isinstance(unknown, dict):
        for key, value in unknown.items():
            yield from _unknown_paths(value, (*path, key))
    elif isinstance(unknown, list):
        for i, value in enumerate(unknown):
            yield from _unknown_paths(value, (*path, i))


def _assign(attributes: dict[str, Any], path: AttributePath, value: Any) -> None:
    """Set the value at ``path``, making the objects and arrays leading to it."""
    node: Any = attributes
    for step, following in zip(path, (*path[1:], None), strict=True):
        last = following is None
        fresh: Any = None if last else ({} if isinstance(following, str) else [])
        if isinstance(step, str) and isinstance(node, dict):
            if last:
                node[step] = value
                return
            if not isinstance(node.get(step), dict | list):
                node[step] = fresh
            node = node[step]
        elif isinstance(step, int) and isinstance(node, list):
            node.extend([None] * (step + 1 - len(node)))
            if last:
                node[step] = value
                return
            if not isinstance(node[step], dict | list):
                node[step] = fresh
            node = node[step]
        else:
            return


# ---------------------------------------------------------------- configuration


def _steps(text: str) -> list[str] | None:
    """A traversal's steps: names, and index steps kept as written (``[0]``)."""
    steps: list[str] = []
    position = 0
    while position < len(text):
        match = _STEP.match(text, position)
        if match is None or (match.group(1) is not None and (text[position] == ".") != bool(steps)):
            return None
        steps.append(match.group(1) if match.group(1) is not None else f"[{match.group(2)}]")
        position = match.end()
    return steps or None


def _is_expression(value: Any) -> bool:
    """Whether a configuration value is one expression (not a nested block)."""
    return isinstance(value, dict) and set(value) <= {"constant_value", "references"}


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class _Scope:
    """A module instance: its address prefix, its configuration, and its caller."""

    prefix: str
    """``""`` for the root module, else ``module.a[0].module.b.``."""
    module: dict[str, Any]
    parent: _Scope | None = None
    call: dict[str, Any] | None = None
    """The module call (in the parent) that made this instance."""


def constant_value(expression: Any) -> Any:
    """The value of a configuration expression made of constants: a
    ``constant_value``; a list of expressions (nested blocks) element by
    element; an object of expressions without its null members. An
    expression with ``references`` (or anything else) is null."""
    if isinstance(expression, list):
        return [constant_value(e) for e in expression]
    if not isinstance(expression, dict):
        return None
    if "constant_value" in expression:
        return expression["constant_value"]
    if "references" in expression:
        return None
    values = {k: constant_value(e) for k, e in expression.items()}
    return {k: v for k, v in values.items() if v is not None}


class _Configuration:
    """The plan's ``configuration``, read leniently: what is missing or
    misshapen there just resolves nothing."""

    def __init__(self, doc: dict[str, Any]) -> None:
        configuration = _object(doc.get("configuration"))
        self.providers = _object(configuration.get("provider_config"))
        self.root = _object(configuration.get("root_module"))
        self.variables = _object(doc.get("variables"))
        self._blocks_by_module: dict[int, dict[str, dict[str, Any]]] = {}

    def scope(self, module_address: str) -> _Scope | None:
        """The scope of a module instance, from its address (``module.a[0].module.b``)."""
        steps = _steps(module_address) if module_address else []
        if steps is None:
            return None
        scope = _Scope("", self.root)
        i = 0
        while i < len(steps):
            if steps[i] != "module" or i + 1 >= len(steps) or steps[i + 1].startswith("["):
                return None
            name, i = steps[i + 1], i + 2
            suffix = ""
            if i < len(steps) and steps[i].startswith("["):
                suffix, i = steps[i], i + 1
            call = _object(_object(scope.module.get("module_calls")).get(name))
            prefix = f"{scope.prefix}module.{name}{suffix}."
            scope = _Scope(prefix, _object(call.get("module")), scope, call)
        return scope

    def resource(self, resource: ModuleResource) -> dict[str, Any]:
        """The configuration of a resource (its module's resource block), or {}."""
        scope = self.scope(resource.module_address)
        if scope is None:
            return {}
        if not resource.address.startswith(scope.prefix):
            return {}
        steps = _steps(resource.address[len(scope.prefix) :]) or []
        if steps and steps[-1].startswith("["):
            steps.pop()
        return self._blocks(scope.module).get(".".join(steps), {})

    def _blocks(self, module: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """A module's resource blocks by address (the first of each), built once."""
        found = self._blocks_by_module.get(id(module))
        if found is None:
            found = {}
            blocks = module.get("resources")
            for block in blocks if isinstance(blocks, list) else []:
                if isinstance(block, dict) and isinstance(block.get("address"), str):
                    found.setdefault(block["address"], block)
            self._blocks_by_module[id(module)] = found
        return found

    def meta(
        self, resource: ModuleResource, config: dict[str, Any], actions: Any
    ) -> dict[str, Any]:
        """A resource's meta: planned actions, provider key and region."""
        config_key = config.get("provider_config_key")
        key = config_key if isinstance(config_key, str) else None
        if key is None:
            key = provider_short_name(resource.provider_name)
        meta: dict[str, Any] = {
            "planned_actions": actions if isinstance(actions, list) else [],
            "provider": key,
        }
        region = self.region(key)
        if region is not None:
            meta["region"] = region
        terraform = self.provider_meta(config_key) if isinstance(config_key, str) else {}
        if terraform:
            meta["terraform"] = terraform
        if isinstance(actions, list):
            meta["tfplan"] = {"resource_actions": list(actions)}
        return meta

    def provider_meta(self, provider_key: str) -> dict[str, Any]:
        """``provider_version_constraint`` and the constant ``provider_config``
        of a provider configuration, each when there is one."""
        provider = self.providers.get(provider_key)
        if not isinstance(provider, dict):
            return {}
        found: dict[str, Any] = {}
        constraint = provider.get("version_constraint")
        if isinstance(constraint, str) and constraint:
            found["provider_version_constraint"] = constraint
        arguments = constant_value(_object(provider.get("expressions")))
        if arguments:
            found["provider_config"] = arguments
        return found

    def region(self, provider_key: str) -> str | None:
        """The region a provider configuration sets: a constant, or a root variable."""
        provider = _object(self.providers.get(provider_key))
        expression = _object(_object(provider.get("expressions")).get("region"))
        constant = expression.get("constant_value")
        if isinstance(constant, str):
            return constant
        references = expression.get("references")
        if provider.get("module_address") or not isinstance(references, list):
            return None
        for reference in references:
            steps = _steps(reference) if isinstance(reference, str) else None
            if steps and steps[0] == "var" and len(steps) >= 2:
                value = _object(self.variables.get(steps[1])).get("value")
                declared = _object(_object(self.root.get("variables")).get(steps[1]))
                value = value if isinstance(value, str) else declared.get("default")
                if isinstance(value, str):
                    return value
        return None


@dataclass(frozen=True)
class _Target:
    """A resource an expression refers to, and the attribute it reads."""

    type: str
    key: str
    attribute: str | None


class _Resolver:
    """Resolves unknown attributes of one resource through its configuration."""

    def __init__(
        self,
        configuration: _Configuration,
        table: ResourceTable,
        resource: ModuleResource,
        config: dict[str, Any],
    ) -> None:
        self.configuration = configuration
        self.table = table
        self.scope = configuration.scope(resource.module_address)
        self.config = config
        self.expressions = _object(config.get("expressions"))

    def written_references(
        self, resource: ModuleResource, found: list[ResolvedReference]
    ) -> list[ResolvedReference]:
        """References the configuration writes that ``found`` (references
        already resolved, e.g. this resource's unknown attributes) lacks: known
        values computed from other resources, and ``depends_on``. Only the
        entries of ``found`` whose source is ``resource`` count, so the caller
        passes just those (a resource's own list keeps loading linear)."""
        if self.scope is None:
            return []
        seen = {
            (r.attribute[:1], r.target_type, r.target_key)
            for r in found
            if (r.source_type, r.source_key) == (resource.type, resource.address)
        }
        out: list[ResolvedReference] = []
        for path, expression in _expressions(self.expressions, ()):
            for target in self.targets(expression, self.scope, 0):
                if (target.type, target.key) not in self.table:
                    continue  # every instance of a counted resource: none in particular
                if (path[:1], target.type, target.key) not in seen:
                    seen.add((path[:1], target.type, target.key))
                    out.append(
                        ResolvedReference(
                            resource.type,
                            resource.address,
                            path,
                            target.type,
                            target.key,
                            target.attribute,
                        )
                    )
        depends = self.config.get("depends_on")
        for written in depends if isinstance(depends, list) else []:
            steps = _steps(written) if isinstance(written, str) else None
            depended = self.reference(steps, self.scope, 0) if steps else None
            if depended is not None:
                out.append(
                    ResolvedReference(
                        resource.type,
                        resource.address,
                        ("depends_on",),
                        depended.type,
                        depended.key,
                        None,
                        "depends_on",
                    )
                )
        return out

    def resolve(self, path: AttributePath) -> _Target | None:
        """The resource the attribute at ``path`` refers to, if the configuration says."""
        if self.scope is None:
            return None
        found = _expression_at(self.expressions, path)
        if found is None:
            return None
        expression, rest = found
        targets = self.targets(expression, self.scope, 0)
        if len(targets) > 1 and len(rest) == 1 and isinstance(rest[0], int):
            return targets[rest[0]] if rest[0] < len(targets) else None
        return targets[0] if targets else None

    def targets(self, expression: Any, scope: _Scope, depth: int) -> list[_Target]:
        """The distinct resources an expression refers to, in order."""
        found: list[_Target] = []
        references = _object(expression).get("references")
        if depth > _MAX_INDIRECTION or not isinstance(references, list):
            return found
        for reference in references:
            steps = _steps(reference) if isinstance(reference, str) else None
            target = self.reference(steps, scope, depth) if steps else None
            if target is not None and all(
                (t.type, t.key) != (target.type, target.key) for t in found
            ):
                found.append(target)
        return found

    def reference(self, steps: list[str], scope: _Scope, depth: int) -> _Target | None:
        """The resource one reference names, followed through variables and outputs."""
        head = steps[0]
        if head == "var" and len(steps) >= 2 and scope.parent is not None and scope.call:
            argument = _object(scope.call.get("expressions")).get(steps[1])
            return _first(self.targets(argument, scope.parent, depth + 1))
        if head == "module" and len(steps) >= 3:
            call = _object(_object(scope.module.get("module_calls")).get(steps[1]))
            index = steps[2] if steps[2].startswith("[") else ""
            rest = steps[3:] if index else steps[2:]
            if not rest or rest[0].startswith("["):
                return None
            child = _Scope(
                f"{scope.prefix}module.{steps[1]}{index}.", _object(call.get("module")), scope, call
            )
            output = _object(_object(child.module.get("outputs")).get(rest[0]))
            return _first(self.targets(output.get("expression"), child, depth + 1))
        if head in _NOT_RESOURCES or head == "module":
            return None
        if head == "data":
            steps, prefix = steps[1:], "data."
        else:
            prefix = ""
        if len(steps) < 2 or steps[0].startswith("[") or steps[1].startswith("["):
            return None
        rtype = prefix + steps[0]
        key = f"{scope.prefix}{rtype}.{steps[1]}"
        rest = steps[2:]
        if rest and rest[0].startswith("["):
            key += rest[0]
            rest = rest[1:]
        if not self.exists(rtype, key):
            return None
        attribute = rest[0] if rest and not rest[0].startswith("[") else None
        return _Target(rtype, key, attribute)

    def exists(self, resource_type: str, key: str) -> bool:
        """Whether the State has this resource, or instances of it (``key[...]``)."""
        return (resource_type, key) in self.table or (resource_type, key) in self.table.instanced


def _expressions(node: Any, path: AttributePath) -> Iterator[tuple[AttributePath, Any]]:
    """Every expression of a configuration block (nested blocks followed), with its path."""
    if path and _is_expression(node):
        yield path, node
    elif isinstance(node, dict):
        for key in sorted(node):
            yield from _expressions(node[key], (*path, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _expressions(item, (*path, i))


def _first(targets: list[_Target]) -> _Target | None:
    return targets[0] if targets else None


def _expression_at(
    expressions: dict[str, Any], path: AttributePath
) -> tuple[dict[str, Any], AttributePath] | None:
    """The expression written for the attribute at ``path`` (following nested
    blocks), and the part of ``path`` below it (e.g. a list element's index)."""
    node: Any = expressions
    for i, step in enumerate(path):
        if i > 0 and _is_expression(node):
            return node, path[i:]
        if isinstance(step, str) and isinstance(node, dict):
            node = node.get(step)
        elif isinstance(step, int) and isinstance(node, list) and step < len(node):
            node = node[step]
        else:
            return None
    return (node, ()) if _is_expression(node) else None
