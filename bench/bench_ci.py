"""CI scan benchmark: precompiled bundles and parallel scans, end to end through the CLI.

1. ``scan --bundle`` against a scan from source with a cold module cache
   (``opa build`` and native compilation) and with a warm one (cache hit),
   on the example and corpus rules over the example inputs. The bundle scan
   runs with an empty cache (native compilation included) and a warm one.
2. ``scan --jobs 2`` against ``--jobs 1`` over several generated States.

Every figure is the best of 5 runs of the real console script, the cases
run in turn; ratios are against references measured in the same run. Both
outputs of each comparison are checked equal. Nothing is asserted about time.
Usage: ``python bench/bench_ci.py [INPUTS] [RESOURCES_PER_INPUT]``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_scan import generate_state

from engine.core.paths import REPO_ROOT
from engine.rules.opa import find_opa

CONSOLE = Path(sys.executable).parent / "rego-engine"
RULES = [REPO_ROOT / "examples" / "custom-rules", REPO_ROOT / "tests" / "scan_corpus" / "rules"]
INPUTS = REPO_ROOT / "examples"
REPEAT = 5
OPA = find_opa().path
PARALLEL_INPUTS = int(sys.argv[1]) if len(sys.argv) > 1 else 8
PER_INPUT = int(sys.argv[2]) if len(sys.argv) > 2 else 4000


def run(args: list[str], cache: Path, *, hide_opa: bool = False) -> tuple[float, bytes]:
    env = dict(os.environ, REGO_ENGINE_CACHE=str(cache))
    # A scratch cache holds no opa build: name the pinned one (found in the usual cache).
    env["REGO_ENGINE_OPA"] = str(OPA)
    if hide_opa:
        env.pop("REGO_ENGINE_OPA", None)
        env["PATH"] = "/usr/bin:/bin"
    start = time.perf_counter()
    proc = subprocess.run([str(CONSOLE), *args], env=env, capture_output=True)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed:\n{proc.stderr.decode()}")
    return seconds, proc.stdout


def interleaved(
    cases: list[tuple[str, list[str], Callable[[], Path], bool]], repeat: int = REPEAT
) -> list[tuple[float, bytes]]:
    """Best time and output of each case, the cases run in turn ``repeat`` times
    (so load that drifts during the run weighs on all of them alike)."""
    times: list[list[float]] = [[] for _ in cases]
    outputs: list[bytes] = [b""] * len(cases)
    for _ in range(repeat):
        for i, (_, args, cache_for_run, hide_opa) in enumerate(cases):
            seconds, outputs[i] = run(args, cache_for_run(), hide_opa=hide_opa)
            times[i].append(seconds)
    for (label, *_), seconds in zip(cases, times, strict=True):
        print(f"  {label:<44} {min(seconds):7.3f} s  (median {statistics.median(seconds):.3f})")
    return [(min(t), out) for t, out in zip(times, outputs, strict=True)]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-ci-") as tmp_text:
        tmp = Path(tmp_text)
        warm = tmp / "warm"
        warm.mkdir()
        counter = iter(range(10**6))

        def fresh() -> Path:
            path = tmp / f"cold{next(counter)}"
            path.mkdir()
            return path

        rule_args = [a for r in RULES for a in ("-d", str(r))]
        bundle = tmp / "rules.tar.gz"
        subprocess.run(
            [str(CONSOLE), "build", *rule_args, "-o", str(bundle)], check=True, capture_output=True
        )
        print(f"bundle: {bundle.stat().st_size / 1024:.0f} KiB ({len(RULES)} rule trees)")
        scan = ["scan", str(INPUTS), "--fail-on", "none"]
        run([*scan, *rule_args], warm)
        print(f"scan of the example inputs (best of {REPEAT}, interleaved):")
        (cold, ref), (hit, _), (b_cold, out), (b_warm, _) = interleaved(
            [
                ("from source, cold cache (opa build)", [*scan, *rule_args], fresh, False),
                ("from source, cache hit", [*scan, *rule_args], lambda: warm, False),
                ("--bundle, empty cache, no opa", [*scan, "--bundle", str(bundle)], fresh, True),
                (
                    "--bundle, native code cached, no opa",
                    [*scan, "--bundle", str(bundle)],
                    lambda: warm,
                    True,
                ),
            ]
        )
        assert out == ref, "bundle results differ"
        print(f"  ratio cold compile / bundle (empty cache):  {cold / b_cold:6.2f}x")
        print(f"  ratio cache hit / bundle (native cached):   {hit / b_warm:6.2f}x")

        states = tmp / "states"
        states.mkdir()
        for i in range(PARALLEL_INPUTS):
            (states / f"s{i:02d}.json").write_text(json.dumps(generate_state(PER_INPUT)))
        size = f"{PARALLEL_INPUTS} States x {PER_INPUT} resources"
        print(f"scan of {size} (warm cache, interleaved):")
        many = ["scan", str(states), *rule_args, "--fail-on", "none"]
        (one, out1), (two, out2) = interleaved(
            [
                ("--jobs 1", [*many, "--jobs", "1"], lambda: warm, False),
                ("--jobs 2", [*many, "--jobs", "2"], lambda: warm, False),
            ]
        )
        assert out1 == out2, "--jobs 2 output differs from --jobs 1"
        print(f"  ratio --jobs 1 / --jobs 2:                   {one / two:6.2f}x")
        cores, load = len(os.sched_getaffinity(0)), os.getloadavg()[0]
        print(f"  (cores available: {cores}, load average: {load:.1f})")


if __name__ == "__main__":
    main()
