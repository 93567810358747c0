"""The host side of an instrumented module's read buffer
(:mod:`engine.wasm.read_tracing`): where it lies in Wasm memory, and handing
the recorded (node, key) pairs to the caller's hook."""

from __future__ import annotations

from collections.abc import Callable

from engine.wasm.eval_errors import EvalError
from engine.wasm.read_tracing import PAIR, TRACE_AT, TRACE_END
from engine.wasm.wasmtime_adapter import Sandbox


class ReadBuffer:
    """The buffer ``[start, start + size)`` of one instance, its pairs handed
    to ``hook`` in the order they were recorded; ``read(addr, size)`` copies
    bytes out of the instance's memory (bounds-checked)."""

    def __init__(
        self,
        sandbox: Sandbox,
        start: int,
        size: int,
        hook: Callable[[bytes], None],
        read: Callable[[int, int], bytes],
        module_name: str,
    ) -> None:
        if size < PAIR.size:
            raise ValueError("the read buffer must hold at least one pair")
        if not sandbox.has_global(TRACE_AT):
            raise EvalError(f"policy module {module_name} exports no global {TRACE_AT}")
        self._sandbox = sandbox
        self._start, self._end = start, start + size
        self._hook = hook
        self._read = read
        self._module_name = module_name
        sandbox.set_global(TRACE_AT, start)
        sandbox.set_global(TRACE_END, start + size)

    def reset(self) -> None:
        """Drop whatever pairs a failed evaluation left."""
        self._sandbox.set_global(TRACE_AT, self._start)

    def take_full(self, written: int, _unused: int) -> int:
        """The instrumented module's call when the buffer is full: take the
        pairs, answer where writing starts again."""
        self._take(written)
        return self._start

    def take_last(self) -> None:
        """Take the pairs the evaluation wrote since the buffer last filled."""
        self._take(self._sandbox.global_value(TRACE_AT))
        self.reset()

    def _take(self, written: int) -> None:
        """Hand the pairs below ``written`` to the hook."""
        if not self._start <= written <= self._end or (written - self._start) % PAIR.size:
            raise EvalError(
                f"policy module {self._module_name}: its read buffer's write pointer "
                f"{written} is outside [{self._start}, {self._end}]"
            )
        if written > self._start:
            self._hook(self._read(self._start, written - self._start))
