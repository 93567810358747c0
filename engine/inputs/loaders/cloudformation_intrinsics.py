"""CloudFormation intrinsic functions and conditions, evaluated at load time.

Only what a template itself determines is evaluated: parameters take their
``Default``, else the first of their ``AllowedValues``; ``Ref`` and
``Fn::GetAtt`` to a resource give its logical id; pseudo parameters
(``AWS::Region`` ...), parameters with neither and undeclared names give
their own names; mappings and conditions are looked up. ``Fn::Sub`` and
``Fn::Join`` build their strings from those values
(``!Sub "0.0.0.0/${Mask}"`` with ``Mask`` defaulting to ``0`` is
``"0.0.0.0/0"``). Values known only at deployment (``Fn::GetAZs``,
``Fn::ImportValue``, ``Fn::Cidr``, ``Fn::Transform``, SSM parameter types)
are null, and so is anything built from a null. A condition that depends on
a pseudo parameter, a resource or a null is unknown (None): ``Fn::If`` on it
is null. Whether a resource is deployed is asked with
:meth:`Evaluator.deployed`, for which a parameter's value is unknown too: the
deployer may give any value, so a condition on a parameter never removes a
resource.

Evaluation spends from the budget of :mod:`engine.inputs.loaders.evaluation_budget`:
one unit per intrinsic, and what a ``Ref`` or ``Fn::FindInMap`` copies into the
State and what ``Fn::Join``, ``Fn::Sub``, ``Fn::Base64`` and ``Fn::ToJsonString``
build, charged before it is built (2,000 ``Ref`` s to one long parameter would
otherwise make gigabytes from a small template).
"""

from __future__ import annotations

import base64
import datetime
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.inputs.loaders.evaluation_budget import spend, spend_for_json, text_units
from engine.inputs.loaders.loaded import ResolvedReference
from engine.inputs.source_map import AttributePath

PSEUDO_PARAMETERS = frozenset(
    {
        *("AWS::AccountId", "AWS::NotificationARNs", "AWS::NoValue", "AWS::Partition"),
        *("AWS::Region", "AWS::StackId", "AWS::StackName", "AWS::URLSuffix"),
    }
)

_SSM_TYPE = "AWS::SSM::Parameter::Value<"

CONDITION_FUNCTIONS = frozenset({"Fn::And", "Fn::Equals", "Fn::Not", "Fn::Or"})


class Symbolic(str):
    """A string that stands for a value known only at deployment: a pseudo
    parameter's name, a resource's logical id, or text built from them."""


class _NoValue:
    """``AWS::NoValue``: the property (or list item) holding it is removed."""

    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE = _NoValue()


class UnknownIntrinsic(Exception):
    """A ``Fn::`` function CloudFormation does not have."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


@dataclass(frozen=True)
class Site:
    """Where an intrinsic is being evaluated: the attribute of a resource."""

    resource_type: str
    key: str
    path: AttributePath
    pinned: bool = False
    """Inside an intrinsic's arguments: everything is at the intrinsic's path."""
    via: str | None = None
    """The intrinsic a reference is made through (``Sub``), when not its own."""

    def child(self, step: str | int) -> Site:
        if self.pinned:
            return self
        return Site(self.resource_type, self.key, (*self.path, step))

    def pinned_here(self) -> Site:
        """This site, pinned: what an intrinsic's arguments are evaluated at."""
        if self.pinned:
            return self
        return Site(self.resource_type, self.key, self.path, True, self.via)


@dataclass(frozen=True)
class Template:
    """What intrinsics can look up in a template."""

    parameters: dict[str, Any]
    """Each parameter's value for ``Ref``: its default (a list for list types)."""
    resource_types: dict[str, str]
    """Logical id → type, of every resource of the template."""
    present: frozenset[str]
    """Logical ids of the resources in the State (their condition not false)."""
    mappings: dict[str, Any]
    conditions: dict[str, Any]


def parameter_value(declaration: Any, name: str) -> Any:
    """The value ``Ref`` gives for the parameter ``name``: its ``Default``, else
    the first of its ``AllowedValues``, else its own name (a value the deployer
    supplies, like a pseudo parameter), as snyk's loader gives them; split for
    ``CommaDelimitedList`` and ``List<...>`` types; null for SSM parameter types."""
    if not isinstance(declaration, dict):
        return None
    kind = declaration.get("Type")
    default = declaration.get("Default")
    allowed = declaration.get("AllowedValues")
    if default is None and isinstance(allowed, list) and allowed:
        default = allowed[0]
    if default is None and not (isinstance(kind, str) and kind.startswith(_SSM_TYPE)):
        return Symbolic(name)
    if not isinstance(kind, str) or default is None:
        return default
    if kind.startswith(_SSM_TYPE):
        return None
    if kind == "CommaDelimitedList" or kind.startswith("List<"):
        if isinstance(default, str):
            return [item.strip() for item in default.split(",")]
        return default if isinstance(default, list) else None
    return default


def is_intrinsic(value: Any) -> bool:
    """Whether ``value`` is an intrinsic function call (``Ref`` or ``Fn::``)."""
    if not isinstance(value, dict) or len(value) != 1:
        return False
    (name,) = value
    return isinstance(name, str) and (name == "Ref" or name.startswith("Fn::"))


def plain(value: Any) -> Any:
    """``value`` as JSON: :class:`Symbolic` strings made ordinary, YAML
    timestamps ISO 8601 strings, keys strings; what JSON cannot hold null."""
    kind = type(value)  # the common exact types first, then their subclasses
    if kind is str:
        return value
    if kind is dict:
        return {
            k if isinstance(k, str) else _key_text(k): v if type(v) is str else plain(v)
            for k, v in value.items()
        }
    if kind is list:
        return [v if type(v) is str else plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {k if isinstance(k, str) else _key_text(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, bool | int | float):
        return value
    return None


def _key_text(key: Any) -> str:
    if isinstance(key, datetime.date):
        return key.isoformat()
    return _text(key) or str(key)


def _unknown(value: Any) -> bool:
    if value is None or value is NO_VALUE or isinstance(value, Symbolic):
        return True
    if isinstance(value, dict):
        return any(_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(_unknown(v) for v in value)
    return False


def _text(value: Any) -> str | None:
    """A scalar as CloudFormation writes it into a string; None otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return None


def _comparable(value: Any) -> Any:
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    text = _text(value)
    return text if text is not None else value


def _joined(parts: list[str], symbolic: bool) -> str:
    text = "".join(parts)
    return Symbolic(text) if symbolic else text


_SUB_VARIABLE = re.compile(r"\$\{([^}]*)\}")


@dataclass
class Evaluator:
    """Evaluates the intrinsics of one template; resolutions of ``Ref``,
    ``Fn::GetAtt`` and ``Fn::Sub`` to a resource of the State are appended
    to ``references``."""

    template: Template
    references: list[ResolvedReference] = field(default_factory=list)
    parameters_known: bool = True
    """False while deciding whether a resource is deployed: a parameter's
    ``Default`` is not the value it is deployed with."""
    _conditions: dict[str, bool | None] = field(default_factory=dict)
    _deployment_conditions: dict[str, bool | None] = field(default_factory=dict)

    # ------------------------------------------------------------ values

    def evaluate(self, value: Any, site: Site | None) -> Any:
        """``value`` with its intrinsics evaluated; :data:`NO_VALUE` when it is
        ``AWS::NoValue``. ``site`` None: nothing is recorded."""
        if isinstance(value, dict):
            if len(value) == 1:
                ((name, argument),) = value.items()
                if isinstance(name, str) and (name == "Ref" or name.startswith("Fn::")):
                    if site is not None and name != "Fn::If":  # If's branch is the value itself
                        site = site.pinned_here()
                    return self._call(name, argument, site)
            out: dict[str, Any] = {}
            for key, item in value.items():
                if isinstance(item, dict | list):  # anything else is its own value
                    item = self.evaluate(item, site.child(key) if site is not None else None)
                if item is not NO_VALUE:
                    out[key] = item
            return out
        if isinstance(value, list):
            items: list[Any] = []
            for item in value:
                if isinstance(item, dict | list):
                    item = self.evaluate(item, site.child(len(items)) if site is not None else None)
                if item is not NO_VALUE:
                    items.append(item)
            return items
        return value

    def _call(self, name: str, argument: Any, site: Site | None) -> Any:
        spend(1)
        if name in CONDITION_FUNCTIONS:
            return self.condition_value({name: argument})
        function = _FUNCTIONS.get(name)
        if function is None:
            raise UnknownIntrinsic(name)
        return function(self, argument, site)

    def _record(self, site: Site | None, target: str, attribute: str | None, kind: str) -> None:
        if site is not None and target in self.template.present:
            self.references.append(
                ResolvedReference(
                    site.resource_type,
                    site.key,
                    site.path,
                    self.template.resource_types[target],
                    target,
                    attribute,
                    site.via or kind,
                )
            )

    def ref(self, name: Any, site: Site | None) -> Any:
        """What ``Ref`` to ``name`` gives: a parameter's value, else the name."""
        if not isinstance(name, str):
            return None
        if name == "AWS::NoValue":
            return NO_VALUE
        if name in PSEUDO_PARAMETERS:
            return Symbolic(name)
        if name in self.template.resource_types:
            self._record(site, name, None, "Ref")
            return Symbolic(name)
        if name not in self.template.parameters:
            return Symbolic(name)  # declared elsewhere (snyk's loader gives the name too)
        if not self.parameters_known:
            return Symbolic(name)
        value = self.template.parameters[name]
        spend_for_json(value)  # each reference is a copy in the State
        return value

    def get_att(self, resource: Any, attribute: Any, site: Site | None) -> Any:
        """What ``Fn::GetAtt`` gives: the resource's logical id."""
        if not isinstance(resource, str) or resource not in self.template.resource_types:
            return None
        self._record(site, resource, attribute if isinstance(attribute, str) else None, "GetAtt")
        return Symbolic(resource)

    # -------------------------------------------------------- conditions

    def condition(self, name: Any) -> bool | None:
        """The value of the named condition; None when unknown (or undefined)."""
        if not isinstance(name, str) or name not in self.template.conditions:
            return None
        memo = self._conditions if self.parameters_known else self._deployment_conditions
        if name not in memo:
            memo[name] = None  # a cycle is unknown
            memo[name] = self.condition_value(self.template.conditions[name])
        return memo[name]

    def deployed(self, name: Any) -> bool | None:
        """Whether a resource with the condition ``name`` is deployed, whatever
        values the deployer gives the parameters: None when that depends on them
        (or on anything else known only at deployment)."""
        self.parameters_known = False
        try:
            return self.condition(name)
        finally:
            self.parameters_known = True

    def condition_value(self, expression: Any) -> bool | None:
        """The value of a condition expression; None when unknown."""
        if isinstance(expression, bool):
            return expression
        if not isinstance(expression, dict) or len(expression) != 1:
            return None
        ((name, argument),) = expression.items()
        if name == "Condition":
            return self.condition(argument)
        if name == "Fn::Equals":
            if not isinstance(argument, list) or len(argument) != 2:
                return None
            left, right = (self.evaluate(a, None) for a in argument)
            if _unknown(left) or _unknown(right):
                return None
            return bool(_comparable(left) == _comparable(right))
        if name in ("Fn::And", "Fn::Or", "Fn::Not"):
            if not isinstance(argument, list) or not argument:
                return None
            values = [self.condition_value(a) for a in argument]
            if name == "Fn::Not":
                return None if len(values) != 1 or values[0] is None else not values[0]
            decisive = name == "Fn::Or"  # the value that settles Or (And: False)
            if decisive in values:
                return decisive
            return None if None in values else not decisive
        if is_intrinsic(expression):
            self._call(name, argument, None)  # an unknown function is still an error
        return None

    # --------------------------------------------------------- functions

    def _if(self, argument: Any, site: Site | None) -> Any:
        if not isinstance(argument, list) or len(argument) != 3:
            return None
        chosen = self.condition(argument[0])
        if chosen is None:
            return None
        return self.evaluate(argument[1] if chosen else argument[2], site)

    def _ref(self, argument: Any, site: Site | None) -> Any:
        return self.ref(argument, site)

    def _get_att(self, argument: Any, site: Site | None) -> Any:
        if isinstance(argument, str):
            resource, _, attribute = argument.partition(".")
            return self.get_att(resource, attribute, site)
        if isinstance(argument, list) and len(argument) == 2:
            attribute = self.evaluate(argument[1], None)
            return self.get_att(argument[0], attribute, site)
        return None

    def _sub(self, argument: Any, site: Site | None) -> Any:
        variables: Any = {}
        if isinstance(argument, list) and len(argument) == 2:
            argument, variables = argument
        if not isinstance(argument, str) or not isinstance(variables, dict):
            return None
        if site is not None:
            site = replace(site, via="Sub")
        parts: list[str] = []
        symbolic = False
        position = 0
        for found in _SUB_VARIABLE.finditer(argument):
            parts.append(argument[position : found.start()])
            position = found.end()
            name = found.group(1).strip()
            if name.startswith("!"):
                parts.append("${" + name[1:] + "}")
                continue
            value = self._sub_variable(name, variables, site)
            text = _text(value)
            if text is None:
                return None
            symbolic = symbolic or isinstance(value, Symbolic)
            parts.append(text)
        parts.append(argument[position:])
        spend(text_units(sum(map(len, parts))))
        return _joined(parts, symbolic)

    def _sub_variable(self, name: str, variables: dict[str, Any], site: Site | None) -> Any:
        if name in variables:
            return self.evaluate(variables[name], site)
        resource, dot, attribute = name.partition(".")
        if dot and resource in self.template.resource_types:
            return self.get_att(resource, attribute, site)
        return self.ref(name, site)

    def _join(self, argument: Any, site: Site | None) -> Any:
        if not isinstance(argument, list) or len(argument) != 2:
            return None
        delimiter, items = argument[0], self.evaluate(argument[1], site)
        if not isinstance(delimiter, str) or not isinstance(items, list):
            return None
        texts = [_text(item) for item in items]
        if any(text is None for text in texts):
            return None
        symbolic = any(isinstance(item, Symbolic) for item in items)
        size = sum(len(t) for t in texts if t is not None) + len(delimiter) * max(len(texts) - 1, 0)
        spend(text_units(size))
        return _joined([delimiter.join(t for t in texts if t is not None)], symbolic)

    def _select(self, argument: Any, site: Site | None) -> Any:
        if not isinstance(argument, list) or len(argument) != 2:
            return None
        index, items = self.evaluate(argument[0], None), self.evaluate(argument[1], site)
        if isinstance(index, str) and index.isdigit():
            index = int(index)
        if isinstance(index, bool) or not isinstance(index, int) or not isinstance(items, list):
            return None
        return items[index] if 0 <= index < len(items) else None

    def _split(self, argument: Any, site: Site | None) -> Any:
        if not isinstance(argument, list) or len(argument) != 2:
            return None
        delimiter, source = argument[0], self.evaluate(argument[1], site)
        if not isinstance(delimiter, str) or not delimiter or not isinstance(source, str):
            return None
        wrap = Symbolic if isinstance(source, Symbolic) else str
        return [wrap(part) for part in source.split(delimiter)]

    def _find_in_map(self, argument: Any, site: Site | None) -> Any:
        if not isinstance(argument, list) or len(argument) not in (3, 4):
            return None
        keys = [self.evaluate(a, None) for a in argument[:3]]
        found: Any = self.template.mappings
        for key in keys:
            text = _text(key)
            if isinstance(key, Symbolic) or text is None or not isinstance(found, dict):
                found = None
                break
            found = found.get(text)
        if found is None and len(argument) == 4 and isinstance(argument[3], dict):
            return self.evaluate(argument[3].get("DefaultValue"), site)
        spend_for_json(found)  # each lookup is a copy in the State
        return self.evaluate(found, site) if found is not None else None

    def _base64(self, argument: Any, site: Site | None) -> Any:
        value = self.evaluate(argument, site)
        if not isinstance(value, str):
            return None
        spend(text_units(len(value) * 4 // 3))
        encoded = base64.b64encode(value.encode()).decode()
        return Symbolic(encoded) if isinstance(value, Symbolic) else encoded

    def _length(self, argument: Any, site: Site | None) -> Any:
        value = self.evaluate(argument, site)
        return len(value) if isinstance(value, list) else None

    def _to_json_string(self, argument: Any, site: Site | None) -> Any:
        value = self.evaluate(argument, site)
        if not isinstance(value, dict | list):
            return None
        spend_for_json(value)
        return json.dumps(plain(value), separators=(",", ":"), ensure_ascii=False)

    def _unresolvable(self, argument: Any, site: Site | None) -> Any:
        self.evaluate(argument, None)  # unknown functions inside are still errors
        return None


_FUNCTIONS: dict[str, Callable[[Evaluator, Any, Site | None], Any]] = {
    "Ref": Evaluator._ref,
    "Fn::GetAtt": Evaluator._get_att,
    "Fn::Sub": Evaluator._sub,
    "Fn::Join": Evaluator._join,
    "Fn::Select": Evaluator._select,
    "Fn::Split": Evaluator._split,
    "Fn::If": Evaluator._if,
    "Fn::FindInMap": Evaluator._find_in_map,
    "Fn::Base64": Evaluator._base64,
    "Fn::Length": Evaluator._length,
    "Fn::ToJsonString": Evaluator._to_json_string,
    "Fn::GetAZs": Evaluator._unresolvable,
    "Fn::ImportValue": Evaluator._unresolvable,
    "Fn::Cidr": Evaluator._unresolvable,
    "Fn::Transform": Evaluator._unresolvable,
}
"""Every intrinsic CloudFormation evaluates in resource properties."""
