"""Cancellation by SIGINT and SIGTERM: a request, seen where it is safe to stop.

Under :func:`handling_signals` (the command line) either signal records a
cancellation request. Outside a deferred region the handler raises
:class:`Cancelled` at once, as Python raises ``KeyboardInterrupt``. Inside one
(:func:`deferred`, or the host's calls into Wasm, which enter :data:`state`
directly) it only records the request: Python code that runs inside a ctypes
callback from Wasm must never see an exception it did not raise itself. The
request is then honoured at the next checkpoint (:func:`check`), by the Wasm
host's epoch callback in a running evaluation, or when the outermost region
ends. A second signal while a request waits ends the process at once.

The exit code of a cancelled command is ``128 + signal number``: 130 for
SIGINT, 143 for SIGTERM.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Cancelled(BaseException):
    """The run was cancelled by a signal. A ``BaseException``, like
    ``KeyboardInterrupt``: handlers of engine errors (``except Exception``)
    must let it through."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"cancelled by {signal.Signals(signum).name}")
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """The conventional exit code: 128 + the signal number."""
        return 128 + self.signum


class _State:
    """The process's cancellation state."""

    __slots__ = ("depth", "requested")

    def __init__(self) -> None:
        self.requested: int | None = None
        """The signal that asked for cancellation, or None."""
        self.depth = 0
        """How many deferred regions the main thread is in."""


state = _State()
"""The process's cancellation state (the Wasm host enters deferred regions
through it directly: a call into Wasm is too short for a context manager)."""


def requested() -> int | None:
    """The signal that asked for cancellation, or None."""
    return state.requested


def check() -> None:
    """Raise :class:`Cancelled` when cancellation was requested."""
    if state.requested is not None:
        raise Cancelled(state.requested)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """A region where a signal only records the request; on leaving the
    outermost region a waiting request raises :class:`Cancelled`."""
    state.depth += 1
    try:
        yield
    finally:
        state.depth -= 1
        if state.depth == 0:
            check()  # replaces whatever ends the block: the run was cancelled


def _handle(signum: int, _frame: FrameType | None) -> None:
    if state.requested is not None and state.depth > 0:
        os._exit(128 + signum)  # a second signal: the first is taking too long
    state.requested = signum
    if state.depth == 0:
        raise Cancelled(signum)


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into cancellation requests while the block runs
    (in the main thread only; elsewhere the block runs unchanged)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _handle) for signum in SIGNALS}
    state.requested = None
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        state.requested = None
