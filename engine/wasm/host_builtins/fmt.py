"""``sprintf``: Go's ``fmt.Sprintf`` over Rego values, the way OPA calls it.

OPA converts each element of the argument array before formatting: a number
that fits an int64 becomes ``int64``, a larger integer ``*big.Int``, any
other number a ``float64`` (or, when it overflows a float64, its text as a
Go string); a string stays a Go string; every other value becomes the Go
string of its Rego text (``{"a": 1}``, ``{1, 2}``, ``set()``, ``true``).
The formatter below follows Go's ``fmt`` printer: flags, width, precision,
``*`` arguments, explicit ``[n]`` indexes and the ``%!`` error forms.
"""

from __future__ import annotations

import math
import struct
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set, sort_values, sorted_items, type_name

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
_UINT64_MASK = (1 << 64) - 1
_MAX_RUNE = 0x10FFFF
_TOO_LARGE = 1_000_000


# ---------------------------------------------------------------- Go string quoting


def _is_print(ch: str) -> bool:
    """Go's ``strconv.IsPrint``: letters, marks, numbers, punctuation, symbols, ASCII space."""
    if ch == " ":
        return True
    return unicodedata.category(ch)[0] in "LMNPS"


_SIMPLE_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


def _escape_rune(ch: str, quote: str, ascii_only: bool) -> str:
    code = ord(ch)
    if ch == quote or ch == "\\":
        return "\\" + ch
    if code < 0x80 and _is_print(ch):
        return ch
    if not ascii_only and code >= 0x80 and _is_print(ch):
        return ch
    if ch in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[ch]
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return "\\ufffd"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def go_quote(s: str, *, ascii_only: bool = False, quote: str = '"') -> str:
    """Go's ``strconv.Quote`` (or ``QuoteToASCII``, ``QuoteRune`` with ``quote="'"``)."""
    return quote + "".join(_escape_rune(ch, quote, ascii_only) for ch in s) + quote


def _can_backquote(s: str) -> bool:
    for ch in s:
        if ch == "`" or ch == "\ufeff":
            return False
        if (ord(ch) < 0x20 and ch != "\t") or ch == "\x7f":
            return False
    return True


# ---------------------------------------------------------------- Rego text of values


def _decimal_text(d: Decimal) -> str:
    sign, digits, exp = d.as_tuple()
    if not isinstance(exp, int):
        return str(d)
    mant = "".join(map(str, digits))
    point_exp = exp + len(mant) - 1
    frac = mant[1:].rstrip("0")
    body = mant[0] + ("." + frac if frac else "")
    return f"{'-' if sign else ''}{body}e{point_exp}"


def rego_text(value: Any) -> str:
    """A value's Rego text as OPA's ``ast.Value.String`` writes it (sorted keys and members)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Decimal):
        return _decimal_text(value)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(rego_text(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{rego_text(k)}: {rego_text(v)}" for k, v in sorted_items(value))
        return "{" + ", ".join(items) + "}"
    if isinstance(value, Set):
        if not len(value):
            return "set()"
        return "{" + ", ".join(rego_text(v) for v in sort_values(value)) + "}"
    raise BuiltinError(f"sprintf: unsupported value {value!r}")


# ---------------------------------------------------------------- Go operands


@dataclass(frozen=True)
class GoArg:
    """A Go operand: ``kind`` is ``int64``, ``*big.Int``, ``float64`` or ``string``
    (what ``sprintf`` passes), or one of the kinds ``strings.render_template``
    passes: ``int``, ``json.Number`` (a Go string type), ``bool``, ``<nil>``,
    ``[]interface {}`` (a list of GoArg or None) and ``map[string]interface {}``
    (a dict of str to GoArg or None)."""

    kind: str
    value: Any


_Arg = GoArg


def _go_arg(value: Any) -> _Arg:
    if isinstance(value, bool) or value is None:
        return _Arg("string", rego_text(value))
    if isinstance(value, int):
        if _INT64_MIN <= value <= _INT64_MAX:
            return _Arg("int64", value)
        return _Arg("*big.Int", value)
    if isinstance(value, float):
        return _Arg("float64", value)
    if isinstance(value, Decimal):  # beyond float64: OPA passes the number's text
        return _Arg("string", _decimal_text(value))
    if isinstance(value, str):
        return _Arg("string", value)
    return _Arg("string", rego_text(value))


# ---------------------------------------------------------------- float formatting


def _shortest_digits(a: float) -> tuple[str, int]:
    """Shortest round-trip decimal digits of ``a >= 0`` and the decimal point position."""
    if a == 0:
        return "", 0
    _, digits, exp = Decimal(repr(a)).as_tuple()
    assert isinstance(exp, int)
    text = "".join(map(str, digits))
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    text = stripped.lstrip("0")
    return text, len(text) + exp


def _fmt_e(digits: str, dp: int, prec: int, echar: str) -> str:
    nd = len(digits)
    out = [digits[0] if nd else "0"]
    if prec > 0:
        out.append(".")
        frac = digits[1 : prec + 1]
        out.append(frac + "0" * (prec - len(frac)))
    exp = dp - 1 if nd else 0
    sign = "-" if exp < 0 else "+"
    exp = abs(exp)
    out.append(f"{echar}{sign}{exp:02d}")
    return "".join(out)


def _fmt_f(digits: str, dp: int, prec: int) -> str:
    nd = len(digits)
    head = digits[:dp] + "0" * max(dp - nd, 0) if dp > 0 else "0"
    if prec <= 0:
        return head
    frac = "".join(digits[j] if 0 <= j < nd else "0" for j in range(dp, dp + prec))
    return f"{head}.{frac}"


def _float_parts(a: float) -> tuple[int, int]:
    """The mantissa (implicit bit included) and unbiased exponent of a float64."""
    bits = struct.unpack("<Q", struct.pack("<d", a))[0]
    exp = (bits >> 52) & 0x7FF
    mant = bits & ((1 << 52) - 1)
    if exp == 0:
        exp = 1
    else:
        mant |= 1 << 52
    return mant, exp - 1023


def _fmt_hex_float(a: float, prec: int, verb: str) -> str:
    mant, exp = _float_parts(a)
    if mant == 0:
        exp = 0
    mant <<= 8
    while mant and not mant & (1 << 60):
        mant <<= 1
        exp -= 1
    if 0 <= prec < 15:
        shift = prec * 4
        extra = (mant << shift) & ((1 << 60) - 1)
        mant >>= 60 - shift
        if extra | (mant & 1) > 1 << 59:
            mant += 1
        mant <<= 60 - shift
        if mant & (1 << 61):
            mant >>= 1
            exp += 1
    hexdigits = "0123456789abcdef" if verb == "x" else "0123456789ABCDEF"
    out = ["0", verb, str((mant >> 60) & 1)]
    mant = (mant << 4) & ((1 << 64) - 1)
    if prec < 0 and mant:
        out.append(".")
        while mant:
            out.append(hexdigits[(mant >> 60) & 15])
            mant = (mant << 4) & ((1 << 64) - 1)
    elif prec > 0:
        out.append(".")
        for _ in range(prec):
            out.append(hexdigits[(mant >> 60) & 15])
            mant = (mant << 4) & ((1 << 64) - 1)
    out.append("p" if verb == "x" else "P")
    out.append("-" if exp < 0 else "+")
    out.append(f"{abs(exp):02d}")
    return "".join(out)


def _fmt_binary_float(a: float) -> str:
    mant, exp = _float_parts(a)
    exp -= 52
    return f"{mant}p{'+' if exp >= 0 else '-'}{abs(exp)}"


def format_float(v: float, verb: str, prec: int) -> str:
    """Go's ``strconv.FormatFloat(v, verb, prec, 64)`` (``prec`` -1: shortest)."""
    neg = math.copysign(1.0, v) < 0
    a = abs(v)
    sign = "-" if neg else ""
    if verb in "xX":
        return sign + _fmt_hex_float(a, prec, verb)
    if verb == "b":
        return sign + _fmt_binary_float(a)
    if prec >= 0:
        if verb in "gG" and prec == 0:
            prec = 1
        return sign + format(a, f".{prec}{verb}")
    digits, dp = _shortest_digits(a)
    nd = len(digits)
    if verb in "eE":
        return sign + _fmt_e(digits, dp, max(nd - 1, 0), verb)
    if verb == "f":
        return sign + _fmt_f(digits, dp, max(nd - dp, 0))
    # g / G, shortest: %e when the exponent is < -4 or >= 6.
    exp = dp - 1
    if exp < -4 or exp >= 6:
        return sign + _fmt_e(digits, dp, nd - 1, "e" if verb == "g" else "E")
    return sign + _fmt_f(digits, dp, max(nd - dp, 0))


# ---------------------------------------------------------------- the printer


class _Printer:
    """Go's ``fmt.pp`` restricted to the operand kinds OPA passes."""

    def __init__(self) -> None:
        self.buf: list[str] = []
        self.padded = 0
        self.clear_flags()

    def clear_flags(self) -> None:
        self.plus = self.minus = self.sharp = self.space = self.zero = False
        self.plus_v = self.sharp_v = False
        self.wid = self.prec = 0
        self.wid_present = self.prec_present = False

    # -- padding

    def write_padding(self, n: int) -> None:
        if n > 0:
            # Widths reach 10^6 per verb: bound what many verbs pad in total.
            self.padded += n
            current_context().check_result_bytes(self.padded)
            self.buf.append(("0" if self.zero else " ") * n)

    def pad(self, s: str) -> None:
        if not self.wid_present or self.wid == 0:
            self.buf.append(s)
            return
        width = self.wid - len(s)
        if not self.minus:
            self.write_padding(width)
            self.buf.append(s)
        else:
            self.buf.append(s)
            self.write_padding(width)

    def pad_nozero(self, s: str) -> None:
        old, self.zero = self.zero, False
        self.pad(s)
        self.zero = old

    def truncate(self, s: str) -> str:
        if self.prec_present and self.prec < len(s):
            return s[: self.prec]
        return s

    # -- integers

    def fmt_integer(self, n: int, base: int, verb: str, upper: bool) -> None:
        negative = n < 0
        u = -n if negative else n
        if self.prec_present:
            prec = self.prec
            if prec == 0 and u == 0:
                old, self.zero = self.zero, False
                self.write_padding(self.wid)
                self.zero = old
                return
        elif self.zero and self.wid_present:
            prec = self.wid
            if negative or self.plus or self.space:
                prec -= 1
        else:
            prec = 0
        if base == 10:
            digits = str(u)
        elif base == 16:
            digits = format(u, "X" if upper else "x")
        elif base == 8:
            digits = format(u, "o")
        else:
            digits = format(u, "b")
        if len(digits) < prec:
            digits = "0" * (prec - len(digits)) + digits
        if self.sharp:
            if base == 2:
                digits = "0b" + digits
            elif base == 8 and digits[0] != "0":
                digits = "0" + digits
            elif base == 16:
                digits = ("0X" if upper else "0x") + digits
        if verb == "O":
            digits = "0o" + digits
        if negative:
            digits = "-" + digits
        elif self.plus:
            digits = "+" + digits
        elif self.space:
            digits = " " + digits
        self.pad_nozero(digits)

    def fmt_c(self, n: int) -> None:
        self.pad(_rune(n))

    def fmt_qc(self, n: int) -> None:
        self.pad(go_quote(_rune(n), ascii_only=self.plus, quote="'"))

    def fmt_unicode(self, n: int) -> None:
        u = n & _UINT64_MASK
        prec = self.prec if self.prec_present and self.prec > 4 else 4
        text = "U+" + format(u, "X").rjust(prec, "0")
        if self.sharp and u <= _MAX_RUNE and not 0xD800 <= u <= 0xDFFF and _is_print(chr(u)):
            text += f" '{chr(u)}'"
        self.pad_nozero(text)

    def print_int64(self, n: int, verb: str, kind: str = "int64") -> None:
        if verb in "vd":
            self.fmt_integer(n, 10, verb, False)
        elif verb == "b":
            self.fmt_integer(n, 2, verb, False)
        elif verb in "oO":
            self.fmt_integer(n, 8, verb, False)
        elif verb == "x":
            self.fmt_integer(n, 16, verb, False)
        elif verb == "X":
            self.fmt_integer(n, 16, verb, True)
        elif verb == "c":
            self.fmt_c(n)
        elif verb == "q":
            self.fmt_qc(n)
        elif verb == "U":
            self.fmt_unicode(n)
        else:
            self.bad_verb(verb, _Arg(kind, n))

    def print_big(self, n: int, verb: str) -> None:
        """``(*big.Int).Format``."""
        bases = {"b": 2, "o": 8, "O": 8, "d": 10, "s": 10, "v": 10, "x": 16, "X": 16}
        if verb not in bases:
            if verb in "pw":
                raise BuiltinError(f"sprintf: %{verb} of a big integer is not supported")
            self.buf.append(f"%!{verb}(big.Int={n})")
            return
        base = bases[verb]
        if n < 0:
            sign = "-"
        elif self.plus or self.plus_v:
            sign = "+"
        elif self.space:
            sign = " "
        else:
            sign = ""
        prefix = ""
        if self.sharp or self.sharp_v:
            prefix = {"b": "0b", "o": "0", "x": "0x", "X": "0X"}.get(verb, "")
        if verb == "O":
            prefix = "0o"
        u = abs(n)
        digits = {2: format(u, "b"), 8: format(u, "o"), 10: str(u), 16: format(u, "x")}[base]
        if verb == "X":
            digits = digits.upper()
        left = zeros = right = 0
        if self.prec_present:
            if len(digits) < self.prec:
                zeros = self.prec - len(digits)
            elif digits == "0" and self.prec == 0:
                return
        length = len(sign) + len(prefix) + zeros + len(digits)
        if self.wid_present and length < self.wid:
            d = self.wid - length
            if self.minus:
                right = d
            elif self.zero and not self.prec_present:
                zeros = d
            else:
                left = d
        self.buf.append(" " * left + sign + prefix + "0" * zeros + digits + " " * right)

    # -- floats

    def fmt_float(self, v: float, verb: str, prec: int) -> None:
        if self.prec_present:
            prec = self.prec
        num = format_float(v, verb, prec)
        num = num if num[0] in "+-" else "+" + num
        if self.space and num[0] == "+" and not self.plus:
            num = " " + num[1:]
        if self.sharp and verb != "b":
            digits = prec if verb in "gGx" else 0
            if verb in "gGx" and digits == -1:
                digits = 6
            tail = ""
            has_point = False
            saw_nonzero = False
            body = [num[0]]
            i = 1
            while i < len(num):
                c = num[i]
                if c == ".":
                    has_point = True
                elif c in "pP" or (c in "eE" and verb not in "xX"):
                    tail = num[i:]
                    break
                else:
                    if c != "0":
                        saw_nonzero = True
                    if saw_nonzero:
                        digits -= 1
                body.append(c)
                i += 1
            num = "".join(body)
            if not has_point:
                if len(num) == 2 and num[1] == "0":
                    digits -= 1
                num += "."
            if digits > 0:
                num += "0" * digits
            num += tail
        if self.plus or num[0] != "+":
            if self.zero and self.wid_present and self.wid > len(num):
                self.buf.append(num[0])
                self.write_padding(self.wid - len(num))
                self.buf.append(num[1:])
                return
            self.pad(num)
            return
        self.pad(num[1:])

    def print_float(self, v: float, verb: str) -> None:
        if verb == "v":
            self.fmt_float(v, "g", -1)
        elif verb in "bgGxX":
            self.fmt_float(v, verb, -1)
        elif verb in "feE":
            self.fmt_float(v, verb, 6)
        elif verb == "F":
            self.fmt_float(v, "f", 6)
        else:
            self.bad_verb(verb, _Arg("float64", v))

    # -- strings

    def fmt_sx(self, s: str, upper: bool) -> None:
        data = s.encode("utf-8")
        length = len(data)
        if self.prec_present and self.prec < length:
            length = self.prec
        width = 2 * length
        if width > 0:
            if self.space:
                if self.sharp:
                    width *= 2
                width += length - 1
            elif self.sharp:
                width += 2
        else:
            if self.wid_present:
                self.write_padding(self.wid)
            return
        if self.wid_present and self.wid > width and not self.minus:
            self.write_padding(self.wid - width)
        prefix = "0X" if upper else "0x"
        out = []
        if self.sharp:
            out.append(prefix)
        for i in range(length):
            if self.space and i > 0:
                out.append(" ")
                if self.sharp:
                    out.append(prefix)
            out.append(format(data[i], "02X" if upper else "02x"))
        self.buf.append("".join(out))
        if self.wid_present and self.wid > width and self.minus:
            self.write_padding(self.wid - width)

    def fmt_q(self, s: str) -> None:
        s = self.truncate(s)
        if self.sharp and _can_backquote(s):
            self.pad("`" + s + "`")
            return
        self.pad(go_quote(s, ascii_only=self.plus))

    def print_string(self, s: str, verb: str, kind: str = "string") -> None:
        if verb == "v":
            if self.sharp_v:
                self.fmt_q(s)
            else:
                self.pad(self.truncate(s))
        elif verb == "s":
            self.pad(self.truncate(s))
        elif verb == "x":
            self.fmt_sx(s, False)
        elif verb == "X":
            self.fmt_sx(s, True)
        elif verb == "q":
            self.fmt_q(s)
        else:
            self.bad_verb(verb, _Arg(kind, s))

    # -- dispatch

    def print_arg(self, arg: _Arg, verb: str) -> None:
        if verb == "T":
            self.pad(self.truncate(arg.kind))
            return
        if verb == "p" and arg.kind != "*big.Int":
            self.bad_verb(verb, arg)
            return
        if arg.kind == "int64":
            if verb == "w":
                self.bad_verb(verb, arg)
            else:
                self.print_int64(arg.value, verb)
        elif arg.kind == "float64":
            self.print_float(arg.value, verb)
        elif arg.kind == "string":
            self.print_string(arg.value, verb)
        elif arg.kind == "*big.Int":
            self.print_big(arg.value, verb)
        else:
            self.print_template_arg(arg, verb)

    def print_template_arg(self, arg: _Arg, verb: str) -> None:
        """The kinds of Go values a template's data holds (see :class:`GoArg`)."""
        if arg.kind == "int":
            self.print_int64(arg.value, verb, "int")
        elif arg.kind == "json.Number":
            self.print_string(arg.value, verb, "json.Number")
        elif arg.kind == "bool":
            if verb in "tv":
                self.pad("true" if arg.value else "false")
            else:
                self.bad_verb(verb, arg)
        elif arg.kind == "<nil>":
            if verb == "v":
                self.pad("<nil>")
            else:
                self.buf.append(f"%!{verb}(<nil>)")
        elif arg.kind == "[]interface {}":
            self.buf.append("[")
            for k, elem in enumerate(arg.value):
                if k:
                    self.buf.append(" ")
                self.print_element(elem, verb)
            self.buf.append("]")
        else:
            self.buf.append("map[")
            for k, key in enumerate(sorted(arg.value)):
                if k:
                    self.buf.append(" ")
                self.print_string(key, verb)
                self.buf.append(":")
                self.print_element(arg.value[key], verb)
            self.buf.append("]")

    def print_element(self, elem: _Arg | None, verb: str) -> None:
        """An element of a slice or map: a nil interface prints as ``<nil>``."""
        if elem is None:
            self.pad("<nil>")
        else:
            self.print_arg(elem, verb)

    def bad_verb(self, verb: str, arg: _Arg) -> None:
        self.buf.append(f"%!{verb}(")
        self.buf.append(arg.kind)
        self.buf.append("=")
        self.print_arg(arg, "v")
        self.buf.append(")")


def _rune(n: int) -> str:
    u = n & _UINT64_MASK
    if u > _MAX_RUNE or 0xD800 <= u <= 0xDFFF:
        return "\ufffd"
    return chr(u)


def _parse_num(s: str, start: int, end: int) -> tuple[int, bool, int]:
    """Go's ``parsenum``: (number, found, new index)."""
    if start >= end:
        return 0, False, end
    num = 0
    found = False
    i = start
    while i < end and "0" <= s[i] <= "9":
        if num > _TOO_LARGE:
            return 0, False, end
        num = num * 10 + ord(s[i]) - 48
        found = True
        i += 1
    return num, found, i


def _parse_arg_number(s: str) -> tuple[int, int, bool]:
    if len(s) < 3:
        return 0, 1, False
    for i in range(1, len(s)):
        if s[i] == "]":
            width, ok, newi = _parse_num(s, 1, i)
            if not ok or newi != i:
                return 0, i + 1, False
            return width - 1, i + 1, True
    return 0, 1, False


def go_sprintf(fmt: str, args: list[_Arg]) -> str:
    """Go's ``fmt.Sprintf(fmt, args...)``."""
    p = _Printer()
    end = len(fmt)
    arg_num = 0
    reordered = False
    i = 0

    def arg_number(arg_num: int, i: int) -> tuple[int, int, bool, bool]:
        """Returns (argNum, i, found, good)."""
        nonlocal reordered
        if i >= end or fmt[i] != "[":
            return arg_num, i, False, True
        reordered = True
        index, wid, ok = _parse_arg_number(fmt[i:])
        if ok and 0 <= index < len(args):
            return index, i + wid, True, True
        return arg_num, i + wid, ok, False

    def int_from_arg(arg_num: int) -> tuple[int, bool, int]:
        if arg_num >= len(args):
            return 0, False, arg_num
        arg = args[arg_num]
        if arg.kind in ("int64", "int"):
            num, is_int = arg.value, True
        else:
            num, is_int = 0, False
        if num > _TOO_LARGE or num < -_TOO_LARGE:
            num, is_int = 0, False
        return num, is_int, arg_num + 1

    while i < end:
        good = True
        last = i
        while i < end and fmt[i] != "%":
            i += 1
        if i > last:
            p.buf.append(fmt[last:i])
        if i >= end:
            break
        i += 1
        p.clear_flags()
        simple = False
        while i < end:
            c = fmt[i]
            if c == "#":
                p.sharp = True
            elif c == "0":
                p.zero = not p.minus
            elif c == "+":
                p.plus = True
            elif c == "-":
                p.minus = True
                p.zero = False
            elif c == " ":
                p.space = True
            else:
                if "a" <= c <= "z" and arg_num < len(args):
                    if c in "vw":
                        p.sharp_v, p.sharp = p.sharp, False
                        p.plus_v, p.plus = p.plus, False
                    p.print_arg(args[arg_num], c)
                    arg_num += 1
                    i += 1
                    simple = True
                break
            i += 1
        if simple:
            continue

        arg_num, i, after_index, ok = arg_number(arg_num, i)
        good = good and ok

        if i < end and fmt[i] == "*":
            i += 1
            p.wid, p.wid_present, arg_num = int_from_arg(arg_num)
            if not p.wid_present:
                p.buf.append("%!(BADWIDTH)")
            if p.wid < 0:
                p.wid = -p.wid
                p.minus = True
                p.zero = False
            after_index = False
        else:
            p.wid, p.wid_present, i = _parse_num(fmt, i, end)
            if after_index and p.wid_present:
                good = False

        if i + 1 < end and fmt[i] == ".":
            i += 1
            if after_index:
                good = False
            arg_num, i, after_index, ok = arg_number(arg_num, i)
            good = good and ok
            if i < end and fmt[i] == "*":
                i += 1
                p.prec, p.prec_present, arg_num = int_from_arg(arg_num)
                if p.prec < 0:
                    p.prec = 0
                    p.prec_present = False
                if not p.prec_present:
                    p.buf.append("%!(BADPREC)")
                after_index = False
            else:
                p.prec, p.prec_present, i = _parse_num(fmt, i, end)
                if not p.prec_present:
                    p.prec = 0
                    p.prec_present = True

        if not after_index:
            arg_num, i, after_index, ok = arg_number(arg_num, i)
            good = good and ok

        if i >= end:
            p.buf.append("%!(NOVERB)")
            break

        verb = fmt[i]
        i += 1
        if verb == "%":
            p.buf.append("%")
        elif not good:
            p.buf.append(f"%!{verb}(BADINDEX)")
        elif arg_num >= len(args):
            p.buf.append(f"%!{verb}(MISSING)")
        else:
            if verb in "vw":
                p.sharp_v, p.sharp = p.sharp, False
                p.plus_v, p.plus = p.plus, False
            p.print_arg(args[arg_num], verb)
            arg_num += 1

    if not reordered and arg_num < len(args):
        p.clear_flags()
        p.buf.append("%!(EXTRA ")
        for k, arg in enumerate(args[arg_num:]):
            if k:
                p.buf.append(", ")
            p.buf.append(arg.kind + "=")
            p.print_arg(arg, "v")
        p.buf.append(")")
    return "".join(p.buf)


@register("sprintf")
def sprintf(fmt: Any, values: Any) -> str:
    """Format ``values`` (an array) with Go's fmt verbs, as OPA's ``sprintf``."""
    if not isinstance(fmt, str):
        raise BuiltinError(f"sprintf: operand 1 must be string but got {type_name(fmt)}")
    if not isinstance(values, list):
        raise BuiltinError(f"sprintf: operand 2 must be array but got {type_name(values)}")
    return go_sprintf(fmt, [_go_arg(v) for v in values])
