"""Resource instances: a block expanded by ``count`` and ``for_each``, and each
instance's arguments and nested blocks (``dynamic`` included) evaluated on demand,
with the references they make recorded."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from engine.core.internal_errors import internal_error
from engine.inputs.loaders.evaluation_budget import (
    BudgetExhausted,
    spend,
)
from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    JsonExpression,
    ResourceAddress,
    ResourceHandle,
    Traversable,
    as_unknown,
    evaluate,
    evaluate_or_null,
    identifier_name,
    materialize,
    plain,
    traversal_text,
)
from engine.inputs.loaders.hcl_functions import to_string
from engine.inputs.loaders.hcl_types import SetValue
from engine.inputs.loaders.hcl_unknown import Unknown
from engine.inputs.loaders.loaded import (
    LoaderError,
    ResolvedReference,
)
from engine.inputs.loaders.terraform_blocks import (
    KEPT_META_ARGUMENTS,
    RESOURCE_META_ARGUMENTS,
    RESOURCE_META_BLOCKS,
    Block,
    Body,
)
from engine.inputs.source_map import AttributePath


class ModuleScope(Protocol):
    """What a resource needs of the module instance it belongs to
    (:class:`engine.inputs.loaders.terraform_modules.ModuleScope`)."""

    prefix: str
    """``module.child.`` (empty in the root module)."""
    context: Context
    groups: dict[tuple[str, str], ResourceGroup]
    version_constraints: dict[str, str]
    unknown_expansion: str | None
    """Set when the module instance stands for a number of instances known only after
    apply."""

    def provider(self, block: Block) -> Any:
        """The provider configuration a resource uses."""

    def report(self, error: LoaderError) -> None:
        """Record an error of the load (once per message)."""


def _instance_suffix(key: Any) -> str:
    return f"[{key}]" if isinstance(key, int) else f"[{json.dumps(key)}]"


@dataclass(frozen=True)
class Expansion:
    """The instances a ``count`` or ``for_each`` makes of a block."""

    instances: list[tuple[str, dict[str, Any]]]
    """``(address suffix, names bound in the instance)`` for each instance."""
    single: bool = False
    """Written with neither (or a ``for_each`` not known): one instance, no key."""
    unknown: str | None = None
    """``count`` or ``for_each`` when its value is known only after apply (or cannot
    be evaluated): the block is kept as one instance so that it is still checked."""


def expand(block: Block, context: Context) -> Expansion:
    """The instances of a block. A ``count`` that is unknown or cannot be evaluated gives
    one instance, ``[0]``; a ``for_each`` that is, one instance without a key whose
    ``each.key`` and ``each.value`` are unknown. Terraform would make some number of
    instances at apply; none is removed here."""
    attributes = block.body.attributes
    if "count" in attributes:
        try:
            count = materialize(evaluate(attributes["count"].expression, context), context)
            known = as_unknown(count) is None and not isinstance(count, bool | None)
            number = int(count) if known else None
        except (EvaluationError, ValueError, TypeError):
            number = None
        if number is None:  # as snyk's loader: one instance, so that it is still checked
            return Expansion([("[0]", {"count": {"index": 0}})], unknown="count")
        spend(max(number, 0))
        return Expansion([(f"[{i}]", {"count": {"index": i}}) for i in range(max(number, 0))])
    if "for_each" in attributes:
        unknown_each = {"each": {"key": Unknown("each.key"), "value": Unknown("each.value")}}
        try:
            collection = evaluate(attributes["for_each"].expression, context)
            if isinstance(collection, Traversable):
                collection = collection.materialize()
            if as_unknown(collection) is not None:
                return Expansion([("", unknown_each)], single=True, unknown="for_each")
            items = _for_each_items(collection, context)
        except (EvaluationError, ValueError, TypeError):
            return Expansion([("", unknown_each)], single=True, unknown="for_each")
        return Expansion(
            [(_instance_suffix(k), {"each": {"key": k, "value": v}}) for k, v in items]
        )
    return Expansion([("", {})], single=True)


def _for_each_items(collection: Any, context: Context) -> list[tuple[str, Any]]:
    if isinstance(collection, dict):
        return sorted(collection.items())
    if isinstance(collection, list):
        keys = {to_string(materialize(item, context)) for item in collection}
        return [(k, k) for k in sorted(keys)]
    raise EvaluationError("for_each needs a map or a set of strings")


def written_provider(block: Block) -> str | None:
    """The provider configuration a resource's ``provider`` argument names (``aws.west``)."""
    written = block.body.attributes.get("provider")
    if written is None:
        return None
    if isinstance(written.expression, JsonExpression):
        value = written.expression.value
        return value.removeprefix("${").removesuffix("}") if isinstance(value, str) else None
    return traversal_text(written.expression)


class TypeNamespace(Traversable):
    """``aws_s3_bucket`` (or ``data.aws_iam_policy_document``): resources of one type."""

    def __init__(self, module: ModuleScope, resource_type: str) -> None:
        self._module = module
        self._type = resource_type

    def attribute(self, name: str) -> Any:
        group = self._module.groups.get((self._type, name))
        if group is None:
            raise EvaluationError(f"no resource {self._type}.{name}")
        return group.value()


class ResourceGroup:
    """One resource block and its instances."""

    def __init__(self, module: ModuleScope, block: Block) -> None:
        self.module = module
        self.block = block
        data = "data." if block.type == "data" else ""
        self.resource_type = f"{data}{block.labels[0]}"
        self.address = f"{module.prefix}{self.resource_type}.{block.labels[1]}"
        self._instances: list[ResourceInstance] | ResourceInstance | None = None

    def instances(self) -> list[ResourceInstance] | ResourceInstance:
        if self._instances is None:
            expanded = expand(self.block, self.module.context)
            made = [
                ResourceInstance(self, *one, unknown=expanded.unknown) for one in expanded.instances
            ]
            self._instances = made[0] if expanded.single else made
        return self._instances

    def value(self) -> Any:
        instances = self.instances()
        if isinstance(instances, ResourceInstance):
            return instances
        if "for_each" in self.block.body.attributes:
            return {i.bindings["each"]["key"]: i for i in instances}
        return instances


class ResourceInstance(ResourceHandle):
    """One resource instance: its arguments, evaluated once each, on demand."""

    def __init__(
        self,
        group: ResourceGroup,
        suffix: str,
        bindings: dict[str, Any],
        unknown: str | None = None,
    ) -> None:
        self.group = group
        self.unknown_expansion = unknown or group.module.unknown_expansion
        """``count``/``for_each`` when how many instances there are is known only after apply."""
        self.resource_type = group.resource_type
        self.key = f"{group.address}{suffix}"
        self.bindings = bindings
        self.references: list[ResolvedReference] = []
        self._values: dict[str, Any] = {}
        self._busy: set[str] = set()
        self.names = _argument_names(group.block.body, top_level=True)

    def record(self, path: AttributePath, target: ResourceHandle, attribute: str | None) -> None:
        """Note that the argument at ``path`` refers to ``target``."""
        if target is not self:
            self.references.append(
                ResolvedReference(
                    self.resource_type, self.key, path, target.resource_type, target.key, attribute
                )
            )

    def record_dependencies(self) -> None:
        """Note the resources that ``depends_on`` names."""
        written = self.group.block.body.attributes.get("depends_on")
        if written is None:
            return

        def record(target: ResourceHandle, argument_expression: str | None) -> None:
            if target is not self:
                self.references.append(
                    ResolvedReference(
                        self.resource_type,
                        self.key,
                        ("depends_on",),
                        target.resource_type,
                        target.key,
                        None,
                        "depends_on",
                    )
                )

        context = replace(
            self.group.module.context, bindings=dict(self.bindings), on_reference=record
        )
        try:
            materialize(evaluate(written.expression, context), context)
        except EvaluationError:
            return

    def context_at(self, path: AttributePath, bindings: Mapping[str, Any]) -> Context:
        """The context the argument at ``path`` is evaluated in."""

        def record(target: ResourceHandle, attribute: str | None) -> None:
            self.record(path, target, attribute)

        return self.group.module.context.at(dict(bindings), record)

    def argument(self, name: str) -> Any:
        if name in self._values:
            return self._values[name]
        if name in self._busy:
            raise EvaluationError(f"cycle through {self.key}.{name}")
        if name == "provider" and "provider" in self.group.block.body.attributes:
            self._values[name] = written_provider(self.group.block)
            return self._values[name]
        self._busy.add(name)
        try:
            value = _evaluate_name(self.group.block.body, name, self, (), self.bindings)
        finally:
            self._busy.discard(name)
        self._values[name] = value
        return value

    def attributes(self) -> dict[str, Any]:
        return {name: self._reported_argument(name) for name in self.names}

    def _reported_argument(self, name: str) -> Any:
        """``argument(name)``; an unexpected exception (a bug in the evaluator) is an
        internal error naming the file and line of the argument, and the argument is
        null so that the other arguments and resources still load."""
        try:
            return self.argument(name)
        except (BudgetExhausted, MemoryError):
            raise
        except Exception as exc:
            block = self.group.block
            written = block.body.attributes.get(name)
            line = written.line if written is not None and written.line else block.line
            where = f"{block.file}:{line}" if line else block.file
            text = f"{where}: {self.key}.{name}: {internal_error(exc)}"
            self.group.module.report(LoaderError(text, line or None))
            self._values[name] = None
            return None

    def attribute(self, name: str) -> Any:
        if name in self.names:
            return self.argument(name)
        return ResourceAddress.of(self, name)

    def materialize(self) -> Any:
        return self.key


def _argument_names(body: Body, *, top_level: bool) -> list[str]:
    """The attribute names of a body's value: its arguments and block types (a
    ``dynamic`` block's label). A native-syntax body with ``dynamic`` blocks also has
    ``dynamic`` (an empty list), as snyk's loader gives it."""
    names = [
        name
        for name in body.attributes
        if not (top_level and name in RESOURCE_META_ARGUMENTS and name not in KEPT_META_ARGUMENTS)
    ]
    for block in body.blocks:
        if top_level and block.type in RESOURCE_META_BLOCKS:
            continue
        name = block.labels[0] if block.type == "dynamic" and block.labels else block.type
        if name not in names:
            names.append(name)
        if block.type == "dynamic" and not body.json_syntax and _DYNAMIC not in names:
            names.append(_DYNAMIC)
    return names


_DYNAMIC = "dynamic"
"""The empty attribute snyk's loader leaves beside the blocks a ``dynamic`` block makes."""


def _evaluate_name(
    body: Body,
    name: str,
    instance: ResourceInstance,
    path: AttributePath,
    bindings: Mapping[str, Any],
) -> Any:
    """The value of one argument or nested-block type of ``body``."""
    if name == _DYNAMIC and name not in body.attributes:
        return []
    if name in body.attributes:
        expression = body.attributes[name].expression
        if isinstance(expression, JsonExpression) and isinstance(expression.value, dict | list):
            return _json_argument(expression.value, instance, (*path, name), bindings)
        context = instance.context_at((*path, name), bindings)
        addresses: list[ResourceAddress] = []
        value = plain(evaluate_or_null(body.attributes[name].expression, context), addresses)
        for address in addresses:
            instance.record((*path, name), address.target, address.target_attribute)
        return value
    items: list[Any] = []
    for block in body.blocks:
        if block.type == name:
            items.append(_body_value(block.body, instance, (*path, name, len(items)), bindings))
        elif block.type == "dynamic" and block.labels[:1] == (name,):
            items.extend(_dynamic_items(block, instance, (*path, name), len(items), bindings))
    return items


def _json_argument(
    value: Any, instance: ResourceInstance, path: AttributePath, bindings: Mapping[str, Any]
) -> Any:
    """A JSON-syntax object or array evaluated one value at a time, so that each
    reference is recorded at the path it is written at (a value that cannot be
    evaluated is null; so is an object with a key that cannot be)."""
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        context = instance.context_at(path, bindings)
        for key, item in value.items():
            name = evaluate_or_null(JsonExpression(key), context)
            if name is None:
                return None
            name = to_string(name)
            result[name] = _json_argument(item, instance, (*path, name), bindings)
        return result
    if isinstance(value, list):
        return [
            _json_argument(item, instance, (*path, index), bindings)
            for index, item in enumerate(value)
        ]
    addresses: list[ResourceAddress] = []
    found = plain(
        evaluate_or_null(JsonExpression(value), instance.context_at(path, bindings)), addresses
    )
    for address in addresses:
        instance.record(path, address.target, address.target_attribute)
    return found


def _body_value(
    body: Body, instance: ResourceInstance, path: AttributePath, bindings: Mapping[str, Any]
) -> dict[str, Any]:
    return {
        name: _evaluate_name(body, name, instance, path, bindings)
        for name in _argument_names(body, top_level=False)
    }


def _dynamic_items(
    block: Block,
    instance: ResourceInstance,
    path: AttributePath,
    start: int,
    bindings: Mapping[str, Any],
) -> Iterator[dict[str, Any]]:
    context = instance.context_at(path, bindings)
    iterator = block.labels[0]
    if "iterator" in block.body.attributes:
        written = block.body.attributes["iterator"].expression
        if isinstance(written, JsonExpression):
            iterator = str(written.value)
        else:
            iterator = identifier_name(written) or iterator
    content = next((b for b in block.body.blocks if b.type == "content"), None)
    if content is None or "for_each" not in block.body.attributes:
        return
    try:
        written = evaluate(block.body.attributes["for_each"].expression, context)
        collection = materialize(written)
    except EvaluationError:
        return
    if isinstance(collection, dict):
        pairs: list[tuple[Any, Any]] = sorted(collection.items())
    elif isinstance(written, SetValue):  # as Terraform: a set element is its own key
        pairs = [(value, value) for value in collection]
    elif isinstance(collection, list):
        pairs = list(enumerate(collection))
    else:
        return
    for offset, (key, value) in enumerate(pairs):
        inner = {**bindings, iterator: {"key": key, "value": value}}
        yield _body_value(content.body, instance, (*path, start + offset), inner)


def all_instances(module: ModuleScope) -> Iterator[ResourceInstance]:
    for group in module.groups.values():
        instances = group.instances()
        yield from [instances] if isinstance(instances, ResourceInstance) else instances
