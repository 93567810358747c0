"""Measuring that a bound held: wall time and peak resident memory of a block.

Peak RSS is sampled from ``/proc/self/statm`` by a thread every few
milliseconds, so it sees Wasm memory and Python allocations alike.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

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
