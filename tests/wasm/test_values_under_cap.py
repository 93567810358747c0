"""Writing values as text under an address-space cap (``prlimit --as``):
short of memory it is a MemoryError the caller reports, never a crash of the
process (orjson ends it with a segmentation fault when its output buffer
cannot grow). Each probe runs in a subprocess that lowers its own
``RLIMIT_AS`` to what it has mapped plus a share of the text's size."""

from __future__ import annotations

import pytest
from bounds import run_bounded

_PROBE = """
import json, resource, sys
from engine.wasm import values
value = [{"id": f"r{i}", "tags": {f"k{j}": "v" * 20 for j in range(20)}} for i in range(20000)]
size = len(json.dumps(value))
mapped = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
cap = mapped + int(float(sys.argv[2]) * size)
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
write = values.dumps if sys.argv[1] == "dumps" else values.dumps_json
try:
    print(len(write(value)))
except MemoryError:
    print("MemoryError")
"""


@pytest.mark.parametrize("writer", ["dumps", "dumps_json"])
@pytest.mark.parametrize("share", [0.25, 0.5, 1, 2])
def test_writing_short_of_address_space_is_a_memory_error(writer: str, share: float) -> None:
    done = run_bounded(["-c", _PROBE, writer, str(share)], memory_mib=3072, timeout=120)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-500:]}"
    outcome = done.stdout.strip()
    assert outcome == "MemoryError" or int(outcome) > 10_000_000, outcome
