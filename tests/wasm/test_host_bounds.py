"""Addresses and lengths a policy module hands the host are checked against
its memory before the host reads or writes there.

Each case runs a hand-made module (:mod:`hostile_module`) in a subprocess
with a timeout, so a regression (a SIGSEGV in the host) fails the test
instead of taking pytest down.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_module import MEMORY_BYTES

HERE = Path(__file__).parent

_PROBE = """
import json, sys
sys.path.insert(0, {here!r})
from hostile_module import hostile_policy
from engine.wasm.host import EvalError, PolicyInstance
try:
    print(json.dumps(PolicyInstance(hostile_policy(**{kwargs!r})).evaluate("main")))
except EvalError as exc:
    print("EvalError:", exc)
"""


def _probe(tmp_path: Path, **kwargs: int) -> str:
    env = dict(os.environ, REGO_ENGINE_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE.format(here=str(HERE), kwargs=kwargs)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    return proc.stdout.strip()


def test_the_hand_made_module_runs_when_its_addresses_are_in_memory(tmp_path: Path) -> None:
    assert json.loads(_probe(tmp_path)) == []


END = MEMORY_BYTES - 3  # "abc" with no NUL before the end of memory


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"malloc": 0xFFFFFFF0}, "an allocation at address 4294967280 (2 bytes) is outside"),
        ({"malloc": MEMORY_BYTES - 1}, f"an allocation at address {MEMORY_BYTES - 1} (2 bytes)"),
        ({"dump": 0xFFFFFF00}, "the text of the result at address 4294967040 (1 bytes)"),
        ({"dump": END}, f"the text of the result at address {END} runs past the end"),
        ({"println": 0x7FFFFFFF}, "a print message at address 2147483647 (1 bytes) is outside"),
        ({"println": MEMORY_BYTES}, f"a print message at address {MEMORY_BYTES} (1 bytes)"),
        ({"abort": 0xFFFFFFFF}, "an abort message at address 4294967295 (1 bytes) is outside"),
        ({"abort": END}, f"an abort message at address {END} runs past the end"),
    ],
)
def test_an_address_outside_memory_is_an_error_naming_the_module(
    tmp_path: Path, kwargs: dict[str, int], message: str
) -> None:
    out = _probe(tmp_path, **kwargs)
    assert out.startswith("EvalError: policy module hand-made: "), out
    assert message in out
    assert f"its memory of {MEMORY_BYTES} bytes" in out


def test_a_result_that_is_not_a_rego_value_is_an_error_naming_the_module(
    tmp_path: Path,
) -> None:
    out = _probe(tmp_path, dump=0)  # the empty string at address 0
    assert out.startswith("EvalError: policy module hand-made: its result is not a Rego value"), out
    out = _probe(tmp_path, dump=16)  # "{}": a Rego value, not a result set
    assert out == "EvalError: policy module hand-made: its result is not a result set", out


_FUZZ = """
import sys
sys.path.insert(0, {tests!r})
from hypothesis import HealthCheck, given, settings
import fuzz_boundaries
settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))(
    given(fuzz_boundaries.host_cases)(fuzz_boundaries.host_boundary)
)()
print("ok")
"""


def test_random_addresses_and_lengths_never_crash_the_host(tmp_path: Path) -> None:
    env = dict(os.environ, REGO_ENGINE_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run(
        [sys.executable, "-c", _FUZZ.format(tests=str(HERE.parent))],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-3000:])
    assert proc.stdout.strip().endswith("ok")
