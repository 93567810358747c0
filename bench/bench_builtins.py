"""Host builtin calls made from Rego, against a native builtin (on demand).

    .venv/bin/python bench/bench_builtins.py [CALLS]

Rules loop ``CALLS`` times over a builtin call; the same loop with no call is
subtracted, leaving the cost of one call. Host builtins (answered in Python
through ``opa_builtin0..4``) are printed beside the native ``concat`` of the
same run, on a small heap and on a fragmented one: there each loop starts by
calling a bench-only builtin that leaves thousands of freed blocks of 128 to
640 bytes on OPA's malloc free list (as a big scan does), which an
allocation the Wasm runtime makes may walk. Nothing is asserted.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from engine.rules.capabilities import BuiltinDecl
from engine.rules.compiler import compile_policy
from engine.rules.sources import load_sources
from engine.wasm.host import PolicyInstance

CALLS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
FRAGMENTS = 2_000
"""Free blocks left on the malloc free list before a big-heap loop."""
REPEATS = 5

CASES = {
    "no call": "x := i",
    "concat (native)": 'x := concat("-", ["r", s])',
    "host call doing nothing": "x := __bench_noop(s)",
    "sprintf": 'x := sprintf("bucket %s allows %d ports", [s, i])',
    "regex.replace": 'x := regex.replace(s, "[0-9]+", "N")',
    "strings.any_prefix_match": 'x := strings.any_prefix_match(s, ["a", "b"])',
    "semver.compare": 'x := semver.compare("1.2.3", "1.10.0")',
    "yaml.unmarshal": 'x := yaml.unmarshal("{a: [1, 2], b: c}")',
}


def _policy_source() -> str:
    lines = [
        "package b",
        "import rego.v1",
    ]
    for n, body in enumerate(CASES.values()):
        loop = f"count([x | some i in numbers.range(1, {CALLS}); s := input.name; {body}])"
        lines.append(f"small_{n} := {loop}")
        lines.append(f"big_{n} := n if {{ __bench_fragment({FRAGMENTS}); n := {loop} }}")
    return "\n".join(lines) + "\n"


FRAGMENT = BuiltinDecl(
    name="__bench_fragment",
    decl={"type": "function", "args": [{"type": "number"}], "result": {"type": "boolean"}},
    description="bench-only: leaves N free blocks on the malloc free list",
    source="bench",
)


NOOP = BuiltinDecl(
    name="__bench_noop",
    decl={"type": "function", "args": [{"type": "any"}], "result": {"type": "any"}},
    description="bench-only: returns its argument untouched (the floor of a host call)",
    source="bench",
)


def _noop(_inst: PolicyInstance, addr: int) -> int:
    return addr


def _fragment(inst: PolicyInstance, n_addr: int) -> int:
    """Allocate 2N blocks, free every other one (highest address first, so
    each free is O(1)); the N left free are not adjacent, so never merged."""
    malloc, free = (
        inst._fn["opa_malloc"],
        inst.export("opa_free"),
    )
    blocks = [malloc(128 + (j * 37) % 512) for j in range(2 * inst.to_python(n_addr))]
    for addr in reversed(blocks[::2]):
        free(addr)
    return inst.from_python(True)


def _best(inst: PolicyInstance, entrypoint: str) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        inst.evaluate(entrypoint)
        best = min(best, time.perf_counter() - started)
    return best


def _ratio(cost: float, native: float) -> str:
    return f"{cost / native:6.0f}x" if native > 0 else "     -"


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-builtins-"))
    (root / "b.rego").write_text(_policy_source())
    entrypoints = [f"b/{h}_{n}" for n in range(len(CASES)) for h in ("small", "big")]
    policy = compile_policy(load_sources([root]), entrypoints, decls=[FRAGMENT, NOOP])
    inst = PolicyInstance(policy, custom={"__bench_fragment": _fragment, "__bench_noop": _noop})
    inst.set_input(json.dumps({"name": "bucket-17-logs"}).encode())
    print(f"{CALLS} calls per loop; big heap: {FRAGMENTS} blocks on the free list")
    print(f"{'builtin':26} {'small heap':>22} {'big heap':>22}")
    base = {h: _best(inst, f"b/{h}_0") for h in ("small", "big")}
    per_call: dict[str, dict[str, float]] = {}
    for n, name in enumerate(CASES):
        if n == 0:
            continue
        per_call[name] = {
            h: max(0.0, _best(inst, f"b/{h}_{n}") - base[h]) / CALLS for h in ("small", "big")
        }
    loop = "  ".join(f"{h} {base[h] / CALLS * 1e6:.2f} µs" for h in base)
    print(f"{'(loop step, no call)':26} {loop}")
    native = per_call["concat (native)"]
    for name, cost in per_call.items():
        cells = [
            f"{cost[h] * 1e6:7.2f} µs ({_ratio(cost[h], native[h])})" for h in ("small", "big")
        ]
        print(f"{name:26} {cells[0]:>22} {cells[1]:>22}")


if __name__ == "__main__":
    main()
