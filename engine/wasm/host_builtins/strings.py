"""String builtins answered by the host (OPA's ``topdown/strings.go``): those the
Wasm runtime leaves to it (``strings.any_prefix_match``,
``strings.any_suffix_match``, ``strings.count``, ``strings.split_n`` and
``indexof_n``) and ``replace``, routed to it (:mod:`engine.wasm.builtin_routing`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from engine.core.go_text import go_string
from engine.wasm.host_builtins.operands import integer_operand, string_operand, strings_operand
from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import type_name

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


@register("strings.any_prefix_match")
def any_prefix_match(search: Any, base: Any) -> bool:
    """Whether any string of ``search`` starts with any string of ``base``."""
    searches = strings_operand("strings.any_prefix_match", 1, search)
    bases = strings_operand("strings.any_prefix_match", 2, base)
    return _any_pair(searches, bases, str.startswith)


@register("strings.any_suffix_match")
def any_suffix_match(search: Any, base: Any) -> bool:
    """Whether any string of ``search`` ends with any string of ``base``."""
    searches = strings_operand("strings.any_suffix_match", 1, search)
    bases = strings_operand("strings.any_suffix_match", 2, base)
    return _any_pair(searches, bases, str.endswith)


def _any_pair(searches: list[str], bases: list[str], test: Callable[[str, str], bool]) -> bool:
    """Whether ``test(s, b)`` holds for any pair, checking the deadline between
    searches (every pair is tried: quadratic in the arguments)."""
    context = current_context()
    for s in searches:
        context.check_time()
        if any(test(s, b) for b in bases):
            return True
    return False


@register("strings.count")
def strings_count(search: Any, substring: Any) -> int:
    """Go's ``strings.Count``: non-overlapping occurrences; ``""`` counts runes + 1."""
    return string_operand("strings.count", 1, search).count(
        string_operand("strings.count", 2, substring)
    )


def _go_split(s: str, sep: str) -> list[str]:
    """Go's ``strings.Split``: ``""`` splits into runes (none for an empty string)."""
    if sep == "":
        return list(s)
    return s.split(sep)


@register("strings.split_n")
def split_n(x: Any, delimiter: Any, n: Any) -> list[str]:
    """The first ``n`` parts of ``x`` split at ``delimiter`` (the last ``-n`` when negative)."""
    parts = _go_split(
        string_operand("strings.split_n", 1, x), string_operand("strings.split_n", 2, delimiter)
    )
    count = integer_operand("strings.split_n", 3, n)
    if not _INT64_MIN <= count <= _INT64_MAX:
        raise BuiltinError("strings.split_n: operand 3 must be an integer that fits 64 bits")
    if count >= 0:
        return parts[:count]
    return parts[count:]


@register("indexof_n")
def indexof_n(haystack: Any, needle: Any) -> list[int]:
    """Every (possibly overlapping) character index at which ``needle`` occurs."""
    s = string_operand("indexof_n", 1, haystack)
    sub = string_operand("indexof_n", 2, needle)
    if sub == "":
        raise BuiltinError("indexof_n: empty search character")
    out: list[int] = []
    i = s.find(sub)
    while i >= 0:
        out.append(i)
        i = s.find(sub, i + 1)
    return out


@register("replace")
def replace(x: Any, old: Any, new: Any) -> str:
    """Every ``old`` in ``x`` replaced by ``new``, as topdown answers; an empty
    ``old`` puts ``new`` before every byte of ``x`` and at the end (a character
    of several bytes is split, each invalid byte then reaching Rego as U+FFFD),
    where OPA's Wasm library never returns."""
    text = string_operand("replace", 1, x)
    pattern = string_operand("replace", 2, old)
    replacement = string_operand("replace", 3, new)
    data, inserted = text.encode(), replacement.encode()
    count = len(data) + 1 if pattern == "" else text.count(pattern)
    size = len(data) + count * (len(inserted) - len(pattern.encode()))
    current_context().check_result_bytes(size)
    if pattern == "":
        return go_string(inserted + b"".join(data[i : i + 1] + inserted for i in range(len(data))))
    return text.replace(pattern, replacement)


@register("indexof")
def indexof(x: Any, search: Any) -> int:
    """The character index of the first ``search`` in ``x``, -1 when absent; an
    empty ``search`` is an error, as in topdown (OPA's Wasm library answers 0)."""
    text = string_operand("indexof", 1, x)
    needle = string_operand("indexof", 2, search)
    if needle == "":
        raise BuiltinError("indexof: empty search character")
    return text.find(needle)


_FORMAT_BASES = {2: "b", 8: "o", 10: "d", 16: "x"}
_BIG_FLOAT_PRECISION = 64
"""Mantissa bits of the ``big.Float`` topdown parses a number into."""


def _big_float(value: int | float | Decimal) -> Fraction:
    """``value`` as Go's ``big.Float.SetString`` of its text holds it: the
    decimal text rounded to a 64-bit mantissa, ties to even."""
    exact = Fraction(value) if isinstance(value, int) else Fraction(str(value))
    if exact == 0:
        return exact
    magnitude = abs(exact)
    shift = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    shift -= _BIG_FLOAT_PRECISION
    while magnitude / Fraction(2) ** shift >= 2**_BIG_FLOAT_PRECISION:
        shift += 1
    while magnitude / Fraction(2) ** shift < 2 ** (_BIG_FLOAT_PRECISION - 1):
        shift -= 1
    mantissa = round(magnitude / Fraction(2) ** shift)  # round() ties to even
    rounded = mantissa * Fraction(2) ** shift
    return rounded if exact > 0 else -rounded


@register("format_int")
def format_int(number: Any, base: Any) -> str:
    """The number truncated to an integer and written in base 2, 8, 10 or 16, as
    topdown writes it (OPA's Wasm library aborts past 64 bits)."""
    if isinstance(number, bool) or not isinstance(number, (int, float, Decimal)):
        raise BuiltinError(f"format_int: operand 1 must be number but got {type_name(number)}")
    if isinstance(base, bool) or not isinstance(base, (int, float, Decimal)):
        raise BuiltinError(f"format_int: operand 2 must be number but got {type_name(base)}")
    verb = _FORMAT_BASES.get(base) if type(base) is int else None
    if verb is None:
        raise BuiltinError('format_int: operand 2 must be one of {"2", "8", "10", "16"}')
    if isinstance(number, float) and not math.isfinite(number):
        raise BuiltinError("format_int: operand 1 must be a finite number")
    value = int(_big_float(number))  # int() truncates toward zero, as big.Float.Int
    current_context().check_result_bytes(value.bit_length() + 2)
    return format(value, verb)
