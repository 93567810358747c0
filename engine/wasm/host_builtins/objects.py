"""Object builtins answered by the host: ``object.subset`` (OPA's
``topdown/subset.go``), which the Wasm runtime leaves to the host, and
``object.union_n`` (``topdown/object.go``), routed to it
(:mod:`engine.wasm.builtin_routing`)."""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set, compare, freeze, type_name


def _equal(a: Any, b: Any) -> bool:
    return compare(a, b) == 0


def _array_subset(sup: list[Any], sub: list[Any]) -> bool:
    """Whether ``sub`` occurs in ``sup`` as a contiguous run of equal elements."""
    if not sub:
        return True
    context = current_context()
    for start in range(len(sup) - len(sub) + 1):
        context.check_time()  # every offset is tried: quadratic in the arrays
        if all(_equal(sup[start + k], item) for k, item in enumerate(sub)):
            return True
    return False


def _set_subset(sup: Set, sub: Set) -> bool:
    return all(item in sup for item in sub)


def _object_subset(sup: dict[Any, Any], sub: dict[Any, Any]) -> bool:
    lookup = {freeze(key): value for key, value in sup.items()}
    for key, sub_value in sub.items():
        frozen = freeze(key)
        if frozen not in lookup:
            return False
        sup_value = lookup[frozen]
        if isinstance(sup_value, dict) and isinstance(sub_value, dict):
            if not _object_subset(sup_value, sub_value):
                return False
        elif isinstance(sup_value, Set) and isinstance(sub_value, Set):
            if not _set_subset(sup_value, sub_value):
                return False
        elif isinstance(sup_value, list) and isinstance(sub_value, list):
            if not _array_subset(sup_value, sub_value):
                return False
        elif not _equal(sup_value, sub_value):
            return False
    return True


@register("object.subset")
def object_subset(sup: Any, sub: Any) -> bool:
    """Whether ``sub`` is contained in ``sup``.

    Objects: recursively (nested objects, sets and arrays by the same rules,
    other values by equality); sets: membership; arrays: ``sub`` is a
    contiguous run of ``sup``; an array ``sup`` with a set ``sub``: membership.
    """
    if isinstance(sup, dict) and isinstance(sub, dict):
        return _object_subset(sup, sub)
    if isinstance(sup, Set) and isinstance(sub, Set):
        return _set_subset(sup, sub)
    if isinstance(sup, list) and isinstance(sub, list):
        return _array_subset(sup, sub)
    if isinstance(sup, list) and isinstance(sub, Set):
        if not sup:  # OPA: an empty array has no subsets, not even set()
            return False
        context = current_context()
        for item in sub:
            context.check_time()  # every pair is compared: quadratic in the operands
            if not any(_equal(x, item) for x in sup):
                return False
        return True
    raise BuiltinError(
        "object.subset: both arguments must be objects, sets, or arrays "
        f"(or an array and a set), got {type_name(sup)} and {type_name(sub)}"
    )


def _union(a: dict[Any, Any], b: dict[Any, Any]) -> dict[Any, Any]:
    """``object.union(a, b)``: ``b``'s keys win, objects under a key both hold merged."""
    merged = {freeze(key): (key, value) for key, value in a.items()}
    for key, value in b.items():
        frozen = freeze(key)
        if frozen in merged:
            old = merged[frozen][1]
            if isinstance(old, dict) and isinstance(value, dict):
                value = _union(old, value)
        merged[frozen] = (key, value)
    return dict(merged.values())


@register("object.union_n")
def object_union_n(objects: Any) -> dict[Any, Any]:
    """The objects of an array merged left to right as ``object.union`` merges two
    (``{}`` for none: topdown's answer, where OPA's Wasm library is undefined)."""
    if not isinstance(objects, list):
        raise BuiltinError(f"object.union_n: operand 1 must be array but got {type_name(objects)}")
    result: dict[Any, Any] = {}
    for item in objects:
        current_context().check_time()
        if not isinstance(item, dict):
            raise BuiltinError(
                f"object.union_n: operand 1 must be array of objects but got {type_name(item)}"
            )
        result = _union(result, item)
    return result
