"""``units.parse`` and ``units.parse_bytes`` with OPA's arithmetic.

``units.parse`` computes exactly with rationals (its milli factor is the
binary double nearest 0.001, as in OPA) and gives an integer when the result
is whole, otherwise the value rounded to 10 decimal places. ``units.parse_bytes``
uses Go ``big.Float`` arithmetic at 64-bit precision, then truncates.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, register

_MAX_EXPONENT_DIGITS = 6

_SI = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12, "p": 10**15, "e": 10**18}
_BINARY = {"k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40, "p": 2**50, "e": 2**60}

_UNITS: dict[str, Fraction] = {"": Fraction(1), "m": Fraction(0.001), "M": Fraction(10**6)}
for _p in "kgtpe":
    _UNITS[_p] = _UNITS[_p.upper()] = Fraction(_SI[_p])
for _p in "kmgtpe":
    _UNITS[_p + "i"] = _UNITS[_p.upper() + "i"] = Fraction(_BINARY[_p])

_BYTE_UNITS: dict[str, int] = {"": 1}
for _p in "kmgtpe":
    _BYTE_UNITS[_p] = _BYTE_UNITS[_p + "b"] = _SI[_p]
    _BYTE_UNITS[_p + "i"] = _BYTE_UNITS[_p + "ib"] = _BINARY[_p]


def _split_number(name: str, s: str) -> tuple[str, str]:
    """OPA's split of ``s`` into the amount and the unit."""
    first_non_num = -1
    idx = 0
    while idx < len(s):
        ch = s[idx]
        if not ("0" <= ch <= "9" or ch in ".eE+-"):
            first_non_num = idx
            break
        if ch in "eE":
            nxt = s[idx + 1] if idx + 1 < len(s) else ""
            if not nxt or not ("0" <= nxt <= "9" or nxt in "+-"):
                first_non_num = idx
                break
            if nxt in "+-":
                idx += 1
            end = start = idx + 1
            while end < len(s) and "0" <= s[end] <= "9":
                end += 1
            if end - start > _MAX_EXPONENT_DIGITS:
                raise BuiltinError(f"{name}: exponent too large")
        idx += 1
    if first_non_num == -1:
        return s, ""
    return s[:first_non_num], s[first_non_num:]


def _decimal(text: str) -> Fraction | None:
    """The exact value of a decimal literal as Go's big.Rat/big.Float scan it."""
    mantissa, exponent = text, "0"
    for i, ch in enumerate(text):
        if ch in "eE":
            mantissa, exponent = text[:i], text[i + 1 :]
            break
    sign = 1
    if mantissa[:1] in ("+", "-"):
        sign = -1 if mantissa[0] == "-" else 1
        mantissa = mantissa[1:]
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    exp_sign = 1
    if exponent[:1] in ("+", "-"):
        exp_sign = -1 if exponent[0] == "-" else 1
        exponent = exponent[1:]
    if not exponent or not exponent.isascii() or not exponent.isdigit():
        return None
    power = exp_sign * int(exponent) - len(frac)
    value = Fraction(int(digits))
    value = value * 10**power if power >= 0 else value / 10**-power
    return sign * value


def _number(value: Fraction) -> int | float | Decimal:
    """OPA's result: an integer when whole, else rounded to 10 decimals."""
    if value.denominator == 1:
        return value.numerator
    scaled = value * 10**10
    rounded = int(abs(scaled) + Fraction(1, 2))  # halves away from zero
    if scaled < 0:
        rounded = -rounded
    text = f"{'-' if rounded < 0 else ''}{abs(rounded) // 10**10}.{abs(rounded) % 10**10:010d}"
    as_float = float(text)
    return Decimal(text) if as_float in (float("inf"), float("-inf")) else as_float


@register("units.parse")
def parse(x: Any) -> int | float | Decimal:
    """A quantity with an optional SI or binary suffix as a number (``m`` is milli)."""
    name = "units.parse"
    if not isinstance(x, str):
        raise BuiltinError(f"{name}: operand 1 must be string")
    s = x.replace('"', "")
    if " " in s:
        raise BuiltinError(f"{name}: spaces not allowed in resource strings")
    num, unit = _split_number(name, s)
    if not num:
        raise BuiltinError(f"{name}: no amount provided")
    if len(unit) > 1:
        unit = unit[0] + unit[1:].lower()
    factor = _UNITS.get(unit)
    if factor is None:
        raise BuiltinError(f"{name}: unit {unit} not recognized")
    value = _decimal(num)
    if value is None:
        raise BuiltinError(f"{name}: could not parse amount to a number")
    return _number(value * factor)


def _round64(value: Fraction) -> Fraction:
    """``value`` rounded to a 64-bit binary mantissa, ties to even (big.Float default)."""
    if value == 0:
        return value
    sign = -1 if value < 0 else 1
    mag = abs(value)
    exp = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** exp > mag:
        exp -= 1
    shift = 63 - exp  # scale so that 2**63 <= scaled < 2**64
    scaled = mag * 2**shift if shift >= 0 else mag / 2**-shift
    q, r = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * r
    if twice > scaled.denominator or (twice == scaled.denominator and q % 2):
        q += 1
    result = Fraction(q) / 2**shift if shift >= 0 else Fraction(q * 2**-shift)
    return sign * result


@register("units.parse_bytes")
def parse_bytes(x: Any) -> int:
    """A byte quantity with an optional SI or binary suffix (case-insensitive) as an integer."""
    name = "units.parse_bytes"
    if not isinstance(x, str):
        raise BuiltinError(f"{name}: operand 1 must be string")
    s = x.lower().replace('"', "")
    if " " in s:
        raise BuiltinError(f"{name}: spaces not allowed in resource strings")
    num, unit = _split_number(name, s)
    if not num:
        raise BuiltinError(f"{name}: no byte amount provided")
    factor = _BYTE_UNITS.get(unit)
    if factor is None:
        raise BuiltinError(f"{name}: byte unit {unit} not recognized")
    value = _decimal(num)
    if value is None:
        raise BuiltinError(f"{name}: could not parse byte amount to a number")
    product = _round64(_round64(value) * factor)
    return int(product)  # truncates toward zero, as big.Float.Int does
