"""Host builtins whose work grows faster than their arguments stop at the
evaluation's deadline (Wasm's epoch interruption does not reach Python code).

Each probe calls the builtin with arguments that would take minutes to hours,
under a deadline of 0.3 s, in a subprocess capped in address space and time,
so a regression fails the test instead of holding the machine. Beside each
probe, the same builtin on small arguments under the same deadline keeps its
value.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from bounds import run_bounded

DEADLINE = 0.3

_PROBE = """
import json, sys, time
from engine.wasm.host_builtins import REGISTRY
from engine.wasm.host_builtins.registry import BuiltinTimeExceeded, EvalContext, set_context
from engine.wasm.values import Set

name, args = sys.argv[1], eval(sys.argv[2], {"Set": Set})
set_context(EvalContext(now_ns=0, deadline=time.monotonic() + float(sys.argv[3])))
started = time.monotonic()
try:
    value = REGISTRY[name](*args)
    outcome = "value"
except BuiltinTimeExceeded:
    value, outcome = None, "time"
print(json.dumps({"outcome": outcome, "seconds": time.monotonic() - started,
                  "value": value if isinstance(value, (bool, int, str)) else repr(value)[:200]}))
"""

SLOW: dict[str, tuple[str, str]] = {
    # case: (builtin, Python expression of its argument tuple)
    "globs_match": ("regex.globs_match", "('.*a*' * 8 + 'b+', 'a' * 30 + 'd+')"),
    "any_prefix_match": (
        "strings.any_prefix_match",
        "([f'x{i}' for i in range(100_000)], [f'y{i}' for i in range(100_000)])",
    ),
    "any_suffix_match": (
        "strings.any_suffix_match",
        "([f'{i}x' for i in range(100_000)], [f'{i}y' for i in range(100_000)])",
    ),
    "cidr_contains_matches": (
        "net.cidr_contains_matches",
        "([f'10.{i // 256}.{i % 256}.0/24' for i in range(20_000)],"
        " [f'11.{i // 256}.{i % 256}.1' for i in range(20_000)])",
    ),
    "cidr_expand": ("net.cidr_expand", "('10.0.0.0/8',)"),
    "object_subset_arrays": ("object.subset", "([0] * 200_000, [0] * 2_000 + [1])"),
    "object_subset_array_set": (
        "object.subset",
        "(list(range(100_000)), Set([*range(98_000, 100_000), 100_001]))",
    ),
    "json_patch": (
        "json.patch",
        "({f'k{i}': i for i in range(20_000)}, [{'op': 'add', 'path': '/z', 'value': 1}]"
        " + [{'op': 'test', 'path': '', 'value': {**{f'k{i}': i for i in range(20_000)},"
        " 'z': 1}}] * 20_000)",
    ),
}

SMALL: dict[str, tuple[str, str, Any]] = {
    "globs_match": ("regex.globs_match", "('.*a*b+', 'aab')", True),
    "any_prefix_match": ("strings.any_prefix_match", "(['abc', 'xyz'], ['q', 'xy'])", True),
    "any_suffix_match": ("strings.any_suffix_match", "(['abc', 'xyz'], ['q', 'b'])", False),
    "cidr_contains_matches": (
        "net.cidr_contains_matches",
        "(['10.0.0.0/8'], ['10.1.1.1', '11.0.0.1'])",
        "Set([[0, 0]])",
    ),
    "cidr_expand": ("net.cidr_expand", "('10.0.0.0/31',)", "Set(['10.0.0.0', '10.0.0.1'])"),
    "object_subset_arrays": ("object.subset", "([1, 2, 3, 4], [2, 3])", True),
    "object_subset_array_set": ("object.subset", "([1, 2, 3], Set([3, 1]))", True),
    "json_patch": (
        "json.patch",
        "({'a': 1}, [{'op': 'test', 'path': '/a', 'value': 1}])",
        "{'a': 1}",
    ),
}


def _call(name: str, args: str) -> dict[str, Any]:
    done = run_bounded(["-c", _PROBE, name, args, str(DEADLINE)], memory_mib=2048, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("case", sorted(SLOW))
def test_a_slow_builtin_stops_at_the_deadline(case: str) -> None:
    name, args = SLOW[case]
    result = _call(name, args)
    assert result["outcome"] == "time", result
    # Unbounded, each call runs for minutes: a margin wide enough for a loaded
    # machine still shows the builtin checked the deadline as it went.
    assert result["seconds"] < DEADLINE + 30, result


@pytest.mark.parametrize("case", sorted(SMALL))
def test_the_same_builtin_on_small_arguments_keeps_its_value(case: str) -> None:
    name, args, expected = SMALL[case]
    result = _call(name, args)
    assert result["outcome"] == "value", result
    assert result["value"] == expected, result


def test_every_slow_probe_has_a_control() -> None:
    assert set(SLOW) == set(SMALL)
