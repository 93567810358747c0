"""Test-runner benchmark: ``rego-engine test`` against ``opa test`` on the same tests.

Trees (in a temporary directory):

- ``corpus``: tests/test_corpus as it is;
- ``corpus x COPIES``: the corpus's test files copied COPIES times under
  renamed packages (the rules, relations and fixture once), so the number
  of tests grows while the policies stay the same.

For each tree it prints, measured in the same run and end to end (one
process each, as CI runs them): ``opa test --format json`` of the staged
bundle (the test-mode library beside the tree, as the differential tests
stage it), ``rego-engine test --format json`` with a cold module cache (the
``opa build`` included) and with a warm one (the usual case: the tree has
not changed since the last run), and the ratios. Each time is the best of
ROUNDS runs.

Run on demand (``make bench-test`` or ``python bench/bench_test.py
[COPIES]``); nothing is asserted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from opa_test_oracle import stage_oracle_bundle  # noqa: E402

from engine.rules.opa import find_opa  # noqa: E402
from engine.testing.rego_tests import find_tests  # noqa: E402

CORPUS = REPO / "tests" / "test_corpus"
COPIES = int(sys.argv[1]) if len(sys.argv) > 1 else 10
ROUNDS = 3
ENGINE = [sys.executable, "-m", "engine", "test", ".", "--format", "json"]


def make_tree(directory: Path, copies: int) -> int:
    """The corpus with its tests copied ``copies`` times; returns the number of tests."""
    shutil.copytree(CORPUS, directory)
    tests = sorted((directory / "tests").glob("*.rego"))
    for i in range(1, copies):
        for path in tests:
            text = re.sub(
                r"^package (\S+)", rf"package copy{i}.\1", path.read_text(), count=1, flags=re.M
            )
            (directory / "tests" / f"{path.stem}_copy{i}.rego").write_text(text)
    modules = [(str(p), p.read_text(), None) for p in sorted(directory.rglob("*.rego"))]
    return sum(len(m.tests) for m in find_tests(modules))


def best(args: list[str], cwd: Path, env: dict[str, str], before: object = None) -> float:
    times = []
    for _ in range(ROUNDS):
        if callable(before):
            before()
        start = time.perf_counter()
        proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
        if proc.returncode not in (0, 2):
            raise SystemExit(f"{args[0]} failed: {proc.stderr.decode()[-2000:]}")
    return min(times)


def main() -> None:
    opa = str(find_opa().path)
    print(
        f"{'tree':<16} {'tests':>6} {'opa test':>9} {'engine cold':>12} {'engine warm':>12}"
        f" {'cold/opa':>9} {'warm/opa':>9}"
    )
    with tempfile.TemporaryDirectory(prefix="bench-test-") as tmp:
        root = Path(tmp)
        cache = root / "cache"
        env = dict(os.environ, REGO_ENGINE_OPA=opa, REGO_ENGINE_CACHE=str(cache))
        env["PYTHONPATH"] = str(REPO)
        for label, copies in (("corpus", 1), (f"corpus x {COPIES}", COPIES)):
            tree = root / f"tree{copies}"
            count = make_tree(tree, copies)
            bundle = root / f"bundle{copies}"
            stage_oracle_bundle(tree, bundle)
            opa_time = best([opa, "test", "-b", ".", "--format", "json"], bundle, env)

            def clear_cache() -> None:
                shutil.rmtree(cache, ignore_errors=True)

            cold = best(ENGINE, tree, env, clear_cache)
            subprocess.run(ENGINE, cwd=tree, env=env, capture_output=True)
            warm = best(ENGINE, tree, env)
            print(
                f"{label:<16} {count:>6} {opa_time:>8.2f}s {cold:>11.2f}s {warm:>11.2f}s"
                f" {cold / opa_time:>8.2f}x {warm / opa_time:>8.2f}x"
            )


if __name__ == "__main__":
    main()
