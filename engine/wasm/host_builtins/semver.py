"""Semantic-version builtins, following OPA's own SemVer 2.0.0 parser.

OPA's parser accepts one leading ``v``, requires exactly three numeric
components without leading zeros (each fitting a signed 64-bit integer), and
ignores build metadata when comparing.
"""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, register

_INT64_MAX = 2**63 - 1
_IDENT_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-")


class _Invalid(Exception):
    pass


def _identifiers_ok(text: str) -> bool:
    """Dot-separated non-empty identifiers of ``[0-9A-Za-z-]``."""
    return all(part and all(c in _IDENT_CHARS for c in part) for part in text.split("."))


def _numeric(text: str) -> int:
    if not text or not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        raise _Invalid(text)
    value = int(text)
    if value > _INT64_MAX:
        raise _Invalid(text)
    return value


def parse(version: str) -> tuple[int, int, int, str]:
    """(major, minor, patch, pre-release) of a version; raises ``_Invalid``."""
    if version.startswith("v"):
        version = version[1:]
    version, plus, metadata = version.partition("+")
    if plus and not _identifiers_ok(metadata):
        raise _Invalid(metadata)
    version, dash, pre = version.partition("-")
    if dash:
        if not _identifiers_ok(pre):
            raise _Invalid(pre)
        for ident in pre.split("."):
            if len(ident) > 1 and ident[0] == "0" and ident.isdigit():
                raise _Invalid(pre)
    if version.count(".") != 2:
        raise _Invalid(version)
    major, minor, patch = version.split(".")
    return _numeric(major), _numeric(minor), _numeric(patch), pre


def _compare_pre(a: str, b: str) -> int:
    if a == b:
        return 0
    if not a:
        return 1
    if not b:
        return -1
    xs, ys = a.split("."), b.split(".")
    for x, y in zip(xs, ys, strict=False):
        x_num, y_num = x.isdigit(), y.isdigit()
        if x_num != y_num:
            return -1 if x_num else 1
        if x_num:
            # Go's strconv.Atoi saturates on overflow.
            xi, yi = min(int(x), _INT64_MAX), min(int(y), _INT64_MAX)
            if xi != yi:
                return 1 if xi > yi else -1
        elif x != y:
            return 1 if x > y else -1
    if len(xs) != len(ys):
        return 1 if len(xs) > len(ys) else -1
    return 0  # identifiers equal after saturation (OPA itself does not terminate here)


def compare_versions(a: str, b: str) -> int:
    """-1, 0 or 1 as version ``a`` is lower than, equal to or higher than ``b``."""
    va, vb = parse(a), parse(b)
    for x, y in zip(va[:3], vb[:3], strict=True):
        if x != y:
            return 1 if x > y else -1
    return _compare_pre(va[3], vb[3])


@register("semver.compare")
def compare(a: Any, b: Any) -> int:
    """Compare two semantic versions: -1, 0 or 1."""
    for pos, value in ((1, a), (2, b)):
        if not isinstance(value, str):
            raise BuiltinError(f"semver.compare: operand {pos} must be string")
    for pos, value in ((1, a), (2, b)):
        try:
            parse(value)
        except _Invalid:
            raise BuiltinError(
                f"semver.compare: operand {pos}: string {value} is not a valid SemVer"
            ) from None
    return compare_versions(a, b)


@register("semver.is_valid")
def is_valid(vsn: Any) -> bool:
    """Whether ``vsn`` is a valid semantic version (false for non-strings)."""
    if not isinstance(vsn, str):
        return False
    try:
        parse(vsn)
    except _Invalid:
        return False
    return True
