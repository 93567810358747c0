"""Conversions of Terraform values, shared by the function families: numbers,
strings, bools, sets as lists, equality, and the argument checks functions use.

Values are plain Python values (None, bool, int, float, str, list, dict).
"""

from __future__ import annotations

import math
import re
from typing import Any

from engine.inputs.loaders.evaluation_budget import spend


class FunctionError(ValueError):
    """A function was called with arguments it cannot handle."""


def is_number(value: Any) -> bool:
    """Whether ``value`` is a number (bools are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def normalize_number(value: float | int) -> int | float:
    """Integral floats as ints (Terraform has a single number type)."""
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise FunctionError("number is not finite")
        if value.is_integer():
            return int(value)
    return value


def to_number(value: Any) -> int | float:
    """A number, converting numeric strings as Terraform does."""
    if is_number(value):
        return normalize_number(value)
    if isinstance(value, str):
        try:
            return normalize_number(int(value) if re.fullmatch(r"-?\d+", value) else float(value))
        except ValueError:
            pass
    raise FunctionError(f"cannot convert {value!r} to a number")


def to_bool(value: Any) -> bool:
    """A bool, converting "true"/"false" as Terraform does."""
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise FunctionError(f"cannot convert {value!r} to a bool")


def to_string(value: Any) -> str:
    """A string, converting numbers and bools as Terraform does."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        number = normalize_number(value)
        return str(number) if isinstance(number, int) else repr(number)
    raise FunctionError(f"cannot convert {type(value).__name__} to a string")


def values_equal(left: Any, right: Any) -> bool:
    """Terraform equality: types must agree (1 == 1.0, but true != 1 and "1" != 1)."""
    if is_number(left) and is_number(right):
        return bool(left == right)
    if type(left) is not type(right):
        return False
    if isinstance(left, list):
        return len(left) == len(right) and all(map(values_equal, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(values_equal(left[k], right[k]) for k in left)
    return bool(left == right)


def to_set(values: Any) -> list[Any]:
    """A set as a list: duplicates removed, strings sorted."""
    items = as_list(values)
    unique: list[Any] = []
    for item in items:
        spend(len(unique))  # one unit a comparison: duplicates are found pairwise
        if not any(values_equal(item, seen) for seen in unique):
            unique.append(item)
    if all(isinstance(item, str) for item in unique):
        unique.sort()
    return unique


def as_list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise FunctionError(f"expected a list, found {type(value).__name__}")
    return value


def as_map(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FunctionError(f"expected a map, found {type(value).__name__}")
    return value


def as_string(value: Any) -> str:
    if value is None:
        raise FunctionError("expected a string, found null")
    return to_string(value)


def as_int(value: Any) -> int:
    number = to_number(value)
    if not isinstance(number, int):
        raise FunctionError(f"expected a whole number, found {number}")
    return number
