"""ARM template expressions: parsing and load-time evaluation of ``"[...]"`` strings.

A string value that starts with ``[`` and ends with ``]`` is an expression
(``[[`` at the start escapes a literal ``[``). Expressions are function calls
(names case-insensitive) on string and integer literals, with property access
(``.name``) and indexing (``[expr]``).

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

Functions whose result can outgrow their arguments (``concat``, ``format``,
``join``, ``padLeft``, ``replace``, ``string``) charge the evaluation budget
for the text before they build it; arithmetic is on 64-bit integers, as in
ARM (outside that range it gives null).
"""

from __future__ import annotations

import base64
import json
import math
import re
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.inputs.loaders.evaluation_budget import spend, spend_for_json, text_units, units_of
from engine.inputs.loaders.loaded import ResolvedReference
from engine.inputs.source_map import AttributePath

MAX_COPY_COUNT = 800
"""ARM's limit on the iterations of one copy loop."""

ENVIRONMENT_FUNCTIONS = frozenset(
    {"resourceGroup", "subscription", "deployment", "tenant", "managementGroup", "environment"}
)


class Placeholder(str):
    """A string standing for a value only a deployment knows, e.g.
    ``resourceGroup().location``, or text built from one."""


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


# ------------------------------------------------------------------ syntax


@dataclass(frozen=True)
class Literal:
    value: str | int | bool | None


_KEYWORDS: dict[str, bool | None] = {"true": True, "false": False, "null": None}
"""Bare words that are literals (the functions ``true()`` ... are also known)."""


@dataclass(frozen=True)
class Call:
    name: str
    arguments: tuple[Node, ...]


@dataclass(frozen=True)
class Member:
    target: Node
    name: str


@dataclass(frozen=True)
class Index:
    target: Node
    index: Node


Node = Literal | Call | Member | Index


class ExpressionSyntaxError(ValueError):
    """Text that is not an ARM expression."""


_TOKEN = re.compile(
    r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>-?[0-9]+)"
    r"|(?P<name>[A-Za-z_$][A-Za-z0-9_$]*)|(?P<punct>[()\[\],.]))"
)


def expression_source(value: str) -> str | None:
    """The expression inside ``value`` (without brackets), or None when it is
    plain text."""
    if len(value) >= 2 and value[0] == "[" and value[-1] == "]" and value[1] != "[":
        return value[1:-1]
    return None


def literal_text(value: str) -> str:
    """A plain string's value: a leading ``[[`` stands for ``[``."""
    return value[1:] if value.startswith("[[") else value


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        found = _TOKEN.match(text, position)
        if found is None or found.lastgroup is None:
            raise ExpressionSyntaxError(f"unexpected {text[position:].strip()[:10]!r}")
        tokens.append((found.lastgroup, found.group(found.lastgroup)))
        position = found.end()
    return tokens


@dataclass
class _Parser:
    tokens: list[tuple[str, str]]
    position: int = 0

    def peek(self, offset: int = 0) -> tuple[str, str] | None:
        at = self.position + offset
        return self.tokens[at] if at < len(self.tokens) else None

    def take(self, text: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (text is not None and token[1] != text):
            raise ExpressionSyntaxError(f"expected {text or 'more'}")
        self.position += 1
        return token

    def expression(self) -> Node:
        node = self.primary()
        while (token := self.peek()) is not None and token[1] in (".", "["):
            self.take()
            if token[1] == ".":
                kind, name = self.take()
                if kind != "name":
                    raise ExpressionSyntaxError("expected a property name")
                node = Member(node, name)
            else:
                node = Index(node, self.expression())
                self.take("]")
        return node

    def primary(self) -> Node:
        kind, text = self.take()
        if kind == "string":
            return Literal(text[1:-1].replace("''", "'"))
        if kind == "number":
            return Literal(int(text))
        if kind != "name":
            raise ExpressionSyntaxError(f"unexpected {text!r}")
        following = self.peek()
        if text.lower() in _KEYWORDS and (following is None or following[1] != "("):
            return Literal(_KEYWORDS[text.lower()])
        name = text
        while self._namespaced():  # user-defined functions: namespace.name(...)
            self.take()
            name = f"{name}.{self.take()[1]}"
        self.take("(")
        arguments: list[Node] = []
        if (token := self.peek()) is not None and token[1] == ")":
            self.take()
            return Call(name.lower(), ())
        while True:
            arguments.append(self.expression())
            if self.take()[1] == ")":
                return Call(name.lower(), tuple(arguments))
            if self.tokens[self.position - 1][1] != ",":
                raise ExpressionSyntaxError("expected , or )")

    def _namespaced(self) -> bool:
        dot, name, paren = self.peek(), self.peek(1), self.peek(2)
        return (
            dot is not None
            and dot[1] == "."
            and name is not None
            and name[0] == "name"
            and paren is not None
            and paren[1] == "("
        )


def parse_expression(text: str) -> Node:
    """The syntax tree of an expression (the text inside the brackets)."""
    parser = _Parser(_tokens(text))
    node = parser.expression()
    if parser.peek() is not None:
        raise ExpressionSyntaxError(f"unexpected {parser.peek()[1]!r}")  # type: ignore[index]
    return node


# -------------------------------------------------------------- evaluation


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


def _lookup(mapping: dict[str, Any], name: str) -> tuple[str, Any] | None:
    """``mapping``'s entry for ``name``, compared case-insensitively as ARM does."""
    if name in mapping:
        return name, mapping[name]
    folded = name.casefold()
    for key, value in mapping.items():
        if isinstance(key, str) and key.casefold() == folded:
            return key, value
    return None


def _unknown(value: Any) -> bool:
    if value is None or isinstance(value, Placeholder):
        return True
    if isinstance(value, dict):
        return any(_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(_unknown(v) for v in value)
    return False


def _text(value: Any) -> str | None:
    """A scalar as ARM writes it into a string."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    return None


def _string_result(text: str, *inputs: Any) -> str:
    return Placeholder(text) if any(isinstance(i, Placeholder) for i in inputs) else text


def plain(value: Any) -> Any:
    """``value`` as JSON: placeholders made ordinary strings, keys strings,
    what JSON cannot hold null."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, bool | int | float):
        return value
    return None


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
        if not _is_integer(count):
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
            found = _lookup(target, node.name) if isinstance(target, dict) else None
            return found[1] if found is not None else None
        if isinstance(node, Index):
            target = self.node(node.target, site, loops)
            index = self.node(node.index, site, loops)
            if isinstance(target, list) and _is_integer(index):
                return target[index] if 0 <= index < len(target) else None
            if isinstance(target, dict) and isinstance(index, str):
                found = _lookup(target, index)
                return found[1] if found is not None else None
            return None
        lazy = _LAZY.get(node.name)
        if lazy is not None:
            return lazy(self, node.arguments, site, loops)
        function = _FUNCTIONS.get(node.name)
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
        found = _lookup(self.scope.parameters, name)
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
        found = _lookup(self.scope.variables, name)
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
        return _string_result(key, *arguments)


def _is_copy_list(value: Any) -> bool:
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


# ------------------------------------------------------------- functions

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
    offset = next((v for v in values if _is_integer(v)), 0)
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


def _concat(args: list[Any]) -> Any:
    if args and all(isinstance(a, list) for a in args):
        return [item for a in args for item in a]
    texts = [_text(a) for a in args]
    if any(t is None for t in texts):
        return None
    spend(text_units(sum(len(t) for t in texts if t is not None)))
    return _string_result("".join(t for t in texts if t is not None), *args)


_FORMAT_ITEM = re.compile(r"\{\{|\}\}|\{([0-9]+)(?:,[^:}]*)?(?::[^}]*)?\}")


def _format(args: list[Any]) -> Any:
    template, values = args[0], args[1:]
    if not isinstance(template, str):
        return None
    texts = [_text(v) for v in values]
    failed = False

    def item(found: re.Match[str]) -> str:
        nonlocal failed
        if found.group(0) in ("{{", "}}"):
            return found.group(0)[0]
        index = int(found.group(1))
        text = texts[index] if index < len(texts) else None
        if text is None:
            failed = True
            return ""
        spend(text_units(len(text)))  # before the pieces are joined
        return text

    result = _FORMAT_ITEM.sub(item, template)
    return None if failed else _string_result(result, template, *values)


def _equals(args: list[Any]) -> Any:
    left, right = args
    if _unknown(left) or _unknown(right):
        return None
    return type(left) is type(right) and left == right


def _logical(combine: Callable[[list[bool]], bool]) -> Callable[[list[Any]], Any]:
    def logical(args: list[Any]) -> Any:
        if len(args) < 2 or not all(isinstance(a, bool) for a in args):
            return None
        return combine(args)

    return logical


def _not(args: list[Any]) -> Any:
    (value,) = args
    return not value if isinstance(value, bool) else None


def _compare(test: Callable[[Any, Any], bool]) -> Callable[[list[Any]], Any]:
    def compare(args: list[Any]) -> Any:
        left, right = args
        if _unknown(left) or _unknown(right):
            return None
        if _is_integer(left) and _is_integer(right):
            return test(left, right)
        if isinstance(left, str) and isinstance(right, str):
            return test(left, right)
        return None

    return compare


def _length(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, Placeholder) or not isinstance(value, str | list | dict):
        return None
    return len(value)


def _string(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, dict | list):
        if _unknown(value):
            return None
        spend_for_json(value)
        return json.dumps(value, separators=(",", ":"))
    return _text(value)


def _int(args: list[Any]) -> Any:
    (value,) = args
    if _is_integer(value):
        return value
    if isinstance(value, str) and not isinstance(value, Placeholder):
        return int(value.strip())
    return None


def _bool(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, bool):
        return value
    if _is_integer(value):
        return value != 0
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _json(args: list[Any]) -> Any:
    (value,) = args
    if not isinstance(value, str) or isinstance(value, Placeholder):
        return None
    return json.loads(value)


def _union(args: list[Any]) -> Any:
    if args and all(isinstance(a, dict) for a in args):
        merged: dict[str, Any] = {}
        for a in args:
            merged.update(a)
        return merged
    if args and all(isinstance(a, list) for a in args):
        items: list[Any] = []
        for a in args:
            for i in a:
                spend(len(items))  # one unit a comparison: duplicates are found pairwise
                if i not in items:
                    items.append(i)
        return items
    return None


def _intersection(args: list[Any]) -> Any:
    if args and all(isinstance(a, dict) for a in args):
        return {k: v for k, v in args[0].items() if all(b.get(k) == v for b in args[1:])}
    if args and all(isinstance(a, list) for a in args):
        spend(len(args[0]) * sum(len(b) for b in args[1:]))  # the comparisons
        return [i for i in args[0] if all(i in b for b in args[1:])]
    return None


def _create_object(args: list[Any]) -> Any:
    if len(args) % 2 or not all(isinstance(k, str) for k in args[::2]):
        return None
    return dict(zip(args[::2], args[1::2], strict=True))


def _contains(args: list[Any]) -> Any:
    container, item = args
    if _unknown(item) or isinstance(container, Placeholder) or container is None:
        return None
    if isinstance(container, str):
        return isinstance(item, str) and item.lower() in container.lower()
    if isinstance(container, dict):
        return isinstance(item, str) and _lookup(container, item) is not None
    if isinstance(container, list):
        return item in container
    return None


def _empty(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, Placeholder):
        return None
    return value is None or (isinstance(value, str | list | dict) and len(value) == 0)


def _end(at: int) -> Callable[[list[Any]], Any]:
    def end(args: list[Any]) -> Any:
        (value,) = args
        if isinstance(value, Placeholder) or not isinstance(value, str | list) or not value:
            return None
        return value[at]

    return end


def _substring(args: list[Any]) -> Any:
    text, start, *rest = args
    if not isinstance(text, str) or not _is_integer(start) or start < 0:
        return None
    length = rest[0] if rest else len(text) - start
    if not _is_integer(length) or length < 0 or start + length > len(text):
        return None
    return _string_result(text[start : start + length], text)


def _string_function(apply: Callable[..., str]) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        if not all(isinstance(a, str) for a in args):
            return None
        return _string_result(apply(*args), *args)

    return function


def _replace(args: list[Any]) -> Any:
    if len(args) != 3 or not all(isinstance(a, str) for a in args):
        return None
    text, old, new = args
    spend(text_units(len(text) + text.count(old) * (len(new) - len(old))))
    return _string_result(text.replace(old, new), *args)


def _split(args: list[Any]) -> Any:
    text, delimiters = args
    if not isinstance(text, str) or isinstance(text, Placeholder):
        return None
    if isinstance(delimiters, str):
        delimiters = [delimiters]
    if not isinstance(delimiters, list) or not all(isinstance(d, str) and d for d in delimiters):
        return None
    return re.split("|".join(re.escape(d) for d in delimiters), text)


def _join(args: list[Any]) -> Any:
    items, delimiter = args
    if not isinstance(items, list) or not isinstance(delimiter, str):
        return None
    texts = [_text(i) for i in items]
    if any(t is None for t in texts):
        return None
    size = sum(len(t) for t in texts if t is not None) + len(delimiter) * max(len(texts) - 1, 0)
    spend(text_units(size))
    return _string_result(delimiter.join(t for t in texts if t is not None), *items)


_INT64 = range(-(2**63), 2**63)


def _arithmetic(apply: Callable[[int, int], int]) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        left, right = args
        if not (_is_integer(left) and _is_integer(right)):
            return None
        if left not in _INT64 or right not in _INT64:
            return None
        result = apply(left, right)
        return result if result in _INT64 else None

    return function


def _divide(left: int, right: int) -> int:
    quotient = abs(left) // abs(right)  # .NET truncates towards zero
    return quotient if (left >= 0) == (right >= 0) else -quotient


def _remainder(left: int, right: int) -> int:
    return left - right * _divide(left, right)


def _extreme(pick: Callable[..., Any]) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        values = args[0] if len(args) == 1 and isinstance(args[0], list) else args
        if not values or not all(_is_integer(v) for v in values):
            return None
        return pick(values)

    return function


def _take(args: list[Any], keep_start: bool) -> Any:
    value, count = args
    if not isinstance(value, str | list) or not _is_integer(count):
        return None
    count = max(0, count)
    return value[:count] if keep_start else value[count:]


def _range(args: list[Any]) -> Any:
    start, count = args
    if not (_is_integer(start) and _is_integer(count)) or not 0 <= count <= 10000:
        return None
    return list(range(start, start + count))


def _coalesce(args: list[Any]) -> Any:
    return next((a for a in args if a is not None), None)


def _pad_left(args: list[Any]) -> Any:
    value, width, *rest = args
    fill = rest[0] if rest else " "
    text = _text(value)
    if text is None or not _is_integer(width) or not isinstance(fill, str) or len(fill) != 1:
        return None
    spend(text_units(width))
    return _string_result(text.rjust(width, fill), value)


def _base64(args: list[Any]) -> Any:
    (value,) = args
    if not isinstance(value, str):
        return None
    return _string_result(base64.b64encode(value.encode()).decode(), value)


def _base64_to_string(args: list[Any]) -> Any:
    (value,) = args
    if not isinstance(value, str) or isinstance(value, Placeholder):
        return None
    return base64.b64decode(value, validate=True).decode()


def _index_of(last: bool) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        text, item = args
        if not isinstance(text, str) or not isinstance(item, str):
            return None
        if isinstance(text, Placeholder):
            return None
        folded, wanted = text.lower(), item.lower()
        return folded.rfind(wanted) if last else folded.find(wanted)

    return function


def _affix(test: str) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        text, affix = args
        if isinstance(text, Placeholder) or not isinstance(text, str):
            return None
        if not isinstance(affix, str):
            return None
        return getattr(text.lower(), test)(affix.lower())

    return function


def _uri(args: list[Any]) -> Any:
    """``uri(baseUri, relativeUri)`` as Azure documents it: after a base ending in ``/``
    the relative URI is appended (one ``/`` where both have one); otherwise the base
    loses everything after its last ``/`` (none but the scheme's ``//``: nothing)."""
    if len(args) != 2 or not all(isinstance(a, str) for a in args):
        return None
    base, relative = args
    if not base.endswith("/"):
        _, scheme_slashes, rest = base.partition("//")
        if "/" in (rest if scheme_slashes else base):
            base = base[: base.rfind("/") + 1]
    if base.endswith("/") and relative.startswith("/"):
        relative = relative[1:]
    return _string_result(base + relative, *args)


def _uri_component(args: list[Any]) -> Any:
    """``uriComponent(text)``: percent-encoded as JavaScript's ``encodeURIComponent``."""
    if len(args) != 1 or not isinstance(args[0], str):
        return None
    return _string_result(urllib.parse.quote(args[0], safe="!'()*-._~"), args[0])


def _uri_component_to_string(args: list[Any]) -> Any:
    """``uriComponentToString(text)``: percent-decoded."""
    if len(args) != 1 or not isinstance(args[0], str):
        return None
    return _string_result(urllib.parse.unquote(args[0]), args[0])


_FUNCTIONS: dict[str, Callable[[list[Any]], Any]] = {
    "concat": _concat,
    "uri": _uri,
    "uricomponent": _uri_component,
    "uricomponenttostring": _uri_component_to_string,
    "format": _format,
    "tolower": _string_function(str.lower),
    "toupper": _string_function(str.upper),
    "trim": _string_function(str.strip),
    "replace": _replace,
    "substring": _substring,
    "split": _split,
    "join": _join,
    "padleft": _pad_left,
    "startswith": _affix("startswith"),
    "endswith": _affix("endswith"),
    "indexof": _index_of(last=False),
    "lastindexof": _index_of(last=True),
    "base64": _base64,
    "base64tostring": _base64_to_string,
    "equals": _equals,
    "not": _not,
    "and": _logical(all),
    "or": _logical(any),
    "less": _compare(lambda a, b: a < b),
    "lessorequals": _compare(lambda a, b: a <= b),
    "greater": _compare(lambda a, b: a > b),
    "greaterorequals": _compare(lambda a, b: a >= b),
    "true": lambda args: True if not args else None,
    "false": lambda args: False if not args else None,
    "null": lambda args: None,
    "length": _length,
    "string": _string,
    "int": _int,
    "bool": _bool,
    "json": _json,
    "array": lambda args: args[0] if isinstance(args[0], list) else [args[0]],
    "union": _union,
    "intersection": _intersection,
    "createarray": list,
    "createobject": _create_object,
    "contains": _contains,
    "empty": _empty,
    "first": _end(0),
    "last": _end(-1),
    "take": lambda args: _take(args, keep_start=True),
    "skip": lambda args: _take(args, keep_start=False),
    "range": _range,
    "coalesce": _coalesce,
    "add": _arithmetic(lambda a, b: a + b),
    "sub": _arithmetic(lambda a, b: a - b),
    "mul": _arithmetic(lambda a, b: a * b),
    "div": _arithmetic(_divide),
    "mod": _arithmetic(_remainder),
    "min": _extreme(min),
    "max": _extreme(max),
}
"""Functions of evaluated arguments; a wrong number or kind of arguments gives null."""


def evaluate_text(text: str, scope: TemplateScope | None = None) -> Any:
    """The value of one template string (an expression or plain text), with
    placeholders made ordinary strings; for tests and tools."""
    evaluator = Evaluator(scope or TemplateScope({}, {}))
    return plain(evaluator.evaluate(text))
