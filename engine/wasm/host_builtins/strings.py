"""String builtins the Wasm runtime leaves to the host (OPA's ``topdown/strings.go``):
``strings.any_prefix_match``, ``strings.any_suffix_match``, ``strings.count``,
``strings.split_n`` and ``indexof_n``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.wasm.host_builtins.operands import integer_operand, string_operand, strings_operand
from engine.wasm.host_builtins.registry import BuiltinError, current_context, register

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
