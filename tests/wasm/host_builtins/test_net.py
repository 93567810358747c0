"""Tests for the net.cidr_* host builtins (Go net semantics, OPA's cidr_merge)."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.net import ip_string, parse_cidr, parse_ip
from engine.wasm.values import Set

V, E, M, C = (
    "net.cidr_is_valid",
    "net.cidr_expand",
    "net.cidr_merge",
    "net.cidr_contains_matches",
)

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    (V, ("10.0.0.0/8",)),
    (V, ("10.0.0.0/33",)),
    (V, ("10.0.0.0",)),
    (V, ("010.0.0.0/8",)),  # leading zero in an IPv4 field
    (V, ("10.0.0.0/08",)),
    (V, ("10.0.0.0/+8",)),
    (V, ("::/0",)),
    (V, ("fe80::1%eth0/64",)),
    (V, ("::ffff:1.2.3.4/120",)),
    (V, ("1:2:3:4:5:6:7::/64",)),
    (V, ("1:2:3:4:5:6:7:8::/64",)),
    (V, ("12345::/64",)),
    (V, ("10.0.0.0/8 ",)),
    (V, ("1::1.2.3.4/128",)),
    (E, ("192.168.1.0/30",)),
    (E, ("192.168.1.1/30",)),
    (E, ("255.255.255.254/31",)),
    (E, ("2001:db8::/126",)),
    (E, ("::ffff:1.2.3.0/126",)),  # IPv4-mapped: printed as IPv4
    (E, ("::fffe:ffff:ffff/127",)),
    (E, ("1:0:0:1:0:0:0:0/128",)),
    (E, ("nope",)),
    (M, (["192.0.128.0/24", "192.0.129.0/24"],)),
    (M, (Set(["192.0.128.0/24", "192.0.129.0/24"]),)),
    (M, (["1.2.3.4"],)),  # a bare IPv4 address gets its classful default mask
    (M, (["1.2.3.4", "1.2.3.5"],)),
    (M, (["200.1.1.1", "130.1.1.1"],)),
    (M, (["::1"],)),
    (M, (["::/0", "0.0.0.0/0"],)),
    (M, (["10.0.0.0/8", "10.0.0.0/16", "11.0.0.0/8"],)),
    (M, (["10.0.0.1/32", "10.0.0.2/32", "10.0.0.3/32"],)),
    (M, (["10.0.0.0/24", "10.0.1.0/24", "10.0.2.0/24"],)),
    (M, ([],)),
    (M, (["x"],)),
    (M, (["2001:db8::/33", "2001:db8:8000::/33"],)),
    (M, (["::/128", "::1/128"],)),
    (M, (["::ffff:1.2.3.0/120", "1.2.4.0/24"],)),
    (M, (["::ffff:1.2.3.4"],)),
    (M, (["10.0.0.5/32", "10.0.0.6/32", "10.0.0.7/32", "10.0.0.8/32"],)),
    (M, (["fe80::/64", "fe80:0:0:1::/64", "::/128"],)),
    (M, (["255.255.255.255/32", "255.255.255.254/32"],)),
    (M, (["10.0.0.0/8", "2001:db8::/32", "10.0.0.0/9"],)),
    (C, ("10.0.0.0/8", "10.1.2.3")),
    (C, (["10.0.0.0/8", "192.168.0.0/16"], ["10.1.2.3", "192.168.1.1", "8.8.8.8"])),
    (
        C,
        (
            {"a": "10.0.0.0/8", "b": ["192.168.0.0/16", "x"]},
            Set(["10.1.2.3", ["192.168.1.0/24"]]),
        ),
    ),
    (C, (["bogus"], [])),  # never compared, so no error
    (C, (["bogus"], ["1.2.3.4"])),
    (C, (["10.0.0.0/8"], [[]])),
    (C, (["::/0"], "1.2.3.4")),
    (C, ("::ffff:0:0/96", "1.2.3.4")),
    (C, ("::/0", "::ffff:1.2.3.0/120")),
    (C, ("::/80", "::/80")),
    (C, ("2001:db8::/32", "2001:db8:1::/48")),
    (C, ("10.0.0.0/8", "10.255.255.255/32")),
    (C, ("10.0.0.0/8", "10.0.0.0/7")),
    (C, ("10.0.0.0", "10.0.0.1")),
    (C, (Set(["10.0.0.0/8"]), {"x": "10.2.3.4"})),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), DIFF_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(DIFF_CASES)]
)
def test_against_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_parsing_and_formatting() -> None:
    assert parse_ip("1.2.3.4") == bytes(10) + b"\xff\xff\x01\x02\x03\x04"
    assert parse_ip("01.2.3.4") is None
    assert parse_ip("fe80::1%eth0") is None
    assert ip_string(parse_ip("2001:db8:0:0:1:0:0:1")) == "2001:db8::1:0:0:1"
    assert ip_string(parse_ip("::ffff:10.0.0.1")) == "10.0.0.1"
    ip16, net = parse_cidr("10.1.2.3/8")
    assert ip16[12:] == b"\x0a\x01\x02\x03" and net == (b"\x0a\x00\x00\x00", b"\xff\x00\x00\x00")


def test_known_results() -> None:
    assert REGISTRY[M](["1.2.3.4"]) == Set(["1.2.3.4/8"])
    assert REGISTRY[E]("10.0.0.0/31") == Set(["10.0.0.0", "10.0.0.1"])
    assert REGISTRY[C](["10.0.0.0/8"], {"k": "10.0.0.1"}) == Set([[0, "k"]])


def test_merge_go_panic_is_an_error() -> None:
    # OPA itself panics (index out of range) on this input; the engine reports an error.
    with pytest.raises(BuiltinError):
        REGISTRY[M](["1::/128", "1::1/128"])
    with pytest.raises(BuiltinError):
        REGISTRY[M](["::ffff:0:0/96", "0.0.0.0/0"])
