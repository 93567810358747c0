"""Tests for semver.compare and semver.is_valid (OPA's SemVer parser)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from oracle import host_call as call
from oracle import needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError

VALID = [
    "1.0.0",
    "v1.0.0",
    "vv1.0.0",
    "V1.0.0",
    "1.0",
    "1.0.0.0",
    "01.0.0",
    "1.0.0-alpha.01",
    "1.0.0-alpha.0a",
    "1.0.0-",
    "1.0.0+",
    "1.0.0-rc.1+build.5",
    "1.0.0-alpha_1",
    "1.0.0-a..b",
    "9223372036854775807.0.0",
    "9223372036854775808.0.0",
    "+1.0.0",
    "1.0.0-alpha-beta",
    "1.0.0+build+x",
    " 1.0.0",
    "１.0.0",
]

COMPARE = [
    ("1.0.0", "1.0.0"),
    ("1.0.0", "1.0.1"),
    ("2.0.0", "1.9.9"),
    ("1.10.0", "1.9.0"),
    ("1.0.0-alpha", "1.0.0"),
    ("1.0.0-alpha", "1.0.0-alpha.1"),
    ("1.0.0-alpha.1", "1.0.0-alpha.beta"),
    ("1.0.0-beta.2", "1.0.0-beta.11"),
    ("1.0.0-rc.1", "1.0.0-beta.11"),
    ("1.0.0-1", "1.0.0-a"),
    ("1.0.0-a", "1.0.0-A"),
    ("1.0.0-alpha.1.2", "1.0.0-alpha.1"),
    ("1.0.0+a", "1.0.0+b"),
    ("v1.2.3", "1.2.3"),
    ("x", "1.0.0"),
    ("1.0.0", "1.0"),
    ("1.0.0-99999999999999999999", "1.0.0-1"),
]

DIFF_CASES: list[tuple[str, tuple[Any, ...]]] = [("semver.is_valid", (v,)) for v in VALID] + [
    ("semver.compare", pair) for pair in COMPARE
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), DIFF_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(DIFF_CASES)]
)
def test_against_opa(name: str, args: tuple[Any, ...]) -> None:
    from oracle import opa_call

    assert call(name, *args) == opa_call(name, *args)


def test_precedence_chain() -> None:
    chain = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
    ]
    compare = REGISTRY["semver.compare"]
    for lower, higher in itertools.pairwise(chain):
        assert compare(lower, higher) == -1
        assert compare(higher, lower) == 1


def test_errors_and_non_strings() -> None:
    assert REGISTRY["semver.is_valid"](1) is False
    with pytest.raises(BuiltinError):
        REGISTRY["semver.compare"]("1.0", "1.0.0")
    with pytest.raises(BuiltinError):
        REGISTRY["semver.compare"]("1.0.0", None)
