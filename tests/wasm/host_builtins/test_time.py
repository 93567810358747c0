"""Tests for the time.* host builtins (Go time semantics) against the pinned opa."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.registry import EvalContext, reset_context, set_context

NS_2024 = 1706659200000000000  # 2024-01-31T00:00:00Z
NS_DST = 1710054000000000000  # 2024-03-10T07:00:00Z, 03:00 EDT just after the spring gap
NS_MAX = (1 << 63) - 1
NS_MIN = -(1 << 63)


# Literal arguments only: arguments OPA's type checker rejects statically (for
# instance [ns, tz] for time.add_date) are covered by the differential .rego files.
DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    # parse_rfc3339_ns
    ("time.parse_rfc3339_ns", ("2024-01-31T12:34:56Z",)),
    ("time.parse_rfc3339_ns", ("2024-01-31T12:34:56.123456789+05:30",)),
    ("time.parse_rfc3339_ns", ("2024-01-31T12:34:56.1234567891Z",)),  # extra digit dropped
    ("time.parse_rfc3339_ns", ("2024-01-31T12:34:56,5Z",)),  # comma fraction
    ("time.parse_rfc3339_ns", ("2024-01-31T1:34:56Z",)),  # one-digit hour accepted
    ("time.parse_rfc3339_ns", ("2024-01-31T00:00:00+24:00",)),
    ("time.parse_rfc3339_ns", ("2024-02-30T00:00:00Z",)),
    ("time.parse_rfc3339_ns", ("2024-01-31t00:00:00z",)),
    ("time.parse_rfc3339_ns", ("2262-04-11T23:47:16.854775807Z",)),
    ("time.parse_rfc3339_ns", ("2262-04-11T23:47:16.854775808Z",)),  # beyond int64 ns
    ("time.parse_rfc3339_ns", ("1677-09-21T00:12:43.145224192Z",)),
    ("time.parse_rfc3339_ns", ("2024-01-31",)),
    # parse_ns: layout constants and Go's layout language
    ("time.parse_ns", ("RFC3339", "2024-01-31T12:00:00-08:00")),
    ("time.parse_ns", ("RFC1123Z", "Wed, 31 Jan 2024 12:00:00 +0100")),
    ("time.parse_ns", ("RFC822", "31 Jan 24 12:00 PST")),  # unknown zone: offset 0
    ("time.parse_ns", ("ANSIC", "Wed Jan  3 15:04:05 2024")),
    ("time.parse_ns", ("UnixDate", "Wed Jan 3 15:04:05 UTC 2024")),
    ("time.parse_ns", ("Kitchen", "3:04PM")),  # not a constant OPA knows: literal layout
    ("time.parse_ns", ("2006-01-02", "2024-02-29")),
    ("time.parse_ns", ("2006-01-02", "2023-02-29")),
    ("time.parse_ns", ("02/01/2006 15:04", "31/01/2024 23:59")),
    ("time.parse_ns", ("Jan _2 2006 3:04:05.000 pm", "feb  9 2024 11:04:05.123 PM")),
    ("time.parse_ns", ("2006 002", "2024 060")),  # day of year, leap
    ("time.parse_ns", ("2006 002", "2023 366")),
    ("time.parse_ns", ("2006-01-02 15:04 MST", "2024-01-31 10:00 GMT+3")),
    ("time.parse_ns", ("2006-01-02 15:04 MST", "2024-01-31 10:00 +13")),
    ("time.parse_ns", ("2006-01-02 -07:00:00", "2024-01-31 -00:00:01")),  # Go's -1 sentinel
    ("time.parse_ns", ("2006-01-02 15 .000", "2024-01-31 10 .+12")),
    ("time.parse_ns", ("06-01-02", "69-12-31")),
    ("time.parse_ns", ("15:04:05", "24:00:00")),
    ("time.parse_ns", ("2006-01-02", "2024-01-31 extra")),
    ("time.parse_ns", ("2006-01-02", "0000-01-01")),
    # parse_duration_ns: Go's ParseDuration plus OPA's d/w/y units
    ("time.parse_duration_ns", ("1h30m",)),
    ("time.parse_duration_ns", ("1.5h",)),
    ("time.parse_duration_ns", ("-1.5us",)),
    ("time.parse_duration_ns", ("1µs",)),
    ("time.parse_duration_ns", ("1μs",)),
    ("time.parse_duration_ns", ("0",)),
    ("time.parse_duration_ns", ("1",)),
    ("time.parse_duration_ns", ("2562047h47m16.854775807s",)),
    ("time.parse_duration_ns", ("2562047h47m16.854775808s",)),
    ("time.parse_duration_ns", ("-2562047h47m16.854775808s",)),
    ("time.parse_duration_ns", ("1.123456789123456789y",)),
    ("time.parse_duration_ns", ("1y2w3d4h",)),
    ("time.parse_duration_ns", ("293y",)),
    ("time.parse_duration_ns", ("1D",)),
    ("time.parse_duration_ns", ("1 h",)),
    # format
    ("time.format", (NS_2024,)),
    ("time.format", (0,)),
    ("time.format", ([1700000000123456789, "America/New_York"],)),
    ("time.format", ([1700000000123456789, "Asia/Kathmandu", "RFC822Z"],)),
    ("time.format", ([1700000000123456789, "Europe/Berlin", "Monday, 02-Jan-06 3:04:05.000 PM"],)),
    ("time.format", ([-3755000000000000000, "America/New_York", "2006 Z07:00:00 MST"],)),
    ("time.format", ([NS_2024, "UTC", "__2 002 .999 ,000 Z0700 -07"],)),
    ("time.format", ([NS_2024, "UTC", "Kitchen"],)),
    ("time.format", ([NS_2024, "Local", "MST"],)),
    ("time.format", ([NS_2024, "Not/AZone"],)),
    ("time.format", ([NS_2024, "../etc/passwd"],)),
    ("time.format", (NS_MIN,)),
    ("time.format", (1.5,)),
    ("time.format", (9223372036854775808,)),
    # date / clock / weekday
    ("time.date", (NS_MAX,)),
    ("time.date", ([NS_2024, "Pacific/Kiritimati"],)),
    ("time.clock", ([NS_2024, "Australia/Lord_Howe"],)),
    ("time.clock", (-1,)),
    ("time.weekday", ([NS_2024, "America/Los_Angeles"],)),
    ("time.weekday", (NS_MIN,)),
    # add_date: Go normalisation
    ("time.add_date", (NS_2024, 0, 1, 0)),  # Jan 31 + 1 month = Mar 2 (2024 is leap)
    ("time.add_date", (NS_2024 - 365 * 86400 * 10**9, 0, 1, 0)),  # 2023: Mar 3
    ("time.add_date", (NS_2024, -1, -13, 400)),
    ("time.add_date", (NS_2024, 0, 2.0, 0)),
    ("time.add_date", (NS_2024, 0, 0, 1.5)),
    ("time.add_date", (NS_2024, 300, 0, 0)),
    ("time.add_date", (NS_MAX, 0, 0, 1)),
    # diff
    ("time.diff", (1709164800000000000, 1711843200000000000)),
    ("time.diff", (1711843200000000000, [1709164800000000000, "Asia/Tokyo"])),
    ("time.diff", ([NS_DST, "America/New_York"], NS_DST - 3 * 3600 * 10**9)),
    ("time.diff", (NS_MIN, NS_MAX)),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), DIFF_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(DIFF_CASES)]
)
def test_matches_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_now_ns_is_frozen_per_evaluation() -> None:
    token = set_context(EvalContext(now_ns=1234567890123456789))
    try:
        assert REGISTRY["time.now_ns"]() == 1234567890123456789
        assert REGISTRY["time.now_ns"]() == 1234567890123456789
    finally:
        reset_context(token)


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("time.add_date", (NS_2024, 0, 1, 0), 1709337600000000000),  # 2024-03-02
        ("time.parse_duration_ns", ("1.5d",), 129600000000000),
        ("time.parse_duration_ns", ("-0",), 0),
        ("time.format", ([NS_2024, "UTC", "2006-01-02 Mon __2"],), "2024-01-31 Wed  31"),
        ("time.date", ([NS_2024 - 1, "America/New_York"],), [2024, 1, 30]),
        ("time.clock", ([NS_2024, "Asia/Kolkata"],), [5, 30, 0]),
        ("time.diff", (1709164800000000000, 1711843200000000000), [0, 1, 2, 0, 0, 0]),
        ("time.parse_ns", ("2006-01-02T15:04:05Z07:00", "2024-01-31T00:00:00Z"), NS_2024),
    ],
)
def test_known_values(name: str, args: tuple[Any, ...], expected: Any) -> None:
    assert REGISTRY[name](*args) == expected


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("time.parse_rfc3339_ns", (1,)),
        ("time.parse_ns", ("2006", None)),
        ("time.parse_duration_ns", ("1x",)),
        ("time.format", ([],)),
        ("time.format", (["1", "UTC"],)),
        ("time.format", ([1, 2],)),
        ("time.date", ("2024",)),
        ("time.add_date", (0, "1", 0, 0)),
        ("time.add_date", (0, True, 0, 0)),
        ("time.diff", (0, [0, "Nowhere/City"])),
    ],
)
def test_operand_errors(name: str, args: tuple[Any, ...]) -> None:
    with pytest.raises(BuiltinError):
        REGISTRY[name](*args)
