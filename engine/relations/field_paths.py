"""Field paths into resource objects, as ``snyk.relation_from_fields`` takes them.

A path is dotted names with optional array steps: ``bucket``,
``spec.selector.app``, ``rule[*].bucket``, ``ingress[0].cidr_blocks[*]`` (a
leading ``.`` is allowed). A name steps into an object; ``[N]`` takes
element N of an array; ``[*]`` takes every element of an array. A path
names no value where a step does not apply (a missing key, a name on a
non-object, an index out of range).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\*|[0-9]+)\]|(\.)")

EVERY = None
"""The ``[*]`` step."""

Step = str | int | None
"""A name (object key), an array index, or :data:`EVERY`."""


class FieldPathError(ValueError):
    """A field path that cannot be parsed."""


@dataclass(frozen=True)
class FieldPath:
    """A parsed field path."""

    text: str
    steps: tuple[Step, ...]


def parse_field_path(text: str) -> FieldPath:
    """Parse ``text``; raises :class:`FieldPathError` when it is not a path."""
    steps: list[Step] = []
    pos = 0
    expect_name = True
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise FieldPathError(f"bad field path {text!r} at offset {pos}")
        name, index, dot = match.groups()
        if dot is not None:
            if pos == 0:
                pos = match.end()  # a leading '.', as in ".spec.selector"
                continue
            if expect_name:
                raise FieldPathError(f"bad field path {text!r}: empty name at offset {pos}")
            expect_name = True
        elif name is not None:
            if not expect_name:
                raise FieldPathError(f"bad field path {text!r}: missing '.' at offset {pos}")
            steps.append(name)
            expect_name = False
        else:
            if not steps:
                raise FieldPathError(f"bad field path {text!r}: it starts with an index")
            steps.append(EVERY if index == "*" else int(index))
            expect_name = False
        pos = match.end()
    if not steps or expect_name:
        raise FieldPathError(f"bad field path {text!r}")
    return FieldPath(text, tuple(steps))


def values_at(value: Any, path: FieldPath) -> list[Any]:
    """Every value ``path`` names in ``value``, in document order."""
    current = [value]
    for step in path.steps:
        following: list[Any] = []
        for v in current:
            if isinstance(step, str):
                if isinstance(v, dict) and step in v:
                    following.append(v[step])
            elif isinstance(v, list):
                if step is EVERY:
                    following.extend(v)
                elif step < len(v):
                    following.append(v[step])
        current = following
        if not current:
            break
    return current
