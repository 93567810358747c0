"""Tests for uuid.parse (google/uuid forms, OPA's fields) and uuid.rfc4122."""

from __future__ import annotations

import re
from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.host_builtins import REGISTRY
from engine.wasm.host_builtins.registry import EvalContext, reset_context, set_context

UUIDS = [
    "6ba7b810-9dad-11d1-80b4-00c04fd430c8",  # v1
    "00000000-0000-0000-0000-000000000000",
    "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "URN:UUID:6BA7B810-9DAD-11D1-80B4-00C04FD430C8",
    "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}",
    "x6ba7b810-9dad-11d1-80b4-00c04fd430c8y",  # any one-character wrapper is accepted
    "6ba7b8109dad11d180b400c04fd430c8",
    "6ba7b810-9dad-11d1-80b4-00c04fd430c",
    "6ba7b810-9dad-11d1-80b4_00c04fd430c8",
    "f47ac10b-58cc-4372-a567-0e02b2c3d479",  # v4
    "000003e8-2b9a-21ef-9a00-325096b39f47",  # v2, Person
    "000003e8-2b9a-21ef-9a01-325096b39f47",  # v2, Group
    "000003e8-2b9a-21ef-9a05-325096b39f47",  # v2, unknown domain
    "ffffffff-ffff-1fff-ffff-ffffffffffff",  # time overflows int64
    "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",  # v7
    "a8098c1a-f86e-11da-dd1a-03112444be1e",  # Microsoft variant, local multicast
    "a8098c1a-f86e-11da-fd1a-02112444be1e",  # Future variant, local unicast
    "a8098c1a-f86e-11da-0d1a-01112444be1e",  # Reserved variant, global multicast
    "",
    "not-a-uuid",
    "6ba7b810-9dad-11d1-80b4-00c04fd430é",  # 36 bytes but not hex
]

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [("uuid.parse", (u,)) for u in UUIDS]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), DIFF_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(DIFF_CASES)]
)
def test_against_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_parse_v1_fields() -> None:
    assert REGISTRY["uuid.parse"]("6ba7b810-9dad-11d1-80b4-00c04fd430c8") == {
        "version": 1,
        "variant": "RFC4122",
        "time": 886630433151182400,
        "nodeid": "00-c0-4f-d4-30-c8",
        "macvariables": "global:unicast",
        "clocksequence": 180,
    }


def test_rfc4122_format_and_memo() -> None:
    rfc4122 = REGISTRY["uuid.rfc4122"]
    token = set_context(EvalContext(now_ns=0))
    try:
        a, b, a2 = rfc4122("a"), rfc4122("b"), rfc4122("a")
    finally:
        reset_context(token)
    pattern = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
    assert re.fullmatch(pattern, a) and re.fullmatch(pattern, b)
    assert a == a2 and a != b
    token = set_context(EvalContext(now_ns=0))
    try:
        assert rfc4122("a") != a  # a new evaluation draws a new value
    finally:
        reset_context(token)
