"""The address space left under ``RLIMIT_AS`` (``prlimit --as``, ``ulimit -v``).

orjson does not survive an allocation failure: under an address-space cap it
ends the process with a segmentation fault (a 40 MB State under a 540-680 MiB
cap, measured) where Python's own parser raises :class:`MemoryError`. Code
handing a large buffer to orjson asks :func:`room_for` first and takes
Python's path when the room is short; without a cap the answer is always yes.
"""

from __future__ import annotations

import os
import resource

_PAGE = os.sysconf("SC_PAGE_SIZE")

ORJSON_WRITE_ROOM = 1024 * 1024 * 1024
"""Address space ``orjson.dumps`` of any one document may need: its output
buffer grows by reallocation (about three times the text at the moment it
grows), and a document is at most ``--max-file-size`` (256 MB) of text."""


def address_space_left() -> int | None:
    """Bytes of address space this process may still map; None without a cap."""
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit == resource.RLIM_INFINITY:
        return None
    with open("/proc/self/statm", "rb") as statm:
        mapped = int(statm.read().split()[0]) * _PAGE
    return max(limit - mapped, 0)


def room_for(nbytes: int) -> bool:
    """Whether ``nbytes`` more can be mapped (always, without a cap)."""
    left = address_space_left()
    return left is None or left >= nbytes


def no_room_message() -> str:
    """The error for work that ran out of address space under the cap."""
    left = address_space_left()
    where = "" if left is None else f" ({left / 2**20:.0f} MiB left under the address-space limit)"
    return f"not enough memory{where}"
