"""ARM template expressions evaluated at load time (``"[...]"`` strings, as
:mod:`arm_tokens` and :mod:`arm_parse` read them; functions of evaluated
arguments in :mod:`arm_functions`).

What the template determines is evaluated: ``parameters()`` take their
``defaultValue``, ``variables()`` their value, ``copyIndex()`` the loop
index. ``resourceId()`` gives the resource id of what it names, types and
names interleaved as Azure writes them
(``Microsoft.Network/virtualNetworks/vnet/subnets/app``, see
:func:`resource_id`): the key of a resource of the template, else the fully
qualified id under ``/subscriptions/<id>/resourceGroups/<name>/providers/``
(``stub-subscription-id`` and ``stub-resource-group-name`` when not given).
The deployment environment (``resourceGroup()``, ``subscription()``,
``deployment()``, ``tenant()``, ``managementGroup()``, ``environment()``)
gives placeholder strings such as ``"subscription().subscriptionId"``;
the resource group's ``id``, ``name``, ``type``, ``location`` and
``managedBy`` give ``stub-id``, ``stub-name``, ``stub-type``,
``stub-location`` and ``stub-managed-by`` (placeholders too); what only
a deployment knows (``reference()``, ``list*()``, ``uniqueString()``,
``guid()``, ``utcNow()``...), any unknown function, and anything computed
from a null, is null. Comparisons involving a placeholder or a null are null.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from engine.inputs.loaders.arm_functions import (
    FUNCTIONS,
    Placeholder,
    entry_folded,
    is_integer,
    plain,
    string_result,
)
from engine.inputs.loaders.arm_parse import Index, Literal, Member, Node, parse_expression
from engine.inputs.loaders.arm_tokens import ExpressionSyntaxError, expression_source, literal_text
from engine.inputs.loaders.evaluation_budget import spend, units_of
from engine.inputs.loaders.loaded import ResolvedReference
from engine.inputs.source_map import AttributePath

MAX_COPY_COUNT = 800
"""ARM's limit on the iterations of one copy loop."""


ENVIRONMENT_FUNCTIONS = frozenset(
    {"resourceGroup", "subscription", "deployment", "tenant", "managementGroup", "environment"}
)


RESOURCE_GROUP_STUBS = {
    "id": "stub-id",
    "name": "stub-name",
    "type": "stub-type",
    "location": "stub-location",
    "managedby": "stub-managed-by",
}
"""What ``resourceGroup().<property>`` gives (case-folded property names)."""


def resource_id(resource_type: str, name: str) -> str:
    """The resource id of a resource: ``Microsoft.Network/virtualNetworks/subnets``
    named ``vnet/app`` is ``Microsoft.Network/virtualNetworks/vnet/subnets/app``.
    A name whose segments do not match the type's gives ``<type>/<name>``."""
    namespace, _, types = resource_type.partition("/")
    type_parts = types.split("/") if types else []
    names = name.split("/")
    if not type_parts or len(type_parts) != len(names):
        return f"{resource_type}/{name}"
    return "/".join([namespace, *(f"{t}/{n}" for t, n in zip(type_parts, names, strict=True))])


def parent_id(resource_type: str, name: str) -> str | None:
    """The resource id of a child resource's parent, None for a top-level resource."""
    namespace, _, types = resource_type.partition("/")
    type_parts = types.split("/") if types else []
    names = name.split("/")
    if len(type_parts) < 2 or len(type_parts) != len(names):
        return None
    return resource_id("/".join([namespace, *type_parts[:-1]]), "/".join(names[:-1]))


@dataclass(frozen=True)
class Site:
    """Where a value is being evaluated: an attribute of a resource."""

    resource_type: str
    key: str
    path: AttributePath

    def child(self, step: str | int) -> Site:
        return Site(self.resource_type, self.key, (*self.path, step))


Loops = tuple[tuple[str, int | None], ...]
"""The copy loops being expanded, outermost first: (loop name, index; None
when the loop's count is unknown)."""


@dataclass(frozen=True)
class TemplateScope:
    """What expressions can look up in a template."""

    parameters: dict[str, Any]
    variables: dict[str, Any]
    resource_keys: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Case-folded resource id → (type, key) of every resource of the State."""


@dataclass
class Evaluator:
    """Evaluates the expressions of one template; resolutions of
    ``resourceId()`` to a resource of the State are appended to ``references``."""

    scope: TemplateScope
    references: list[ResolvedReference] = field(default_factory=list)
    _parameters: dict[str, Any] = field(default_factory=dict)
    _variables: dict[str, Any] = field(default_factory=dict)
    _parsed: dict[str, Node | None] = field(default_factory=dict)

    # ------------------------------------------------------------ values

    def evaluate(self, value: Any, site: Site | None = None, loops: Loops = ()) -> Any:
        """``value`` with every expression evaluated and property copy loops
        expanded; ``site`` None: nothing is recorded."""
        if isinstance(value, str):
            source = expression_source(value)
            if source is None:
                return literal_text(value)
            node = self.parse(source)
            return self.node(node, site, loops) if node is not None else None
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for key, item in value.items():
                if key == "copy" and _is_copy_list(item):
                    for loop in item:
                        out[loop["name"]] = self.copy_loop(loop, site, loops)
                    continue
                out[key] = self.evaluate(item, site.child(key) if site else None, loops)
            return out
        if isinstance(value, list):
            return [
                self.evaluate(item, site.child(i) if site else None, loops)
                for i, item in enumerate(value)
            ]
        return value

    def copy_loop(self, loop: dict[str, Any], site: Site | None, loops: Loops) -> Any:
        """The items of a property (or variable) copy loop; null when its count
        cannot be evaluated."""
        name = loop["name"]
        count = self.count(loop.get("count"), loops)
        if count is None:
            return None
        site = site.child(name) if site else None
        return [
            self.evaluate(loop.get("input"), site.child(i) if site else None, (*loops, (name, i)))
            for i in range(count)
        ]

    def count(self, value: Any, loops: Loops = ()) -> int | None:
        """A copy loop's count (at most :data:`MAX_COPY_COUNT`); None when unknown."""
        count = self.evaluate(value, None, loops)
        if isinstance(count, str) and count.isdigit():
            count = int(count)
        if not is_integer(count):
            return None
        return max(0, min(count, MAX_COPY_COUNT))

    def parse(self, source: str) -> Node | None:
        if source not in self._parsed:
            try:
                self._parsed[source] = parse_expression(source)
            except ExpressionSyntaxError:
                self._parsed[source] = None
        return self._parsed[source]

    def node(self, node: Node, site: Site | None, loops: Loops) -> Any:
        """The value of one syntax tree."""
        spend(1)
        if isinstance(node, Literal):
            return node.value
        if isinstance(node, Member):
            target = self.node(node.target, site, loops)
            if isinstance(target, Placeholder):
                if target == "resourceGroup()" and node.name.casefold() in RESOURCE_GROUP_STUBS:
                    return Placeholder(RESOURCE_GROUP_STUBS[node.name.casefold()])
                return Placeholder(f"{target}.{node.name}")
            found = entry_folded(target, node.name) if isinstance(target, dict) else None
            return found[1] if found is not None else None
        if isinstance(node, Index):
            target = self.node(node.target, site, loops)
            index = self.node(node.index, site, loops)
            if isinstance(target, list) and is_integer(index):
                return target[index] if 0 <= index < len(target) else None
            if isinstance(target, dict) and isinstance(index, str):
                found = entry_folded(target, index)
                return found[1] if found is not None else None
            return None
        lazy = _LAZY.get(node.name)
        if lazy is not None:
            return lazy(self, node.arguments, site, loops)
        function = FUNCTIONS.get(node.name)
        if function is None:
            return None
        arguments = [self.node(a, site, loops) for a in node.arguments]
        try:
            result = function(arguments)
        except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError):
            return None  # arguments of the wrong kinds or number
        spend(units_of(result))
        return result

    # -------------------------------------------------- template lookups

    def parameter(self, name: Any) -> Any:
        """A parameter's value: its default, evaluated."""
        if not isinstance(name, str):
            return None
        found = entry_folded(self.scope.parameters, name)
        if found is None or not isinstance(found[1], dict):
            return None
        key, declaration = found
        if key not in self._parameters:
            self._parameters[key] = None  # a cycle is unknown
            self._parameters[key] = self.evaluate(declaration.get("defaultValue"))
        return self._parameters[key]

    def variable(self, name: Any) -> Any:
        """A variable's value, evaluated (also those a variable copy loop makes)."""
        if not isinstance(name, str):
            return None
        found = entry_folded(self.scope.variables, name)
        loops = self.scope.variables.get("copy")
        if found is None and _is_copy_list(loops):
            for loop in loops:
                if loop["name"].casefold() == name.casefold():
                    found = (loop["name"], {"copy": [loop]})
        if found is None:
            return None
        key, value = found
        if key not in self._variables:
            self._variables[key] = None  # a cycle is unknown
            evaluated = self.evaluate(value)
            if isinstance(value, dict) and list(value) == ["copy"]:
                evaluated = evaluated.get(key) if isinstance(evaluated, dict) else None
            self._variables[key] = evaluated
        return self._variables[key]

    def resource_id(self, arguments: Sequence[Any], site: Site | None, scope: str) -> Any:
        """``resourceId([subscription], [group], type, name...)`` → the resource id:
        a resource's key, else the id qualified by ``scope`` (``group``,
        ``subscription`` or ``tenant``)."""
        if not arguments or any(not isinstance(a, str) for a in arguments):
            return None
        at = next((i for i, a in enumerate(arguments) if "/" in a), None)
        if at is None or at + 1 >= len(arguments) or at > 2:
            return None
        resource_type, names = arguments[at], arguments[at + 1 :]
        key = resource_id(resource_type, "/".join(names))
        known = self.scope.resource_keys.get(key.casefold())
        if known is None:
            before = list(arguments[:at])
            group = before.pop() if before and scope == "group" else "stub-resource-group-name"
            subscription = before.pop() if before else "stub-subscription-id"
            key = {
                "group": f"/subscriptions/{subscription}/resourceGroups/{group}/providers/{key}",
                "subscription": f"/subscriptions/{subscription}/providers/{key}",
                "tenant": f"/providers/{key}",
            }[scope]
        if known is not None:
            target_type, key = known
            if site is not None:
                self.references.append(
                    ResolvedReference(
                        site.resource_type,
                        site.key,
                        site.path,
                        target_type,
                        key,
                        None,
                        "resourceId",
                    )
                )
        return string_result(key, *arguments)


def _is_copy_list(value: Any) -> TypeGuard[list[dict[str, Any]]]:
    """Whether ``value`` is the ``copy`` of properties or variables: a list of
    loops, each with a ``name``, a ``count`` and an ``input``."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(loop, dict)
            and isinstance(loop.get("name"), str)
            and "count" in loop
            and "input" in loop
            for loop in value
        )
    )


Lazy = Callable[[Evaluator, tuple[Node, ...], Site | None, Loops], Any]


def _if(ev: Evaluator, args: tuple[Node, ...], site: Site | None, loops: Loops) -> Any:
    if len(args) != 3:
        return None
    condition = ev.node(args[0], None, loops)
    if not isinstance(condition, bool):
        return None
    return ev.node(args[1] if condition else args[2], site, loops)


def _unknowable(ev: Evaluator, args: tuple[Node, ...], site: Site | None, loops: Loops) -> Any:
    return None


def _parameters(ev: Evaluator, args: tuple[Node, ...], site: Site | None, loops: Loops) -> Any:
    return ev.parameter(ev.node(args[0], None, loops)) if len(args) == 1 else None


def _variables(ev: Evaluator, args: tuple[Node, ...], site: Site | None, loops: Loops) -> Any:
    return ev.variable(ev.node(args[0], None, loops)) if len(args) == 1 else None


def _copy_index(ev: Evaluator, args: tuple[Node, ...], site: Site | None, loops: Loops) -> Any:
    values = [ev.node(a, None, loops) for a in args]
    name = next((v for v in values if isinstance(v, str)), None)
    offset = next((v for v in values if is_integer(v)), 0)
    if name is None:
        index = loops[-1][1] if loops else None
    else:
        found = (i for loop_name, i in reversed(loops) if loop_name.casefold() == name.casefold())
        index = next(found, None)
    return index + offset if index is not None else None


def _environment(name: str) -> Lazy:
    def environment(ev: Evaluator, args: tuple[Node, ...], site: Site | None, loops: Loops) -> Any:
        return Placeholder(f"{name}()")

    return environment


def _resource_id(scope: str) -> Lazy:
    def resource_id(ev: Evaluator, args: tuple[Node, ...], site: Site | None, loops: Loops) -> Any:
        return ev.resource_id([ev.node(a, site, loops) for a in args], site, scope)

    return resource_id


_LAZY: dict[str, Lazy] = {
    "if": _if,
    "parameters": _parameters,
    "variables": _variables,
    "copyindex": _copy_index,
    "resourceid": _resource_id("group"),
    "subscriptionresourceid": _resource_id("subscription"),
    "tenantresourceid": _resource_id("tenant"),
    **{name: _unknowable for name in ("reference", "list", "listkeys", "listsecrets")},
    **{name: _unknowable for name in ("uniquestring", "guid", "newguid", "utcnow")},
    **{name: _unknowable for name in ("pickzones", "providers", "listaccountsas")},
    **{name.lower(): _environment(name) for name in ENVIRONMENT_FUNCTIONS},
}
"""Functions that decide themselves which arguments to evaluate."""


def evaluate_text(text: str, scope: TemplateScope | None = None) -> Any:
    """The value of one template string (an expression or plain text), with
    placeholders made ordinary strings; for tests and tools."""
    evaluator = Evaluator(scope or TemplateScope({}, {}))
    return plain(evaluator.evaluate(text))
