"""Running a command with one of its output streams on a pseudo-terminal."""

from __future__ import annotations

import os
import subprocess
import threading

import pytest


def run_on_pty(
    args: list[str], *, tty: str, env: dict[str, str] | None = None
) -> tuple[int, bytes, bytes]:
    """Run ``args`` with ``tty`` ("stdout" or "stderr") on a pty and the other
    stream piped: (exit code, what the pipe got, what the terminal got)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, tty: slave}
    try:
        proc = subprocess.Popen(args, env=env, **streams)
        os.close(slave)
        piped = proc.communicate(timeout=120)[0 if tty == "stderr" else 1]
        reader.join(timeout=10)
    finally:
        os.close(master)
    return proc.returncode, piped or b"", b"".join(chunks)
