"""Object builtins the Wasm runtime leaves to the host (OPA's ``topdown/subset.go``):
``object.subset``."""

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
