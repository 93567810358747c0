"""The ``time.*`` builtins, with Go's ``time`` package semantics.

Timestamps are integer nanoseconds since the Unix epoch (int64, as in OPA).
Go's layout language (reference time ``Mon Jan 2 15:04:05 MST 2006``) is
implemented here for both formatting and parsing, working on UTF-8 bytes as
Go does. Time zones come from the IANA database through :mod:`zoneinfo`;
``"Local"`` follows Go's rules (``$TZ``, else ``/etc/localtime``, else UTC).
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
import os
import re
import struct
import zoneinfo
from decimal import Decimal
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register

_NS = 1_000_000_000
_MIN_NS = -(1 << 63)
_MAX_NS = (1 << 63) - 1
_SECONDS_PER_DAY = 86_400

_LONG_DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_LONG_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_SHORT_DAYS = tuple(d[:3] for d in _LONG_DAYS)
_SHORT_MONTHS = tuple(m[:3] for m in _LONG_MONTHS)
# Days before the start of each month in a non-leap year (index 12 = 365).
_DAYS_BEFORE = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365)

# The layout constant names OPA maps to Go's constants (time.parse_ns, time.format).
_LAYOUTS = {
    "ANSIC": "Mon Jan _2 15:04:05 2006",
    "UnixDate": "Mon Jan _2 15:04:05 MST 2006",
    "RubyDate": "Mon Jan 02 15:04:05 -0700 2006",
    "RFC822": "02 Jan 06 15:04 MST",
    "RFC822Z": "02 Jan 06 15:04 -0700",
    "RFC850": "Monday, 02-Jan-06 15:04:05 MST",
    "RFC1123": "Mon, 02 Jan 2006 15:04:05 MST",
    "RFC1123Z": "Mon, 02 Jan 2006 15:04:05 -0700",
    "RFC3339": "2006-01-02T15:04:05Z07:00",
    "RFC3339Nano": "2006-01-02T15:04:05.999999999Z07:00",
}
_RFC3339 = _LAYOUTS["RFC3339"]
_RFC3339_NANO = _LAYOUTS["RFC3339Nano"]


# ------------------------------------------------------------------ calendar


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in(month: int, year: int) -> int:
    if month == 2 and _is_leap(year):
        return 29
    return _DAYS_BEFORE[month] - _DAYS_BEFORE[month - 1]


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (month 1..12, any day)."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468 + day - 1


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """(year, month, day) of a day count since 1970-01-01."""
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


# ------------------------------------------------------------------ locations

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)
# zoneinfo works on datetimes (years 1..9999); clamp lookups into that range.
_LOOKUP_MIN = -62_135_596_800 + 2 * _SECONDS_PER_DAY
_LOOKUP_MAX = 253_402_300_799 - 2 * _SECONDS_PER_DAY


class _Location:
    """A Go ``*time.Location``: zone abbreviation and UTC offset at an instant."""

    def __init__(self, tz: _dt.tzinfo | None, names: tuple[tuple[str, int], ...] = ()) -> None:
        self._tz = tz  # None means UTC
        # (abbreviation, offset) of every zone in the TZif data, in file order
        # (used only to resolve zone abbreviations when parsing in Local).
        self.zones = names

    def lookup(self, unix: int) -> tuple[str, int]:
        """The zone abbreviation and offset (seconds east of UTC) in effect at ``unix``."""
        if self._tz is None:
            return "UTC", 0
        clamped = min(max(unix, _LOOKUP_MIN), _LOOKUP_MAX)
        local = (_EPOCH + _dt.timedelta(seconds=clamped)).astimezone(self._tz)
        offset = local.utcoffset()
        seconds = 0 if offset is None else offset.days * _SECONDS_PER_DAY + offset.seconds
        return local.tzname() or "", seconds

    def lookup_name(self, name: str, unix: int) -> int | None:
        """Go's ``Location.lookupName``: the offset of zone ``name`` near ``unix``."""
        for zone_name, zone_offset in self.zones:
            if zone_name == name:
                found, offset = self.lookup(unix - zone_offset)
                if found == zone_name:
                    return offset
        for zone_name, zone_offset in self.zones:
            if zone_name == name:
                return zone_offset
        return None


_UTC = _Location(None, (("UTC", 0),))


def _tzif_zones(data: bytes) -> tuple[tuple[str, int], ...]:
    """The (abbreviation, offset) local time types of a TZif file (newest data block)."""
    if len(data) < 44 or data[:4] != b"TZif":
        return ()

    def block(offset: int, time_size: int) -> tuple[int, tuple[tuple[str, int], ...]]:
        isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt = struct.unpack(
            ">6l", data[offset + 20 : offset + 44]
        )
        pos = offset + 44 + timecnt * time_size + timecnt
        types = [struct.unpack(">lBB", data[pos + 6 * i : pos + 6 * i + 6]) for i in range(typecnt)]
        chars = data[pos + 6 * typecnt : pos + 6 * typecnt + charcnt]
        zones = []
        for utoff, _isdst, idx in types:
            end = chars.find(b"\0", idx)
            abbr = chars[idx : end if end >= 0 else len(chars)].decode("ascii", "replace")
            zones.append((abbr, utoff))
        size = (
            44
            + timecnt * (time_size + 1)
            + typecnt * 6
            + charcnt
            + leapcnt * (time_size + 4)
            + isstdcnt
            + isutcnt
        )
        return offset + size, tuple(zones)

    try:
        end, zones = block(0, 4)
        if data[4] >= ord("2") and data[end : end + 4] == b"TZif":
            _, zones = block(end, 8)
    except (struct.error, IndexError):
        return ()
    return zones


def _location_from_file(path: str) -> _Location:
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path, "rb") as fh:
        tz = zoneinfo.ZoneInfo.from_file(fh)
    return _Location(tz, _tzif_zones(data))


@functools.cache
def _local() -> _Location:
    """Go's ``time.Local``: ``$TZ`` if set (empty means UTC), else /etc/localtime."""
    tz = os.environ.get("TZ")
    try:
        if tz is None:
            return _location_from_file("/etc/localtime")
        if tz.startswith(":"):
            tz = tz[1:]
        if tz.startswith("/"):
            return _location_from_file(tz)
        if tz not in ("", "UTC"):
            return _load_location(tz)
    except (OSError, ValueError, BuiltinError):
        pass
    return _UTC


_ZONE_DIRS = (
    "/usr/share/zoneinfo/",
    "/usr/share/lib/zoneinfo/",
    "/usr/lib/locale/TZ/",
    "/etc/zoneinfo/",
)


@functools.cache
def _load_location(name: str) -> _Location:
    """Go's ``time.LoadLocation`` for an IANA zone name."""
    if ".." in name or name.startswith(("/", "\\")):
        raise BuiltinError("time: invalid location name")
    # Go reads <dir>/<name> from its list of system directories (so names such
    # as "America/./New_York" work), then falls back to its embedded database.
    for directory in _ZONE_DIRS:
        try:
            with open(directory + name, "rb") as fh:
                return _Location(zoneinfo.ZoneInfo.from_file(fh, key=name))
        except (OSError, ValueError):
            continue
    try:
        tz = zoneinfo.ZoneInfo(name)
    except Exception as exc:  # not found, a directory, not a TZif file, ...
        raise BuiltinError(f"unknown time zone {name}") from exc
    return _Location(tz)


def _location(name: str) -> _Location:
    if name in ("", "UTC"):
        return _UTC
    if name == "Local":
        return _local()
    return _load_location(name)


# ------------------------------------------------------------------ operands


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def _exact_int64(value: Any) -> int | None:
    """``value`` as an int64 when it is an integer that fits, else None."""
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():
            return None
        number = int(value)
    elif isinstance(value, Decimal):
        if not value.is_finite() or value != value.to_integral_value():
            return None
        number = int(value)
    else:
        return None
    return number if _MIN_NS <= number <= _MAX_NS else None


def _tz_time(name: str, value: Any) -> tuple[int, _Location, str]:
    """OPA's ``tzTime``: (ns, location, layout) from ``ns`` or ``[ns, tz, layout]``."""
    location = _UTC
    layout = ""
    if isinstance(value, (list, tuple)):
        if not value:
            raise BuiltinError(
                f"{name}: operand 1 must be either number (ns) or [number (ns), string (tz)]"
            )
        ns_value = value[0]
        if not _is_number(ns_value):
            raise BuiltinError(f"{name}: operand 1 must be number")
        if len(value) > 1:
            if not isinstance(value[1], str):
                raise BuiltinError(f"{name}: operand 1 must be string")
            try:
                location = _location(value[1])
            except BuiltinError as exc:
                raise BuiltinError(f"{name}: {exc}") from None
        if len(value) > 2:
            if not isinstance(value[2], str):
                raise BuiltinError(f"{name}: operand 1 must be string")
            layout = value[2]
    elif _is_number(value):
        ns_value = value
    else:
        raise BuiltinError(
            f"{name}: operand 1 must be either number (ns) or [number (ns), string (tz)]"
        )
    ns = _exact_int64(ns_value)
    if ns is None:
        raise BuiltinError(f"{name}: timestamp too big")
    return ns, location, layout


def _int_operand(name: str, value: Any, pos: int) -> int:
    if not _is_number(value):
        raise BuiltinError(f"{name}: operand {pos} must be number")
    number = _exact_int64(value)
    if number is None:
        raise BuiltinError(f"{name}: operand {pos} must be integer number")
    return number


def _string_operand(name: str, value: Any, pos: int) -> str:
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand {pos} must be string")
    return value


def _safe_ns(name: str, unix: int, nsec: int) -> int:
    ns = unix * _NS + nsec
    if not _MIN_NS <= ns <= _MAX_NS:
        raise BuiltinError(f"{name}: time outside of valid range")
    return ns


# ------------------------------------------------------------------ broken-down time


class _Fields:
    """The calendar fields of an instant in a location (Go's ``Time`` accessors)."""

    __slots__ = (
        "abbr",
        "day",
        "hour",
        "minute",
        "month",
        "nsec",
        "offset",
        "second",
        "weekday",
        "yday",
        "year",
    )

    def __init__(self, ns: int, location: _Location) -> None:
        unix, self.nsec = divmod(ns, _NS)
        self.abbr, self.offset = location.lookup(unix)
        days, secs = divmod(unix + self.offset, _SECONDS_PER_DAY)
        self.year, self.month, self.day = _civil_from_days(days)
        self.hour, rest = divmod(secs, 3600)
        self.minute, self.second = divmod(rest, 60)
        self.weekday = (days + 4) % 7  # 1970-01-01 was a Thursday
        self.yday = days - _days_from_civil(self.year, 1, 1) + 1


def _date_to_unix(
    year: int, month: int, day: int, hour: int, minute: int, sec: int, loc: _Location
) -> int:
    """Go's ``time.Date`` (seconds part): normalises overflowing fields, resolves the zone."""
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    wall = (
        (_days_from_civil(year, month, 1) + day - 1) * _SECONDS_PER_DAY
        + hour * 3600
        + minute * 60
        + sec
    )
    _, offset = loc.lookup(wall)
    if offset != 0:
        # Go checks whether wall - offset is still inside the zone period it
        # found; if not it uses the offset in effect at wall - offset. Comparing
        # offsets gives the same answer without knowing the period bounds.
        _, other = loc.lookup(wall - offset)
        if other != offset:
            offset = other
    return wall - offset


# ------------------------------------------------------------------ layouts

# Zone offset chunks of Go's layout language, longest first.
_ISO_TZ = ("Z070000", "Z07:00:00", "Z0700", "Z07:00", "Z07")
_NUM_TZ = ("-070000", "-07:00:00", "-0700", "-07:00", "-07")


def _starts_lower(rest: bytes) -> bool:
    return bool(rest) and 0x61 <= rest[0] <= 0x7A


def _is_digit(s: bytes, i: int) -> bool:
    return i < len(s) and 0x30 <= s[i] <= 0x39


def _next_chunk(layout: bytes) -> tuple[bytes, Any, bytes]:
    """Go's ``nextStdChunk``: (literal prefix, std chunk or None, rest of layout).

    A std chunk is a layout code string, or ``("frac", digit, count, sep)`` for
    fractional seconds (digit ``0`` fixed width, ``9`` trailing zeros trimmed).
    """
    n = len(layout)
    for i in range(n):
        c = layout[i : i + 1]
        rest = layout[i:]
        if c == b"J":
            if rest.startswith(b"Jan"):
                if rest.startswith(b"January"):
                    return layout[:i], "January", layout[i + 7 :]
                if not _starts_lower(layout[i + 3 :]):
                    return layout[:i], "Jan", layout[i + 3 :]
        elif c == b"M":
            if rest.startswith(b"Mon"):
                if rest.startswith(b"Monday"):
                    return layout[:i], "Monday", layout[i + 6 :]
                if not _starts_lower(layout[i + 3 :]):
                    return layout[:i], "Mon", layout[i + 3 :]
            if rest.startswith(b"MST"):
                return layout[:i], "MST", layout[i + 3 :]
        elif c == b"0":
            if n >= i + 2 and 0x31 <= layout[i + 1] <= 0x36:
                return layout[:i], rest[:2].decode(), layout[i + 2 :]
            if rest.startswith(b"002"):
                return layout[:i], "002", layout[i + 3 :]
        elif c == b"1":
            if rest.startswith(b"15"):
                return layout[:i], "15", layout[i + 2 :]
            return layout[:i], "1", layout[i + 1 :]
        elif c == b"2":
            if rest.startswith(b"2006"):
                return layout[:i], "2006", layout[i + 4 :]
            return layout[:i], "2", layout[i + 1 :]
        elif c == b"_":
            if rest.startswith(b"_2"):
                if rest.startswith(b"_2006"):
                    # "_2006" is a literal "_" followed by the long year.
                    return layout[: i + 1], "2006", layout[i + 5 :]
                return layout[:i], "_2", layout[i + 2 :]
            if rest.startswith(b"__2"):
                return layout[:i], "__2", layout[i + 3 :]
        elif c in (b"3", b"4", b"5"):
            return layout[:i], c.decode(), layout[i + 1 :]
        elif c == b"P":
            if rest.startswith(b"PM"):
                return layout[:i], "PM", layout[i + 2 :]
        elif c == b"p":
            if rest.startswith(b"pm"):
                return layout[:i], "pm", layout[i + 2 :]
        elif c in (b"-", b"Z"):
            for code in _NUM_TZ if c == b"-" else _ISO_TZ:
                if rest.startswith(code.encode()):
                    return layout[:i], code, layout[i + len(code) :]
        elif c in (b".", b",") and i + 1 < n and layout[i + 1] in (0x30, 0x39):
            ch = layout[i + 1]
            j = i + 1
            while j < n and layout[j] == ch:
                j += 1
            if not _is_digit(layout, j):
                return layout[:i], ("frac", chr(ch), j - (i + 1), c), layout[j:]
    return layout, None, b""


def _pad(value: int, width: int) -> bytes:
    sign = "-" if value < 0 else ""
    return (sign + str(abs(value)).zfill(width)).encode()


def _fraction(nsec: int, std: tuple[str, str, int, bytes]) -> bytes:
    _, digit, count, sep = std
    trim = digit == "9"
    if trim and (count == 0 or nsec == 0):
        return b""
    digits = str(nsec).zfill(9)[: min(count, 9)]
    if trim:
        digits = digits.rstrip("0")
        if not digits:
            return b""
    return sep + digits.encode()


def _format(ns: int, location: _Location, layout: str) -> str:
    """Go's ``Time.Format``."""
    f = _Fields(ns, location)
    out: list[bytes] = []
    rest = layout.encode()
    while rest:
        prefix, std, rest = _next_chunk(rest)
        out.append(prefix)
        if std is None:
            break
        if isinstance(std, tuple):
            out.append(_fraction(f.nsec, std))
            continue
        hour12 = f.hour % 12 or 12
        simple: dict[str, bytes] = {
            "06": _pad(abs(f.year) % 100, 2),
            "2006": _pad(f.year, 4),
            "Jan": _SHORT_MONTHS[f.month - 1].encode(),
            "January": _LONG_MONTHS[f.month - 1].encode(),
            "1": _pad(f.month, 0),
            "01": _pad(f.month, 2),
            "Mon": _SHORT_DAYS[f.weekday].encode(),
            "Monday": _LONG_DAYS[f.weekday].encode(),
            "2": _pad(f.day, 0),
            "_2": (b" " if f.day < 10 else b"") + _pad(f.day, 0),
            "02": _pad(f.day, 2),
            "__2": b" " * (3 - len(str(f.yday))) + _pad(f.yday, 0),
            "002": _pad(f.yday, 3),
            "15": _pad(f.hour, 2),
            "3": _pad(hour12, 0),
            "03": _pad(hour12, 2),
            "4": _pad(f.minute, 0),
            "04": _pad(f.minute, 2),
            "5": _pad(f.second, 0),
            "05": _pad(f.second, 2),
            "PM": b"PM" if f.hour >= 12 else b"AM",
            "pm": b"pm" if f.hour >= 12 else b"am",
        }
        if std in simple:
            out.append(simple[std])
        elif std == "MST":
            if f.abbr:
                out.append(f.abbr.encode())
            else:
                minutes = abs(int(f.offset / 60))
                out.append(b"-" if f.offset <= -60 else b"+")
                out.append(_pad(minutes // 60, 2) + _pad(minutes % 60, 2))
        else:
            out.append(_format_offset(std, f.offset))
    return b"".join(out).decode("utf-8", "replace")


def _format_offset(std: str, offset: int) -> bytes:
    if offset == 0 and std in _ISO_TZ:
        return b"Z"
    zone = int(offset / 60)  # truncated toward zero, as Go's integer division
    abs_offset = abs(offset)
    sign = b"-" if zone < 0 else b"+"
    zone = abs(zone)
    out = sign + _pad(zone // 60, 2)
    colon = ":" in std
    if colon:
        out += b":"
    if std not in ("-07", "Z07"):
        out += _pad(zone % 60, 2)
    if std in ("-070000", "Z070000", "-07:00:00", "Z07:00:00"):
        if colon:
            out += b":"
        out += _pad(abs_offset % 60, 2)
    return out


# ------------------------------------------------------------------ parsing


class _Bad(Exception):
    """The value does not match the layout (Go's ``errBad`` / range errors)."""


def _leading_int(s: bytes) -> tuple[int, bytes]:
    x = 0
    i = 0
    while i < len(s) and 0x30 <= s[i] <= 0x39:
        if x > (1 << 63) // 10:
            raise _Bad("overflow")
        x = x * 10 + s[i] - 0x30
        if x > 1 << 63:
            raise _Bad("overflow")
        i += 1
    return x, s[i:]


def _atoi(s: bytes) -> int:
    neg = False
    if s[:1] in (b"-", b"+"):
        neg = s[:1] == b"-"
        s = s[1:]
    x, rem = _leading_int(s)
    if rem:
        raise _Bad("atoi")
    x = x - (1 << 64) if x >= 1 << 63 else x  # int(uint64) wraps, as in Go
    return -x if neg else x


def _getnum(s: bytes, fixed: bool) -> tuple[int, bytes]:
    if not _is_digit(s, 0):
        raise _Bad("number")
    if not _is_digit(s, 1):
        if fixed:
            raise _Bad("number")
        return s[0] - 0x30, s[1:]
    return (s[0] - 0x30) * 10 + s[1] - 0x30, s[2:]


def _getnum3(s: bytes, fixed: bool) -> tuple[int, bytes]:
    n = 0
    i = 0
    while i < 3 and _is_digit(s, i):
        n = n * 10 + s[i] - 0x30
        i += 1
    if i == 0 or (fixed and i != 3):
        raise _Bad("number")
    return n, s[i:]


def _match_fold(s1: bytes, s2: bytes) -> bool:
    for c1, c2 in zip(s1, s2, strict=True):
        if c1 != c2:
            c1 |= 0x20
            c2 |= 0x20
            if c1 != c2 or not 0x61 <= c1 <= 0x7A:
                return False
    return True


def _lookup(table: tuple[str, ...], value: bytes) -> tuple[int, bytes]:
    for i, name in enumerate(table):
        word = name.encode()
        if len(value) >= len(word) and _match_fold(value[: len(word)], word):
            return i, value[len(word) :]
    raise _Bad("name")


def _skip(value: bytes, prefix: bytes) -> bytes:
    while prefix:
        if prefix[0] == 0x20:
            if value and value[0] != 0x20:
                raise _Bad("literal")
            prefix = prefix.lstrip(b" ")
            value = value.lstrip(b" ")
            continue
        if not value or value[0] != prefix[0]:
            raise _Bad("literal")
        prefix = prefix[1:]
        value = value[1:]
    return value


def _parse_nanoseconds(value: bytes, nbytes: int) -> int:
    if value[:1] not in (b".", b","):
        raise _Bad("fraction")
    nbytes = min(nbytes, 10)
    ns = _atoi(value[1:nbytes])
    if ns < 0:
        raise _Bad("fractional second out of range")
    return ns * 10 ** (10 - nbytes)


def _signed_offset_len(value: bytes) -> int:
    if value[:1] not in (b"-", b"+"):
        return 0
    try:
        x, rem = _leading_int(value[1:])
    except _Bad:
        return 0
    if rem == value[1:] or x > 23:
        return 0
    return len(value) - len(rem)


def _time_zone_len(value: bytes) -> int | None:
    """Go's ``parseTimeZone``: the length of a zone abbreviation, or None."""
    if len(value) < 3:
        return None
    if value[:4] in (b"ChST", b"MeST"):
        return 4
    if value[:3] == b"GMT":
        return 3 + (_signed_offset_len(value[3:]) if len(value) > 3 else 0)
    if value[:1] in (b"+", b"-"):
        length = _signed_offset_len(value)
        return length or None
    upper = 0
    while upper < 6 and upper < len(value) and 0x41 <= value[upper] <= 0x5A:
        upper += 1
    if upper == 3:
        return 3
    if upper == 4 and (value[3:4] == b"T" or value[:4] == b"WITA"):
        return 4
    if upper == 5 and value[4:5] == b"T":
        return 5
    return None


def _parse_offset(std: str, value: bytes) -> tuple[int, bytes]:
    """A numeric zone offset in seconds east of UTC, and the rest of the value."""
    if std in ("-07:00", "Z07:00"):
        if len(value) < 6 or value[3:4] != b":":
            raise _Bad("offset")
        sign, hh, mm, ss, value = value[:1], value[1:3], value[4:6], b"00", value[6:]
    elif std in ("-07", "Z07"):
        if len(value) < 3:
            raise _Bad("offset")
        sign, hh, mm, ss, value = value[:1], value[1:3], b"00", b"00", value[3:]
    elif std in ("-07:00:00", "Z07:00:00"):
        if len(value) < 9 or value[3:4] != b":" or value[6:7] != b":":
            raise _Bad("offset")
        sign, hh, mm, ss, value = value[:1], value[1:3], value[4:6], value[7:9], value[9:]
    elif std in ("-070000", "Z070000"):
        if len(value) < 7:
            raise _Bad("offset")
        sign, hh, mm, ss, value = value[:1], value[1:3], value[3:5], value[5:7], value[7:]
    else:
        if len(value) < 5:
            raise _Bad("offset")
        sign, hh, mm, ss, value = value[:1], value[1:3], value[3:5], b"00", value[5:]
    hr = _getnum(hh, True)[0]
    mi = _getnum(mm, True)[0]
    se = _getnum(ss, True)[0]
    if hr > 24 or mi > 60 or se > 60:
        raise _Bad("time zone offset out of range")
    offset = (hr * 60 + mi) * 60 + se
    if sign == b"-":
        return -offset, value
    if sign != b"+":
        raise _Bad("offset sign")
    return offset, value


def _parse(layout_text: str, value_text: str) -> int:
    """Go's ``time.Parse`` (default location UTC): nanoseconds since the epoch."""
    layout = layout_text.encode()
    value = value_text.encode()
    year, month, day, yday = 0, -1, -1, -1
    hour = minute = sec = nsec = 0
    am = pm = False
    utc = False
    zone_offset: int | None = None
    zone_name = b""
    while True:
        prefix, std, suffix = _next_chunk(layout)
        value = _skip(value, prefix)
        if std is None:
            if value:
                raise _Bad("extra text")
            break
        layout = suffix
        if isinstance(std, tuple):
            if std[1] == "0":
                ndigit = 1 + std[2]
                if len(value) < ndigit:
                    raise _Bad("fraction")
                nsec = _parse_nanoseconds(value, ndigit)
                value = value[ndigit:]
            elif len(value) >= 2 and value[:1] in (b".", b",") and _is_digit(value, 1):
                i = 0
                while _is_digit(value, i + 1):
                    i += 1
                nsec = _parse_nanoseconds(value, 1 + i)
                value = value[1 + i :]
            continue
        if std == "06":
            if len(value) < 2:
                raise _Bad("year")
            year = _atoi(value[:2])
            value = value[2:]
            year += 1900 if year >= 69 else 2000
        elif std == "2006":
            if len(value) < 4 or not _is_digit(value, 0):
                raise _Bad("year")
            year = _atoi(value[:4])
            value = value[4:]
        elif std in ("Jan", "January"):
            month, value = _lookup(_SHORT_MONTHS if std == "Jan" else _LONG_MONTHS, value)
            month += 1
        elif std in ("1", "01"):
            month, value = _getnum(value, std == "01")
            if not 1 <= month <= 12:
                raise _Bad("month out of range")
        elif std in ("Mon", "Monday"):
            _, value = _lookup(_SHORT_DAYS if std == "Mon" else _LONG_DAYS, value)
        elif std in ("2", "_2", "02"):
            if std == "_2" and value[:1] == b" ":
                value = value[1:]
            day, value = _getnum(value, std == "02")
        elif std in ("__2", "002"):
            if std == "__2":
                for _ in range(2):
                    if value[:1] == b" ":
                        value = value[1:]
            yday, value = _getnum3(value, std == "002")
        elif std == "15":
            hour, value = _getnum(value, False)
            if hour >= 24:
                raise _Bad("hour out of range")
        elif std in ("3", "03"):
            hour, value = _getnum(value, std == "03")
            if hour > 12:
                raise _Bad("hour out of range")
        elif std in ("4", "04"):
            minute, value = _getnum(value, std == "04")
            if minute >= 60:
                raise _Bad("minute out of range")
        elif std in ("5", "05"):
            sec, value = _getnum(value, std == "05")
            if sec >= 60:
                raise _Bad("second out of range")
            if len(value) >= 2 and value[:1] in (b".", b",") and _is_digit(value, 1):
                _, following, _ = _next_chunk(layout)
                if not isinstance(following, tuple):
                    # A fraction in the value but not in the layout.
                    n = 2
                    while _is_digit(value, n):
                        n += 1
                    nsec = _parse_nanoseconds(value, n)
                    value = value[n:]
        elif std in ("PM", "pm"):
            if len(value) < 2:
                raise _Bad("am/pm")
            word, value = value[:2], value[2:]
            if word == (b"PM" if std == "PM" else b"pm"):
                pm = True
            elif word == (b"AM" if std == "PM" else b"am"):
                am = True
            else:
                raise _Bad("am/pm")
        elif std in _ISO_TZ and value[:1] == b"Z":
            value = value[1:]
            utc = True
        elif std in _ISO_TZ or std in _NUM_TZ:
            zone_offset, value = _parse_offset(std, value)
        elif std == "MST":
            if value[:3] == b"UTC":
                utc = True
                value = value[3:]
            else:
                length = _time_zone_len(value)
                if length is None:
                    raise _Bad("zone")
                zone_name, value = value[:length], value[length:]
    if pm and hour < 12:
        hour += 12
    elif am and hour == 12:
        hour = 0

    if yday >= 0:
        m = d = 0
        if _is_leap(year):
            if yday == 31 + 29:
                m, d = 2, 29
            elif yday > 31 + 29:
                yday -= 1
        if yday < 1 or yday > 365:
            raise _Bad("day-of-year out of range")
        if m == 0:
            m = (yday - 1) // 31 + 1
            if _DAYS_BEFORE[m] < yday:
                m += 1
            d = yday - _DAYS_BEFORE[m - 1]
        if month >= 0 and month != m:
            raise _Bad("day-of-year does not match month")
        month = m
        if day >= 0 and day != d:
            raise _Bad("day-of-year does not match day")
        day = d
    else:
        if month < 0:
            month = 1
        if day < 0:
            day = 1
    if day < 1 or day > _days_in(month, year):
        raise _Bad("day out of range")

    unix = _date_to_unix(year, month, day, hour, minute, sec, _UTC)
    if utc:
        pass
    elif zone_offset is not None and zone_offset != -1:
        # Go uses -1 as its "no offset seen" sentinel, so "-00:00:01" is ignored.
        unix -= zone_offset
    elif zone_name:
        name = zone_name.decode("utf-8", "replace")
        offset = _local().lookup_name(name, unix)
        if offset is not None:
            unix -= offset
        # Otherwise Go records an unknown zone (even "GMT+3") without moving the instant.
    return unix * _NS + nsec


# ------------------------------------------------------------------ durations

_UNITS = {
    b"ns": 1,
    b"us": 1_000,
    "µs".encode(): 1_000,
    "μs".encode(): 1_000,
    b"ms": 1_000_000,
    b"s": _NS,
    b"m": 60 * _NS,
    b"h": 3600 * _NS,
}


def _go_parse_duration(text: str) -> int:
    """Go's ``time.ParseDuration``: nanoseconds (int64)."""
    s = text.encode()
    bad = BuiltinError(f"time.parse_duration_ns: time: invalid duration {text!r}")
    neg = False
    if s[:1] in (b"-", b"+"):
        neg = s[:1] == b"-"
        s = s[1:]
    if s == b"0":
        return 0
    if not s:
        raise bad
    total = 0
    while s:
        if not (s[:1] == b"." or _is_digit(s, 0)):
            raise bad
        before = len(s)
        try:
            v, s = _leading_int(s)
        except _Bad:
            raise bad from None
        pre = before != len(s)
        post = False
        f, scale = 0, 1.0
        if s[:1] == b".":
            s = s[1:]
            before = len(s)
            overflow = False
            i = 0
            while _is_digit(s, i):
                if not overflow:
                    if f > ((1 << 63) - 1) // 10:
                        overflow = True
                    else:
                        y = f * 10 + s[i] - 0x30
                        if y > 1 << 63:
                            overflow = True
                        else:
                            f = y
                            scale *= 10
                i += 1
            s = s[i:]
            post = before != len(s)
        if not pre and not post:
            raise bad
        i = 0
        while i < len(s) and not (s[i] == 0x2E or 0x30 <= s[i] <= 0x39):
            i += 1
        if i == 0:
            raise BuiltinError(f"time.parse_duration_ns: time: missing unit in duration {text!r}")
        unit_text, s = s[:i], s[i:]
        unit = _UNITS.get(unit_text)
        if unit is None:
            raise BuiltinError(f"time.parse_duration_ns: time: unknown unit in duration {text!r}")
        if v > (1 << 63) // unit:
            raise bad
        v *= unit
        if f > 0:
            # Go computes the fraction in float64, truncating toward zero.
            v += int(float(f) * (float(unit) / scale))
            if v > 1 << 63:
                raise bad
        total += v
        if total > 1 << 63:
            raise bad
    if neg:
        return -total
    if total > (1 << 63) - 1:
        raise bad
    return total


# OPA's fallback grammar: sign? (digits unit)+ with d/w/y rewritten as hours.
_SEGMENTS = re.compile(r"([-+]?)((?:[0-9.]+(?:ms|us|\u00b5s|ns|[a-z]))+)")
_SEGMENT = re.compile(r"([0-9.]+)(ms|us|\u00b5s|ns|[a-z])")
_HOURS_PER_UNIT = {"d": 24, "w": 7 * 24, "y": 365 * 24}


def _parse_duration(text: str) -> int:
    """OPA's duration parsing: Go's ``ParseDuration``, else with ``d``/``w``/``y`` units.

    When Go rejects the text, OPA rewrites each ``<number>d|w|y`` segment as
    ``float(number) * hours`` formatted in shortest decimal form with unit
    ``h`` and gives the result to ``ParseDuration`` again.
    """
    try:
        return _go_parse_duration(text)
    except BuiltinError as first:
        match = _SEGMENTS.fullmatch(text)
        if match is None:
            raise first from None
        parts = [match.group(1)]
        for digits, unit in _SEGMENT.findall(match.group(2)):
            if unit not in _HOURS_PER_UNIT:
                parts.append(digits + unit)
                continue
            try:
                hours = float(digits) * _HOURS_PER_UNIT[unit]
            except ValueError:
                raise first from None
            if not math.isfinite(hours):
                raise first from None
            parts.append(format(Decimal(repr(hours)), "f") + "h")
        return _go_parse_duration("".join(parts))


# ------------------------------------------------------------------ builtins


@register("time.now_ns")
def now_ns() -> int:
    """The current time in ns since the epoch, the same for the whole evaluation."""
    return current_context().now_ns


@register("time.parse_rfc3339_ns")
def parse_rfc3339_ns(value: Any) -> int:
    """An RFC 3339 timestamp as ns since the epoch."""
    text = _string_operand("time.parse_rfc3339_ns", value, 1)
    return _parse_to_ns("time.parse_rfc3339_ns", _RFC3339, text)


@register("time.parse_ns")
def parse_ns(layout: Any, value: Any) -> int:
    """``value`` parsed with a Go layout (or an OPA layout constant name) as ns."""
    layout_text = _string_operand("time.parse_ns", layout, 1)
    text = _string_operand("time.parse_ns", value, 2)
    return _parse_to_ns("time.parse_ns", _LAYOUTS.get(layout_text, layout_text), text)


def _parse_to_ns(name: str, layout: str, text: str) -> int:
    """``text`` parsed with a Go layout, as ns within the range OPA accepts."""
    try:
        ns = _parse(layout, text)
    except _Bad as exc:
        raise BuiltinError(f"{name}: cannot parse {text!r}: {exc}") from None
    return _safe_ns(name, *divmod(ns, _NS))


@register("time.parse_duration_ns")
def parse_duration_ns(value: Any) -> int:
    """A Go duration string (``1h30m``, ``-1.5us``) as ns."""
    return _parse_duration(_string_operand("time.parse_duration_ns", value, 1))


@register("time.format")
def format_(x: Any) -> str:
    """``ns``, ``[ns, tz]`` or ``[ns, tz, layout]`` formatted (RFC 3339 with ns by default)."""
    ns, location, layout = _tz_time("time.format", x)
    layout = _LAYOUTS.get(layout, layout) if layout else _RFC3339_NANO
    return _format(ns, location, layout)


@register("time.date")
def date(x: Any) -> list[int]:
    """``[year, month, day]`` of ``ns`` or ``[ns, tz]``."""
    ns, location, _ = _tz_time("time.date", x)
    f = _Fields(ns, location)
    return [f.year, f.month, f.day]


@register("time.clock")
def clock(x: Any) -> list[int]:
    """``[hour, minute, second]`` of ``ns`` or ``[ns, tz]``."""
    ns, location, _ = _tz_time("time.clock", x)
    f = _Fields(ns, location)
    return [f.hour, f.minute, f.second]


@register("time.weekday")
def weekday(x: Any) -> str:
    """The English day of the week of ``ns`` or ``[ns, tz]``."""
    ns, location, _ = _tz_time("time.weekday", x)
    return _LONG_DAYS[_Fields(ns, location).weekday]


@register("time.add_date")
def add_date(x: Any, years: Any, months: Any, days: Any) -> int:
    """Go's ``Time.AddDate`` (overflowing dates normalise: Jan 31 + 1 month = Mar 2/3)."""
    name = "time.add_date"
    ns, location, _ = _tz_time(name, x)
    dy = _int_operand(name, years, 2)
    dm = _int_operand(name, months, 3)
    dd = _int_operand(name, days, 4)
    f = _Fields(ns, location)
    unix = _date_to_unix(
        f.year + dy, f.month + dm, f.day + dd, f.hour, f.minute, f.second, location
    )
    return _safe_ns(name, unix, f.nsec)


@register("time.diff")
def diff(x: Any, y: Any) -> list[int]:
    """``[years, months, days, hours, minutes, seconds]`` between two instants."""
    ns1, location, _ = _tz_time("time.diff", x)
    ns2, _, _ = _tz_time("time.diff", y)
    if ns1 > ns2:
        ns1, ns2 = ns2, ns1
    a = _Fields(ns1, location)
    b = _Fields(ns2, location)
    year = b.year - a.year
    month = b.month - a.month
    day = b.day - a.day
    hour = b.hour - a.hour
    minute = b.minute - a.minute
    sec = b.second - a.second
    if sec < 0:
        sec += 60
        minute -= 1
    if minute < 0:
        minute += 60
        hour -= 1
    if hour < 0:
        hour += 24
        day -= 1
    if day < 0:
        day += _days_in(a.month, a.year)
        month -= 1
    if month < 0:
        month += 12
        year -= 1
    return [year, month, day, hour, minute, sec]
