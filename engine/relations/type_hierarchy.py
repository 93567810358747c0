"""Resource types with supertypes (seed 002's parent types).

``rego/lib/type_hierarchy.json`` maps, per input type (or the aggregate
``tf``), each resource type to its direct supertypes. A type *is* each of its
ancestors (transitively), so ``snyk.resources("workload")`` on a Kubernetes
input returns every Deployment, Pod, Job... A cycle makes aliases:
``aws_lb`` and ``aws_alb`` each list the other, so asking for either returns
both. The same file is data for the test-mode API (``rego/lib/test/snyk.rego``
reads ``data.rego_engine.type_hierarchy``). Everything but :func:`load` is pure.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from engine.core.paths import REGO_LIB_DIR
from engine.rules.metadata import accepts_input_type

HIERARCHY_FILE = REGO_LIB_DIR / "type_hierarchy.json"

Hierarchy = Mapping[str, Mapping[str, list[str]]]
"""input type (or aggregate) → resource type → direct supertypes."""


class HierarchyError(ValueError):
    """The hierarchy file is malformed."""


def parse(doc: object, where: str = "type hierarchy") -> dict[str, dict[str, list[str]]]:
    """The hierarchy in ``doc`` (``{"rego_engine": {"type_hierarchy": ...}}``), checked."""
    body = doc.get("rego_engine", {}) if isinstance(doc, dict) else None
    body = body.get("type_hierarchy") if isinstance(body, dict) else None
    if not isinstance(body, dict):
        raise HierarchyError(f"{where}: expected rego_engine.type_hierarchy, an object")
    out: dict[str, dict[str, list[str]]] = {}
    for input_type, types in body.items():
        if not isinstance(types, dict) or not all(
            isinstance(s, list) and all(isinstance(x, str) for x in s) for s in types.values()
        ):
            raise HierarchyError(f"{where}: {input_type} must map types to arrays of supertypes")
        out[input_type] = {t: list(s) for t, s in types.items()}
    return out


@cache
def load(path: Path = HIERARCHY_FILE) -> dict[str, dict[str, list[str]]]:
    """The shipped hierarchy."""
    return parse(json.loads(path.read_text(encoding="utf-8")), str(path))


def supertypes_for(hierarchy: Hierarchy, input_type: str) -> dict[str, set[str]]:
    """Direct supertypes of each type, for one input type (sections merged)."""
    out: dict[str, set[str]] = {}
    for section, types in sorted(hierarchy.items()):
        if accepts_input_type(section, input_type):
            for rtype, supers in types.items():
                out.setdefault(rtype, set()).update(supers)
    return out


def ancestors(direct: Mapping[str, set[str]], rtype: str) -> set[str]:
    """``rtype`` and every type it inherits from (cycles are aliases)."""
    seen = {rtype}
    todo = [rtype]
    while todo:
        for parent in direct.get(todo.pop(), ()):
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return seen


def members(direct: Mapping[str, set[str]], present: Iterable[str]) -> dict[str, list[str]]:
    """For each type asked for that is more than itself: the present types it
    covers, sorted (only entries that differ from ``[type]`` are returned)."""
    covered: dict[str, set[str]] = {}
    for rtype in present:
        for ancestor in ancestors(direct, rtype):
            covered.setdefault(ancestor, set()).add(rtype)
    return {name: sorted(types) for name, types in sorted(covered.items()) if types != {name}}


def covered_types(input_type: str, present: list[str], resource_type: str) -> list[str]:
    """The present types a query for ``resource_type`` returns, in order (the
    order of :meth:`engine.relations.snyk_api.SnykApi` query answers)."""
    direct = supertypes_for(load(), input_type)
    return members(direct, present).get(resource_type, [resource_type])
