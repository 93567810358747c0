"""OPA's compliance suite through the engine: wall time with a cold and a warm cache.

    python bench/bench_conformance.py

Runs every case the skip list does not skip (the suite of the OPA module
pinned in ``wasm/go.mod``, found with ``go mod download``) twice in fresh
processes: first with an empty module cache (every batch compiled by
``opa build``), then with the cache that run filled. Prints the case counts
and both wall times, and the cold run against the warm one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "conformance"

_ONE_RUN = """
import sys
sys.path[:0] = [{tests!r}, {conformance!r}]
from conformance_runner import run_cases
from conformance_suite import CASES_DIR, load_cases, load_skip_list, module_dir
module = module_dir()
cases = load_cases(module / CASES_DIR)
skips = load_skip_list(module)
run = [case for case in cases if skips.reason(case.note) is None]
outcomes = run_cases(run)
print(len(cases), len(run), sum(o.passed for o in outcomes))
"""


def _one_run(cache: Path) -> tuple[float, str]:
    from engine.rules.opa import find_opa

    env = {**os.environ, "REGO_ENGINE_CACHE": str(cache), "REGO_ENGINE_OPA": str(find_opa().path)}
    code = _ONE_RUN.format(tests=str(ROOT / "tests"), conformance=str(CONFORMANCE))
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return elapsed, done.stdout.strip()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="rego-engine-conformance-") as cache:
        cold, counts = _one_run(Path(cache))
        warm, _ = _one_run(Path(cache))
    total, ran, passed = counts.split()
    print(f"cases {total}, run {ran}, passed {passed}")
    print(f"cold cache  {cold:7.1f} s   (every batch compiled by opa build)")
    print(f"warm cache  {warm:7.1f} s   ({cold / warm:.1f}x faster)")


if __name__ == "__main__":
    main()
