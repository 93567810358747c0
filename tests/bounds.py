"""Measuring that a bound held: wall time and peak resident memory of a block,
or of a subprocess run under an address-space cap and a timeout.

Peak RSS is sampled from ``/proc/self/statm`` by a thread every few
milliseconds, so it sees Wasm memory and Python allocations alike.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_PAGE = os.sysconf("SC_PAGE_SIZE")
MIB = 1024 * 1024


def rss_bytes() -> int:
    """The process's resident memory now."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE


@dataclass
class Measured:
    """What a block took: seconds, and peak RSS above the RSS at its start."""

    seconds: float = 0.0
    peak_growth: int = 0

    @property
    def peak_growth_mib(self) -> float:
        return self.peak_growth / MIB


@contextmanager
def measured() -> Iterator[Measured]:
    """Time the block and sample its peak RSS growth."""
    result = Measured()
    base = rss_bytes()
    peak = [base]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.005):
            peak[0] = max(peak[0], rss_bytes())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    try:
        yield result
    finally:
        result.seconds = time.perf_counter() - started
        done.set()
        sampler.join()
        result.peak_growth = max(peak[0], rss_bytes()) - base


@dataclass
class Bounded:
    """A command run under an address-space cap: its exit code, output and time."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float


def _cap(memory_mib: int) -> Callable[[], None]:
    def apply() -> None:
        limit = memory_mib * MIB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_bounded(
    args: Sequence[str], *, memory_mib: int, timeout: float, cwd: Path | None = None
) -> Bounded:
    """Run ``python args...`` in a subprocess under ``RLIMIT_AS`` of ``memory_mib``
    and a wall-clock ``timeout``: a probe that regresses fails its test (an
    error, or this raising) instead of taking the machine down."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=_cap(memory_mib),
            cwd=cwd,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"still running after {timeout} s: {' '.join(args)[:200]}") from None
    return Bounded(done.returncode, done.stdout, done.stderr, time.perf_counter() - started)


def run_engine_bounded(
    args: Sequence[str], *, memory_mib: int, timeout: float, cwd: Path | None = None
) -> Bounded:
    """``rego-engine args...`` (as ``python -m engine``) under :func:`run_bounded`."""
    return run_bounded(["-m", "engine", *args], memory_mib=memory_mib, timeout=timeout, cwd=cwd)


WASM_RESERVATION_MIB = 4160
"""Address space wasmtime reserves for one Wasm memory (4 GiB and its guard
pages), never touched: a cap on a run that evaluates rules must leave room for it."""
