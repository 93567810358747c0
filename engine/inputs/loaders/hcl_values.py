"""The HCL evaluator's values: plain values (None, bool, int, float, str, list,
dict), values resolved one attribute at a time (:class:`Traversable`: ``var``,
resources, modules), the address a reference to an unwritten attribute gives, the
context names are resolved in, and the error that means "no value"."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from lark import Tree

from engine.inputs.loaders.evaluation_budget import BudgetExhausted
from engine.inputs.loaders.hcl_functions import (
    FUNCTIONS,
    FunctionError,
)


class EvaluationError(Exception):
    """An expression has no value here (unknown name, type error, unknown function...)."""


NO_VALUE = (EvaluationError, FunctionError, BudgetExhausted)
"""The exceptions that mean "this expression has no value" (the budget spent: the
loader reports the limit); anything else is a bug."""


class Traversable:
    """A value resolved one attribute or index at a time."""

    def attribute(self, name: str) -> Any:
        """The value of ``.name``."""
        raise EvaluationError(f"no attribute {name!r}")

    def index(self, key: Any) -> Any:
        """The value of ``[key]``."""
        raise EvaluationError("not indexable")

    def materialize(self) -> Any:
        """The plain value this stands for when used whole."""
        raise EvaluationError("not a value")


class ResourceHandle(Traversable):
    """A resource instance; accessing its attributes is recorded as a reference."""

    resource_type: str
    key: str


class ResourceAddress(str):
    """What a reference to an unset resource attribute evaluates to: the resource's
    address, remembering the resource and attribute (so that a reference passed
    through variables, locals and module outputs can still be recorded)."""

    target: ResourceHandle
    target_attribute: str | None

    @classmethod
    def of(cls, target: ResourceHandle, attribute: str | None) -> ResourceAddress:
        """The address of ``target``, read as its ``attribute``."""
        address = cls(target.key)
        address.target = target
        address.target_attribute = attribute
        return address


def plain(value: Any, found: list[ResourceAddress]) -> Any:
    """``value`` with every :class:`ResourceAddress` made a plain string (and collected)."""
    if isinstance(value, ResourceAddress):
        found.append(value)
        return str(value)
    if isinstance(value, list):
        return [plain(v, found) for v in value]
    if isinstance(value, dict):
        return {k: plain(v, found) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class JsonExpression:
    """An expression of the JSON syntax: a JSON value whose strings are templates."""

    value: Any


Expression = Tree | JsonExpression
"""An expression: a lark tree (native syntax) or a JSON-syntax value."""


ReferenceSink = Callable[[ResourceHandle, str | None], None]


@dataclass(frozen=True)
class Context:
    """What names mean while evaluating: root names, local bindings and functions."""

    resolve: Callable[[str], Any]
    """The value of a root name (``var``, ``local``, a resource type...); raises when unknown."""
    bindings: Mapping[str, Any] = field(default_factory=dict)
    """Names bound by ``for`` expressions, ``count``, ``each``, dynamic iterators."""
    on_reference: ReferenceSink | None = None
    functions: Mapping[str, Callable[..., Any]] = field(default_factory=lambda: FUNCTIONS)
    strict: bool = False
    """Inside ``try``/``can``: an element of a tuple or object that has no value makes the
    whole expression fail (as in Terraform) instead of becoming null."""

    def bind(self, names: Mapping[str, Any]) -> Context:
        """This context with more names bound."""
        return replace(self, bindings={**self.bindings, **names})

    def at(self, bindings: Mapping[str, Any], on_reference: ReferenceSink | None) -> Context:
        """This context with ``bindings`` in place of its own and references reported
        to ``on_reference`` (built directly: one per argument evaluated)."""
        return Context(self.resolve, bindings, on_reference, self.functions, self.strict)


def materialize(value: Any, context: Context | None = None) -> Any:
    """``value`` with every :class:`Traversable` replaced by its plain value."""
    if isinstance(value, Traversable):
        if isinstance(value, ResourceHandle) and context and context.on_reference:
            context.on_reference(value, None)
        return materialize(value.materialize(), context)
    if isinstance(value, list):
        return [materialize(v, context) for v in value]
    if isinstance(value, dict):
        return {k: materialize(v, context) for k, v in value.items()}
    return value
