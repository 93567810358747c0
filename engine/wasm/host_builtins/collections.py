"""Collection builtins: ``object.subset``, ``numbers.range_step``,
``graph.reachable_paths``, the deprecated ``cast_*`` family, ``trace`` and
``rand.intn``.
"""

from __future__ import annotations

import math
import random
from decimal import Decimal
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set, compare, freeze, type_name

_RANDOM = random.SystemRandom()
_INT64_MAX = (1 << 63) - 1


def _equal(a: Any, b: Any) -> bool:
    return compare(a, b) == 0


def _integer(name: str, pos: int, value: Any) -> int:
    """An integral number operand; ``3.0`` counts as the integer 3, as in OPA."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise BuiltinError(f"{name}: operand {pos} must be number but got {type_name(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        raise BuiltinError(f"{name}: operand {pos} must be integer number")
    if value != int(value):
        raise BuiltinError(f"{name}: operand {pos} must be integer number but got floating-point")
    return int(value)


# ---------------------------------------------------------------- object.subset


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


# ---------------------------------------------------------------- numbers.range_step


@register("numbers.range_step")
def range_step(a: Any, b: Any, step: Any) -> list[int]:
    """Integers from ``a`` to ``b`` inclusive, ``step`` apart (descending when ``a > b``)."""
    start = _integer("numbers.range_step", 1, a)
    end = _integer("numbers.range_step", 2, b)
    delta = _integer("numbers.range_step", 3, step)
    if delta <= 0:
        raise BuiltinError("numbers.range_step: step must be a positive integer")
    current_context().check_result_size(abs(end - start) // delta + 1)
    if start <= end:
        return list(range(start, end + 1, delta))
    return list(range(start, end - 1, -delta))


# ---------------------------------------------------------------- graph.reachable_paths


def _vertices(value: Any) -> list[Any]:
    if isinstance(value, (list, Set)):
        return list(value)
    return []


def _paths_from(
    graph: dict[Any, Any],
    node: Any,
    path: list[Any],
    ancestors: frozenset[Any],
    out: list[list[Any]],
) -> None:
    context = current_context()
    context.check_time()
    context.check_result_size(len(out) + len(path))
    key = freeze(node)
    if key not in graph:
        if path:
            out.append(path)
        return
    path = [*path, node]
    children = _vertices(graph[key])
    if not children:
        out.append(path)
        return
    below = ancestors | {key}
    for child in children:
        if freeze(child) in ancestors:
            out.append(path)
        else:
            _paths_from(graph, child, path, below, out)


@register("graph.reachable_paths")
def reachable_paths(graph: Any, initial: Any) -> Set:
    """Paths from each vertex of ``initial``, each ending at a leaf, a missing vertex or a cycle.

    A vertex whose neighbour is missing from ``graph`` ends its path itself; a
    neighbour that is an ancestor of the vertex (a cycle) closes the path there.
    """
    if not isinstance(graph, dict):
        raise BuiltinError(
            f"graph.reachable_paths: operand 1 must be object but got {type_name(graph)}"
        )
    if not isinstance(initial, (list, Set)):
        raise BuiltinError(
            "graph.reachable_paths: operand 2 must be one of {set, array} "
            f"but got {type_name(initial)}"
        )
    lookup = {freeze(key): value for key, value in graph.items()}
    out: list[list[Any]] = []
    for root in initial:
        _paths_from(lookup, root, [], frozenset(), out)
    return Set(out)


# ---------------------------------------------------------------- deprecated casts


@register("cast_array")
def cast_array(x: Any) -> list[Any]:
    """An array as is, a set as an array of its members in order (deprecated)."""
    if isinstance(x, list):
        return x
    if isinstance(x, Set):
        return list(x)
    raise BuiltinError(f"cast_array: operand 1 must be array or set but got {type_name(x)}")


@register("cast_set")
def cast_set(x: Any) -> Set:
    """A set as is, an array as the set of its elements (deprecated)."""
    if isinstance(x, Set):
        return x
    if isinstance(x, list):
        return Set(x)
    raise BuiltinError(f"cast_set: operand 1 must be array or set but got {type_name(x)}")


def _cast(name: str, kind: str, check: Any) -> None:
    def fn(x: Any) -> Any:
        if not check(x):
            raise BuiltinError(f"{name}: operand 1 must be {kind} but got {type_name(x)}")
        return x

    fn.__name__ = name
    fn.__doc__ = f"The operand when it is a {kind}, else an error (deprecated)."
    register(name)(fn)


_cast("cast_boolean", "boolean", lambda x: isinstance(x, bool))
_cast("cast_null", "null", lambda x: x is None)
_cast("cast_object", "object", lambda x: isinstance(x, dict))
_cast("cast_string", "string", lambda x: isinstance(x, str))


# ---------------------------------------------------------------- trace, rand.intn


@register("trace")
def trace(note: Any) -> bool:
    """Record ``note`` in the evaluation's trace notes; always true."""
    if not isinstance(note, str):
        raise BuiltinError(f"trace: operand 1 must be string but got {type_name(note)}")
    current_context().memo.setdefault("trace", []).append(note)
    return True


@register("rand.intn")
def rand_intn(seed: Any, n: Any) -> int:
    """A random integer in ``[0, |n|)``, the same for the same ``(seed, |n|)`` in one evaluation."""
    if not isinstance(seed, str):
        raise BuiltinError(f"rand.intn: operand 1 must be string but got {type_name(seed)}")
    bound = abs(_integer("rand.intn", 2, n))
    if bound > _INT64_MAX:
        raise BuiltinError("rand.intn: operand 2 must be an integer that fits 64 bits")
    if bound == 0:
        return 0
    memo = current_context().memo
    key = ("rand.intn", seed, bound)
    if key not in memo:
        memo[key] = _RANDOM.randrange(bound)
    return memo[key]
