"""Pausing Python's cyclic garbage collector around bulk work.

Loading an input, building its relation index and its results allocate
millions of small, acyclic objects; reference counting frees them. The
cyclic collector's passes over them only cost time (superlinear in the
number of live objects), so the scan pauses it per input.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block (re-enabled after, if it was on)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # What the block allocated would all be young: the next collections
            # would walk it. Frozen, it is left to reference counting.
            gc.freeze()
            gc.enable()


def thaw() -> None:
    """Hand what paused blocks froze back to the collector (at the end of a
    scan, when most of it is gone), so cyclic garbage among it is reclaimed."""
    gc.unfreeze()
