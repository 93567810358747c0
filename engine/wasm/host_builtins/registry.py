"""The registry of builtins the Wasm runtime delegates to the host.

An implementation is a plain function over Rego values (see
:mod:`engine.wasm.values`) registered under the builtin's OPA name. It raises
:class:`BuiltinError` for a failure OPA reports as a builtin error (the call
is then undefined, as in ``opa eval`` without ``--strict-builtin-errors``).
Implementations that need per-evaluation state (``time.now_ns``,
``rand.intn``) read it from :func:`current_context`.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BuiltinFn = Callable[..., Any]

REGISTRY: dict[str, BuiltinFn] = {}


class BuiltinError(Exception):
    """A builtin failed on its arguments; OPA makes the call undefined."""


class BuiltinLimitExceeded(Exception):
    """A builtin's result would not fit in the evaluation's memory bound."""


class BuiltinTimeExceeded(Exception):
    """A builtin ran past the evaluation's time bound (checked inside long loops)."""


VALUE_BYTES = 24
"""A lower bound on the Wasm memory one element of a result takes (value plus slot)."""


@dataclass
class EvalContext:
    """State shared by builtin calls within one evaluation, and its memory bound."""

    now_ns: int
    memo: dict[Any, Any] = field(default_factory=dict)
    max_memory_bytes: int | None = None
    deadline: float | None = None
    """``time.monotonic()`` past which the evaluation is over (None: unbounded)."""

    def check_result_size(self, items: int) -> None:
        """Refuse a result of ``items`` elements that cannot fit in the memory bound."""
        if self.max_memory_bytes is not None and items * VALUE_BYTES > self.max_memory_bytes:
            raise BuiltinLimitExceeded(f"a result of {items} elements exceeds the memory limit")

    def check_result_bytes(self, size: int) -> None:
        """Refuse a string result of ``size`` bytes that cannot fit in the memory bound
        (checked before the string is built)."""
        if self.max_memory_bytes is not None and size > self.max_memory_bytes:
            raise BuiltinLimitExceeded(f"a result of {size} bytes exceeds the memory limit")

    def check_time(self) -> None:
        """Stop a long-running builtin once the evaluation's time bound has passed
        (Wasm's epoch interruption does not reach Python code)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BuiltinTimeExceeded("the builtin ran past the time limit")


_CONTEXT: contextvars.ContextVar[EvalContext] = contextvars.ContextVar("eval_context")


def current_context() -> EvalContext:
    """The context of the evaluation in progress (a fresh one outside evaluation)."""
    ctx = _CONTEXT.get(None)
    if ctx is None:
        ctx = EvalContext(now_ns=time.time_ns())
        _CONTEXT.set(ctx)
    return ctx


def set_context(ctx: EvalContext) -> contextvars.Token[EvalContext]:
    """Make ``ctx`` current; returns a token for :func:`reset_context`."""
    return _CONTEXT.set(ctx)


def reset_context(token: contextvars.Token[EvalContext]) -> None:
    """Restore the context that was current before :func:`set_context`."""
    _CONTEXT.reset(token)


def register(name: str) -> Callable[[BuiltinFn], BuiltinFn]:
    """Register ``fn`` as the host implementation of builtin ``name``."""

    def decorate(fn: BuiltinFn) -> BuiltinFn:
        if name in REGISTRY:
            raise RuntimeError(f"builtin {name} registered twice")
        REGISTRY[name] = fn
        return fn

    return decorate
