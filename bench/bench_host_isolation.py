"""In-process host builtins against a worker process (on demand).

    .venv/bin/python bench/bench_host_isolation.py

Prints the cost of one ``sprintf`` call made in process (as the host makes
it, through :mod:`engine.wasm.host_builtins`) against the same call sent to a
worker process over a pipe and answered (what running host builtins under
OS resource limits in a worker would add to every call).
"""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.connection import Connection

from engine.wasm.host_builtins import REGISTRY

CALLS = 20_000
ARGS = ("%s is %d", ["bucket", 3])


def _worker(conn: Connection) -> None:
    sprintf = REGISTRY["sprintf"]
    while True:
        args = conn.recv()
        if args is None:
            return
        conn.send(sprintf(*args))


def main() -> None:
    sprintf = REGISTRY["sprintf"]
    started = time.perf_counter()
    for _ in range(CALLS):
        sprintf(*ARGS)
    local = (time.perf_counter() - started) / CALLS
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.Process(target=_worker, args=(child,))
    process.start()
    started = time.perf_counter()
    for _ in range(CALLS):
        parent.send(ARGS)
        parent.recv()
    remote = (time.perf_counter() - started) / CALLS
    parent.send(None)
    process.join()
    print(f"sprintf in process:     {local * 1e6:7.1f} µs per call")
    print(f"sprintf in a worker:    {remote * 1e6:7.1f} µs per call ({remote / local:.1f}x)")


if __name__ == "__main__":
    main()
