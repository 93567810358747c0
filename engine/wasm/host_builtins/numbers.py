"""Number builtins the Wasm runtime leaves to the host (OPA's ``topdown/numbers.go``):
``numbers.range_step`` and ``rand.intn``."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import type_name

_RANDOM = random.SystemRandom()
_INT64_MAX = (1 << 63) - 1


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
