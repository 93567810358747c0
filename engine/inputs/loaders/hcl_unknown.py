"""Values Terraform knows only after apply, as the HCL evaluator carries them.

An :class:`Unknown` stands for a value that a plan shows as ``(known after
apply)``: an attribute of a data source or of a resource that the
configuration does not write (where it decides how many instances there are),
or the result of an apply-time function (``uuid()``, ``timestamp()``). It is
an ordinary value, never an exception, and propagates as in Terraform's
``cty`` values:

- an operator with an unknown operand is unknown, except that ``false && x``
  and ``x && false`` are false, and ``true || x`` and ``x || true`` are true;
- a conditional whose condition is unknown is unknown;
- a function call with an unknown argument is unknown, except for the
  functions that only move values around (:data:`UNKNOWN_TRANSPARENT_FUNCTIONS`),
  which keep an unknown element where it is;
- a template interpolating an unknown value, an attribute or index of an
  unknown value, a ``for`` expression over one and an object with an unknown
  key are unknown; a tuple or object keeps an unknown element in its place.

A ``count`` or ``for_each`` that is unknown keeps its resource (one instance,
keyed as docs/inputs.md says, and marked). In a State an unknown value is
``null`` (:func:`known_or_null`), as every other value the loader cannot know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Unknown:
    """A value known only after apply; ``origin`` says what it comes from
    (``data.aws_vpc.main.id``, ``uuid()``)."""

    origin: str

    def __repr__(self) -> str:
        return f"Unknown({self.origin!r})"


def is_unknown(value: Any) -> bool:
    """Whether ``value`` itself is unknown (not whether it contains one)."""
    return isinstance(value, Unknown)


def contains_unknown(value: Any) -> bool:
    """Whether ``value`` is unknown or holds an unknown value at any depth."""
    if isinstance(value, Unknown):
        return True
    if isinstance(value, list):
        return any(contains_unknown(v) for v in value)
    if isinstance(value, dict):
        return any(contains_unknown(v) for v in value.values())
    return False


def first_unknown(values: Any) -> Unknown | None:
    """The first unknown value among ``values``, at any depth (None: all known)."""
    stack = [values]
    while stack:
        value = stack.pop()
        if isinstance(value, Unknown):
            return value
        if isinstance(value, list):
            stack.extend(reversed(value))
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())))
    return None


def known_or_null(value: Any) -> Any:
    """``value`` as a State holds it: every unknown value, at any depth, null."""
    if isinstance(value, Unknown):
        return None
    if isinstance(value, list):
        return [known_or_null(v) for v in value]
    if isinstance(value, dict):
        return {k: known_or_null(v) for k, v in value.items()}
    return value


def logical_with_unknown(operator: str, left: Any, right: Any) -> Any:
    """``left && right`` or ``left || right`` when one side is unknown and the
    other is a bool or unknown: the known side decides when it can, as in cty."""
    deciding = operator == "||"  # true decides ||, false decides &&
    for side in (left, right):
        if isinstance(side, bool) and side is deciding:
            return deciding
    unknown = left if isinstance(left, Unknown) else right
    return unknown


UNKNOWN_TRANSPARENT_FUNCTIONS = frozenset(
    {"coalescelist", "compact", "concat", "element", "flatten", "keys", "length", "lookup"}
    | {"merge", "one", "reverse", "slice", "tolist", "tomap", "toset", "values", "zipmap"}
)
"""Functions given an unknown element inside a list or map argument that keep it
in place (or do not read it) instead of becoming unknown: ``length([x, y])`` is 2
whatever ``x`` is, ``concat`` and ``merge`` carry it along. A top-level unknown
argument still makes their result unknown."""
