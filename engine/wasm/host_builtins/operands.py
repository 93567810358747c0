"""Operand checks shared by builtin families, with OPA's error texts."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError
from engine.wasm.values import Set, type_name


def string_operand(name: str, pos: int, value: Any) -> str:
    """A string operand."""
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand {pos} must be string but got {type_name(value)}")
    return value


def integer_operand(name: str, pos: int, value: Any) -> int:
    """An integral number operand (``2.0`` counts as an integer, as in OPA)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise BuiltinError(f"{name}: operand {pos} must be number but got {type_name(value)}")
    if isinstance(value, int):
        return value
    if not math.isfinite(value) or value != int(value):
        raise BuiltinError(f"{name}: operand {pos} must be integer number")
    return int(value)


def strings_operand(name: str, pos: int, value: Any) -> list[str]:
    """A string, or an array or set of strings, as a list."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, Set)):
        items = list(value)
        for item in items:
            if not isinstance(item, str):
                raise BuiltinError(f"{name}: operand {pos} must be array of strings")
        return items
    raise BuiltinError(
        f"{name}: operand {pos} must be one of {{string, set, array}} but got {type_name(value)}"
    )
