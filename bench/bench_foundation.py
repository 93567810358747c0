"""Foundation benchmark: compile cache, per-evaluation overhead, host builtin calls.

Run on demand (``make bench``); prints each cost with a ratio against a
reference measured in the same run. Nothing here is asserted.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.rules.compiler import compile_policy
from engine.rules.opa import find_opa
from engine.rules.sources import load_sources
from engine.wasm.host import PolicyInstance

RULES = 40
CALLS = 2000


def timed(fn: Callable[[], object], repeat: int = 5) -> float:
    """Median wall-clock seconds of ``fn`` over ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def write_tree(root: Path) -> list[str]:
    """A policy tree of RULES rule files plus one benchmark package."""
    entrypoints = []
    for i in range(RULES):
        (root / f"rule_{i}.rego").write_text(
            f"package rules.r{i}\nimport rego.v1\n"
            "deny contains msg if {\n"
            "  some name, b in input.resources.aws_s3_bucket\n"
            f'  b.acl == "public-{i}"\n'
            '  msg := concat(" ", [name, "is public"])\n}\n'
        )
        entrypoints.append(f"rules/r{i}/deny")
    versions = ", ".join(f'"1.{i}.0"' for i in range(CALLS))
    prefixes = ", ".join(f'"v{i}"' for i in range(CALLS))
    (root / "bench.rego").write_text(
        "package bench\nimport rego.v1\n"
        "empty := true\n"
        f"versions := [{versions}]\n"
        f"prefixes := [{prefixes}]\n"
        "host_calls := count([v | some v in versions; semver.is_valid(v)])\n"
        'native_calls := count([p | some p in prefixes; startswith(p, "v")])\n'
    )
    return [*entrypoints, "bench/empty", "bench/host_calls", "bench/native_calls"]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "policy"
        root.mkdir()
        entrypoints = write_tree(root)
        os.environ["REGO_ENGINE_OPA"] = str(find_opa().path)
        os.environ["REGO_ENGINE_CACHE"] = str(Path(tmp) / "cache")

        # 1. compile: cold (opa build) vs cached (hash + read)
        start = time.perf_counter()
        policy = compile_policy(load_sources([root]), entrypoints)
        cold = time.perf_counter() - start
        cached = timed(lambda: compile_policy(load_sources([root]), entrypoints))
        print(f"compile {RULES + 1} files, cold (opa build)     {cold * 1e3:9.1f} ms")
        print(
            f"compile, cache hit                       {cached * 1e3:9.1f} ms"
            f"   ratio cached/cold = {cached / cold:.4f}"
        )

        start = time.perf_counter()
        inst = PolicyInstance(policy)
        first_instance = time.perf_counter() - start
        warm_instance = timed(lambda: PolicyInstance(policy))
        print(f"instantiate, first (native compile)     {first_instance * 1e3:9.1f} ms")
        print(
            f"instantiate, warm (native code cached)  {warm_instance * 1e3:9.1f} ms"
            f"   ratio warm/first = {warm_instance / first_instance:.4f}"
        )

        # 2. per-evaluation overhead of an empty rule
        inst.set_input(b'{"resources": {}}')
        n = 5000
        per_eval = timed(lambda: [inst.evaluate("bench/empty") for _ in range(n)]) / n
        heap_get = inst.export("opa_heap_ptr_get")
        per_call = timed(lambda: [heap_get() for _ in range(n)]) / n
        opa_eval = timed(
            lambda: subprocess.run(
                [str(find_opa().path), "eval", "-d", str(root / "bench.rego"), "data.bench.empty"],
                capture_output=True,
                check=True,
            ),
            repeat=3,
        )
        print(
            f"evaluate empty rule                      {per_eval * 1e6:9.1f} µs"
            f"   = {per_eval / per_call:.1f}x one bare export call ({per_call * 1e6:.1f} µs)"
        )
        print(
            f"same rule with `opa eval` (process)      {opa_eval * 1e6:9.1f} µs"
            f"   ratio engine/rules/opa-eval = {per_eval / opa_eval:.5f}"
        )

        # 3. one host builtin call vs one Wasm-native builtin call
        host = timed(lambda: inst.evaluate("bench/host_calls"))
        native = timed(lambda: inst.evaluate("bench/native_calls"))
        per_host = (host - native) / CALLS
        per_native = native / CALLS
        print(
            f"host builtin call (semver.is_valid)      {per_host * 1e6:9.1f} µs"
            f"   ratio host/in-Wasm builtin (startswith, {per_native * 1e6:.2f} µs)"
            f" = {per_host / per_native:.1f}x"
        )


if __name__ == "__main__":
    main()
