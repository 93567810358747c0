"""Builtin dispatch: which host function answers each builtin a module imports,
and how a call's errors become evaluation errors.

A builtin goes, in order, to a custom handler given by the caller (a function
over raw value addresses, so it can return pointers to values already in
memory), to its refusal (:data:`REFUSED`), to the host implementation of a
standard builtin (:mod:`engine.wasm.host_builtins`), or is unavailable.
Host implementations take and return Python values: arguments are read
straight from linear memory and scalar results written in place.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from engine.rules.compiler import CompiledPolicy
from engine.wasm import values
from engine.wasm.builtin_routing import ROUTED_IDS
from engine.wasm.deep_values import ValueTooDeep, in_deep_thread
from engine.wasm.eval_errors import (
    BuiltinUnavailable,
    EvalError,
    EvalTimeout,
    MemoryLimitExceeded,
    OutputLimitExceeded,
)
from engine.wasm.host_builtins import BuiltinError, implementation
from engine.wasm.host_builtins.registry import BuiltinLimitExceeded, BuiltinTimeExceeded
from engine.wasm.limits import Limits

REFUSED: dict[str, str] = {
    "http.send": "rules may not use the network",
    "net.lookup_ip_addr": "rules may not use the network",
    "__snyk_test_snapshot": "snapshots are only available under rego-engine test",
}
"""Builtins that reach outside the sandbox: never executed, whatever the rule."""

CustomHandler = Callable[..., int]
"""A custom builtin: ``handler(instance, *arg_addrs) -> result addr`` (0 = undefined)."""


class Instance(Protocol):
    """What dispatch needs of the policy instance it serves."""

    policy: CompiledPolicy
    limits: Limits
    deadline: float

    def to_python(self, addr: int) -> Any: ...
    def from_python(self, value: Any) -> int: ...
    def bounded_value_dump(self, addr: int, what: str = ...) -> bytes: ...
    def parse_value(self, data: bytes) -> int: ...


class BuiltinDispatch:
    """The builtins of one instance, by the id its module calls them with."""

    def __init__(self, instance: Instance, custom: Mapping[str, CustomHandler]) -> None:
        self._instance = instance
        self._custom = dict(custom)
        self._handlers: dict[int, tuple[str, Callable[..., int]]] = {}

    def add(self, builtin_id: int, name: str, handler: Callable[..., int]) -> None:
        """Answer ``builtin_id`` with ``handler`` (raw addresses in, an address out)."""
        self._handlers[builtin_id] = (name, handler)

    def bind(self, builtin_ids: Mapping[str, int]) -> None:
        """Resolve each builtin the module imports (name → id), and the builtins
        routed to the host (:mod:`engine.wasm.builtin_routing`)."""
        for name, builtin_id in builtin_ids.items():
            self.add(builtin_id, name, self._resolve(name))
        for builtin_id, name in ROUTED_IDS.items():
            self.add(builtin_id, name, functools.partial(self._call_routed, name))

    def dispatch(self, builtin_id: int, _ctx: int, *args: int) -> int:
        """The module's ``opa_builtinN`` call: the result's address (0 = undefined)."""
        name, handler = self._handlers[builtin_id]
        limits = self._instance.limits
        try:
            result = handler(*args)
        except OutputLimitExceeded as exc:
            raise OutputLimitExceeded(f"builtin {name}: {exc}") from None
        except EvalError:
            raise
        except BuiltinLimitExceeded as exc:
            raise MemoryLimitExceeded(
                f"{limits.memory_message()} in builtin {name}: {exc}"
            ) from None
        except BuiltinTimeExceeded:
            raise EvalTimeout(f"{limits.time_message()} in builtin {name}") from None
        except ValueTooDeep as exc:
            raise EvalError(f"builtin {name}: {exc}") from None
        except Exception as exc:  # a host bug must not take the process down
            raise EvalError(f"builtin {name} failed: {type(exc).__name__}: {exc}") from exc
        # Host code does not see the epoch interruption: check the time bound here.
        if time.monotonic() > self._instance.deadline:
            raise EvalTimeout(f"{limits.time_message()} in builtin {name}")
        return result

    def _resolve(self, name: str) -> Callable[..., int]:
        custom = self._custom.get(name)
        if custom is not None:
            return functools.partial(custom, self._instance)
        reason = REFUSED.get(name)
        if reason is not None:
            return functools.partial(self._unavailable, name, f"is refused: {reason}")
        impl = implementation(name)
        if impl is None:
            return functools.partial(self._unavailable, name, "is not supported")
        return functools.partial(self._call_value_builtin, impl)

    def _call_routed(self, name: str, *args: int) -> int:
        """A routed builtin: its host implementation, imported on first use."""
        impl = implementation(name)
        if impl is None:
            return self._unavailable(name, "is not supported", *args)
        return self._call_value_builtin(impl, *args)

    def _unavailable(self, name: str, why: str, *_args: int) -> int:
        files = self._instance.policy.files_calling(name)
        where = f" (called in {', '.join(files)})" if files else ""
        raise BuiltinUnavailable(f"builtin {name} {why}{where}")

    def _call_value_builtin(self, impl: Callable[..., Any], *args: int) -> int:
        instance = self._instance
        try:
            py_args = [instance.to_python(a) for a in args]
            try:
                result = impl(*py_args)
            except BuiltinError:
                return 0
            return instance.from_python(result)
        except RecursionError:
            pass  # a deeply nested value: again, with a deeper stack
        return self._call_deep_value_builtin(impl, args)

    def _call_deep_value_builtin(self, impl: Callable[..., Any], args: tuple[int, ...]) -> int:
        """:meth:`_call_value_builtin` for values nested past Python's recursion
        limit: the Python work runs in :func:`in_deep_thread`, the calls into
        Wasm stay on this thread."""
        texts = [self._instance.bounded_value_dump(a, "its argument") for a in args]

        def work() -> bytes | None:
            try:
                result = impl(*(values.parse(text) for text in texts))
            except BuiltinError:
                return None
            return values.dumps(result)

        text = in_deep_thread(work)
        return 0 if text is None else self._instance.parse_value(text)
