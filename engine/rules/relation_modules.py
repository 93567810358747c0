"""Relation modules as Rego text: the package they declare and the names they write.

Modules in ``package relations`` declare relations; the shipped ones are
compiled under their own package so that a user's relation of the same name
replaces the shipped one. The names each module writes literally tell users
which files define a relation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

RELATIONS_PACKAGE = "relations"
SHIPPED_RELATIONS_PACKAGE = "__rego_engine.shipped_relations"
"""The package shipped relation files are compiled under, so user names can replace them."""

_NAME_LITERAL = re.compile(
    r'"name"\s*:\s*"((?:[^"\\]|\\.)*)"|relation_from_fields\(\s*"((?:[^"\\]|\\.)*)"'
)
_TYPE_LIKE = re.compile(r"[a-z][a-z0-9]*_[a-z0-9_]+(\.[A-Za-z0-9_.\[\]*-]+)?")


def names_in_source(text: str) -> set[str]:
    """Relation names written as string literals in a relations module."""
    names = set()
    for a, b in _NAME_LITERAL.findall(text):
        try:
            names.add(json.loads(f'"{a or b}"'))
        except json.JSONDecodeError:
            continue
    return names


def follows_naming_convention(name: str, left_types: set[str]) -> bool:
    """Whether ``name`` is ``<type>`` or ``<type>.<attribute>`` (seed 000).

    ``<type>`` is one of the relation's left types when they are known, else
    anything shaped like a resource type (``aws_s3_bucket``).
    """
    if left_types:
        return any(name == t or name.startswith(t + ".") for t in left_types)
    return _TYPE_LIKE.fullmatch(name) is not None


@dataclass(frozen=True)
class RelationFiles:
    """The modules that declare relations, with the names each writes literally."""

    user: dict[str, frozenset[str]] = field(default_factory=dict)
    shipped: dict[str, frozenset[str]] = field(default_factory=dict)

    def defined_in(self, name: str, shipped: bool) -> tuple[str, ...]:
        """Files that declare ``name``: those writing it literally, else every file."""
        files = self.shipped if shipped else self.user
        named = tuple(sorted(f for f, names in files.items() if name in names))
        return named or tuple(sorted(files))
