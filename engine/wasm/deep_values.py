"""Python code over values nested deeper than Python's default recursion allows.

Rules can build values nested thousands of levels deep (``json.unmarshal`` of
a built string); OPA handles them. The value model and the host builtins
recurse once or a few times per level, so past about 300 levels they hit
Python's recursion limit (1,000 frames). :func:`deeply` runs such code again
in a thread of its own with a larger stack and a higher recursion limit: a
value nested up to about 10,000 levels (the depth Go's ``encoding/json``
accepts) gets its correct result; deeper, :class:`ValueTooDeep`, a clear error.
The common, shallow case costs nothing: the thread starts only after a
:class:`RecursionError`.
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

HANDLED_DEPTH = 10_000
"""Levels of nesting the deep thread is measured to handle in every value builtin."""

DEEP_RECURSION_LIMIT = 50_000
"""Python frames allowed in the deep thread (values recurse about 1-5 frames a level)."""

DEEP_STACK_BYTES = 256 * 1024 * 1024
"""The deep thread's C stack: measured to hold :data:`DEEP_RECURSION_LIMIT`
frames of the value model with room to spare (a 60,000-level value fails with
:class:`RecursionError` in 64 MiB, not a crash)."""

_LOCK = threading.Lock()
"""The recursion limit is the interpreter's: one deep thread at a time."""


class ValueTooDeep(ValueError):
    """A value nested deeper than the deep thread handles."""


def too_deep_message() -> str:
    """The error for a value past the depth the host handles."""
    return f"a value is nested too deep (more than about {HANDLED_DEPTH:,} levels)"


def deeply(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)``; when that exceeds Python's recursion limit, again in a
    thread with a larger stack and limit (:func:`in_deep_thread`)."""
    try:
        return fn(*args)
    except RecursionError:
        pass
    return in_deep_thread(fn, *args)


def in_deep_thread(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` in a thread with a :data:`DEEP_STACK_BYTES` stack under
    :data:`DEEP_RECURSION_LIMIT`; its exceptions are raised here,
    a :class:`RecursionError` as :class:`ValueTooDeep`. It runs in a copy of the
    caller's context (the evaluation's deadline and memory bound)."""
    context = contextvars.copy_context()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(context.run(fn, *args))
        except BaseException as exc:  # raised again in the calling thread
            failure.append(exc)

    with _LOCK:
        previous_limit = sys.getrecursionlimit()
        previous_stack = threading.stack_size()
        thread = threading.Thread(target=run, name="deep-values", daemon=True)
        try:
            threading.stack_size(DEEP_STACK_BYTES)
            sys.setrecursionlimit(max(previous_limit, DEEP_RECURSION_LIMIT))
            try:
                thread.start()
            except RuntimeError:  # no address space for the stack (RLIMIT_AS)
                raise ValueTooDeep(f"{too_deep_message()}: no memory for a deeper stack") from None
            thread.join()
        finally:
            threading.stack_size(previous_stack)
            sys.setrecursionlimit(previous_limit)
    if failure:
        if isinstance(failure[0], RecursionError):
            raise ValueTooDeep(too_deep_message()) from None
        raise failure[0]
    return outcome[0]
