"""Terraform's date and time functions: ``formatdate``, ``timeadd``, ``timecmp``.

Timestamps are RFC 3339 text, as Go's ``time.Parse(time.RFC3339, ...)`` reads
it; results are written as Go's ``time.RFC3339`` layout writes them (whole
seconds, ``Z`` for a zero offset). ``timestamp`` and ``plantimestamp`` are the
moment Terraform runs, not part of the configuration: they are in
:data:`APPLY_TIME_FUNCTIONS` of :mod:`hcl_functions`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.inputs.loaders.hcl_conversions import FunctionError, as_string

_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})\Z"
)


def parse_timestamp(text: Any) -> datetime.datetime:
    """An RFC 3339 timestamp with its offset, as Go's ``time.Parse`` reads it."""
    match = _RFC3339.match(as_string(text))
    if match is None:
        raise FunctionError(f"not a valid RFC3339 timestamp: {text!r}")
    year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
    fraction, zone = match.group(7), match.group(8)
    if zone == "Z":
        offset = datetime.timedelta(0)
    else:
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours > 23 or minutes > 59:
            raise FunctionError(f"not a valid RFC3339 timestamp: offset {zone!r}")
        offset = datetime.timedelta(hours=hours, minutes=minutes) * (-1 if zone[0] == "-" else 1)
    microseconds = int((fraction[1:] + "000000")[:6]) if fraction else 0
    try:
        return datetime.datetime(
            year, month, day, hour, minute, second, microseconds, datetime.timezone(offset)
        )
    except ValueError as exc:
        raise FunctionError(f"not a valid RFC3339 timestamp: {exc}") from None


def format_rfc3339(moment: datetime.datetime) -> str:
    """Go's ``time.RFC3339`` layout: whole seconds, ``Z`` when the offset is zero."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return text + _offset(moment, colon=True, utc="Z")


def _offset(moment: datetime.datetime, *, colon: bool, utc: str | None) -> str:
    delta = moment.utcoffset() or datetime.timedelta(0)
    if utc is not None and not delta:
        return utc
    minutes = int(delta.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}{':' if colon else ''}{rest:02d}"


_DURATION_UNITS = {
    "ns": 1e-3,
    "us": 1.0,
    "µs": 1.0,
    "μs": 1.0,
    "ms": 1e3,
    "s": 1e6,
    "m": 60e6,
    "h": 3600e6,
}
_DURATION_PART = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)")


def parse_duration(text: Any) -> datetime.timedelta:
    """A Go duration (``1h30m``, ``-10m``, ``1.5h``); microseconds are the finest unit kept."""
    whole = as_string(text)
    sign, body = (-1, whole[1:]) if whole.startswith("-") else (1, whole.removeprefix("+"))
    if body == "0":
        return datetime.timedelta(0)
    position, micros = 0, 0.0
    while position < len(body):
        match = _DURATION_PART.match(body, position)
        if match is None:
            raise FunctionError(f"time: invalid duration {whole!r}")
        micros += float(match.group(1)) * _DURATION_UNITS[match.group(2)]
        position = match.end()
    if not body:
        raise FunctionError(f"time: invalid duration {whole!r}")
    return datetime.timedelta(microseconds=sign * micros)


def _timeadd(timestamp: Any, duration: Any) -> str:
    try:
        return format_rfc3339(parse_timestamp(timestamp) + parse_duration(duration))
    except OverflowError:
        raise FunctionError("timeadd() result out of range") from None


def _timecmp(left: Any, right: Any) -> int:
    first, second = parse_timestamp(left), parse_timestamp(right)
    return (first > second) - (first < second)


_MONTHS: tuple[str, ...] = ("January", "February", "March", "April", "May", "June", "July")
_MONTHS += ("August", "September", "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_FORMAT_TOKEN = re.compile(r"'(?:[^']|'')*'?|([A-Za-z])\1*|[^A-Za-z']+")


def _formatdate(spec: Any, timestamp: Any) -> str:
    moment = parse_timestamp(timestamp)
    pieces: list[str] = []
    for match in _FORMAT_TOKEN.finditer(as_string(spec)):
        token = match.group(0)
        if token.startswith("'"):
            if token == "''":
                pieces.append("'")
            elif len(token) < 2 or not token.endswith("'"):
                raise FunctionError("unterminated literal '")
            else:
                pieces.append(token[1:-1].replace("''", "'"))
        elif token[0].isalpha():
            pieces.append(_date_verb(token, moment))
        else:
            pieces.append(token)
    return "".join(pieces)


def _date_verb(token: str, moment: datetime.datetime) -> str:
    letter, size = token[0], len(token)
    twelve = moment.hour % 12 or 12
    numbers = {
        "M": moment.month,
        "D": moment.day,
        "h": moment.hour,
        "H": twelve,
        "m": moment.minute,
        "s": moment.second,
    }
    if letter == "Y" and size in (2, 4):
        return f"{moment.year % 100:02d}" if size == 2 else f"{moment.year:04d}"
    if letter in numbers and size in (1, 2):
        return f"{numbers[letter]:0{size}d}"
    if letter == "M" and size in (3, 4):
        name = _MONTHS[moment.month - 1]
        return name[:3] if size == 3 else name
    if letter == "E" and size in (3, 4):
        name = _WEEKDAYS[moment.weekday()]
        return name[:3] if size == 3 else name
    if letter in "Aa" and size == 2:
        marker = "AM" if moment.hour < 12 else "PM"
        return marker if letter == "A" else marker.lower()
    if letter == "Z" and size in (1, 3, 4, 5):
        return {
            1: lambda: _offset(moment, colon=True, utc="Z"),
            3: lambda: _offset(moment, colon=False, utc="UTC"),
            4: lambda: _offset(moment, colon=False, utc=None),
            5: lambda: _offset(moment, colon=True, utc=None),
        }[size]()
    raise FunctionError(f"invalid date format verb {token!r}")


TIME_FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "formatdate": _formatdate,
    "timeadd": _timeadd,
    "timecmp": _timecmp,
}
"""The date and time functions whose value the configuration decides."""
