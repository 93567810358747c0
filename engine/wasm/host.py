"""A policy instance: one instantiated module with its data loaded, evaluating
entrypoints through OPA's Wasm ABI 1.x.

The host supplies ``env.memory`` (capped), ``opa_abort``, ``opa_println`` and
``opa_builtin0..4`` (:mod:`engine.wasm.builtin_dispatch`), loads the data
document once, parses each input once, and evaluates entrypoints through the
eval-context calls, resetting the heap between evaluations. Every evaluation
is bounded in time and memory (the memory's maximum size): the engine's epoch
advances every tick and the instance's epoch watcher, asked each tick while it
evaluates, stops the evaluation past its deadline or when the run is
cancelled (:mod:`engine.core.cancellation`; calls into Wasm are deferred
regions, so a signal never raises inside a host callback). Builtin arguments
are read straight from linear memory and scalar results written in place
(:mod:`engine.wasm.memory`), so a call needs at most one call back into Wasm
(an allocation).

wasmtime itself is reached only through :mod:`engine.wasm.wasmtime_adapter`.
This module is the Wasm host's public face: the instance, its bounds
(:mod:`engine.wasm.limits`) and its errors (:mod:`engine.wasm.eval_errors`).
"""

from __future__ import annotations

import ctypes
import struct
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import cancellation
from engine.core.cancellation import Cancelled
from engine.rules.compiler import CompiledPolicy
from engine.wasm import values
from engine.wasm.builtin_dispatch import REFUSED, BuiltinDispatch, CustomHandler
from engine.wasm.eval_errors import (
    BuiltinUnavailable,
    EvalConflict,
    EvalError,
    EvalTimeout,
    MemoryLimitExceeded,
    OutputLimitExceeded,
)
from engine.wasm.host_builtins.registry import EvalContext, reset_context, set_context
from engine.wasm.limits import Limits
from engine.wasm.memory import (
    NULL,
    NUMBER_REF_HEAD_SIZE,
    STRING_HEAD_SIZE,
    MemoryReadError,
    ReadBudgetExceeded,
    ValueReader,
    boolean_block,
    number_ref_block,
    string_block,
)
from engine.wasm.module_loading import initial_pages, load_module
from engine.wasm.read_buffer import ReadBuffer
from engine.wasm.read_tracing import BUFFER_BYTES, PAIR, TRACE_BUILTIN_ID
from engine.wasm.wasmtime_adapter import (
    U32,
    ExportCall,
    HostFunction,
    MemoryRefused,
    Sandbox,
    WasmRefused,
    WasmTrap,
)

__all__ = [
    "REFUSED",
    "BuiltinUnavailable",
    "CustomHandler",
    "EvalConflict",
    "EvalError",
    "EvalTimeout",
    "Limits",
    "MemoryLimitExceeded",
    "OutputLimitExceeded",
    "PolicyInstance",
    "load_module",
]

ABI_EXPORTS = (
    "opa_malloc",
    "opa_json_parse",
    "opa_value_parse",
    "opa_json_dump",
    "opa_value_dump",
    "opa_heap_ptr_get",
    "opa_heap_ptr_set",
    "opa_eval_ctx_new",
    "opa_eval_ctx_set_input",
    "opa_eval_ctx_set_data",
    "opa_eval_ctx_set_entrypoint",
    "opa_eval_ctx_get_result",
    "eval",
    "builtins",
    "entrypoints",
    "opa_value_add_path",
)
"""The exports of OPA's ABI the instance calls."""

_LIBC = ctypes.CDLL(None)
_strnlen = _LIBC.strnlen
_strnlen.restype = ctypes.c_size_t
_strnlen.argtypes = [ctypes.c_void_p, ctypes.c_size_t]


def _print_to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


class PolicyInstance:
    """One instantiated policy module with its data loaded; evaluates entrypoints."""

    def __init__(
        self,
        policy: CompiledPolicy,
        *,
        limits: Limits | None = None,
        custom: Mapping[str, CustomHandler] | None = None,
        print_hook: Callable[[str], None] | None = None,
        read_hook: Callable[[bytes], None] | None = None,
        read_buffer_bytes: int = BUFFER_BYTES,
    ) -> None:
        """``read_hook(pairs)`` takes the value reads an instrumented module
        records (:mod:`engine.wasm.read_tracing`), in the order they were made:
        (node, key) address pairs, :data:`~engine.wasm.read_tracing.PAIR` each,
        whenever its buffer of ``read_buffer_bytes`` fills and when an
        evaluation returns, before anything else runs in the instance. The
        buffer is allocated before the data document, below every heap reset,
        so no evaluation's values overwrite it."""
        self.policy = policy
        self.limits = limits or Limits()
        self._print = print_hook or _print_to_stderr
        self._stop: BaseException | None = None
        """Why the epoch watcher stopped the running evaluation."""
        self.deadline = float("inf")
        """When the running evaluation must stop (``time.monotonic``)."""
        self._builtins = BuiltinDispatch(self, custom or {})
        self._reads: ReadBuffer | None = None
        if read_hook is not None:  # the runtime reads values from instantiation on
            self._builtins.add(TRACE_BUILTIN_ID, "(value reads)", self._take_full_buffer)
        self._sandbox = self._instantiate()
        self._fn = {name: self._sandbox.export(name) for name in ABI_EXPORTS}
        self.abi_version = (
            self._sandbox.global_value("opa_wasm_abi_version"),
            self._sandbox.global_value("opa_wasm_abi_minor_version"),
        )
        self.entrypoints: dict[str, int] = values.parse(self.json_dump(self._call("entrypoints")))
        self.imported_builtins = self._bind_builtins()
        """Names of the builtins this module calls on the host."""
        if read_hook is not None:
            self._start_read_buffer(read_hook, read_buffer_bytes - read_buffer_bytes % PAIR.size)
        self.data_addr = self.parse_json(policy.data)
        self._data_heap = self._call("opa_heap_ptr_get")
        self.input_addr = 0
        self.input_span = (0, 0)
        """The addresses ``[from, to)`` holding the input and the resident documents
        of the last :meth:`set_input`."""
        self._ctx = 0
        self._input_heap = 0
        self.set_input(None)

    def _bind_builtins(self) -> frozenset[str]:
        """Resolve the builtins the module calls on the host; their names."""
        builtin_ids: dict[str, int] = values.parse(self.json_dump(self._call("builtins")))
        self._builtins.bind(builtin_ids)
        return frozenset(builtin_ids)

    def _instantiate(self) -> Sandbox:
        """The module instantiated in a store of its own, its memory capped."""
        module = load_module(self.policy)
        min_pages = initial_pages(self.policy, module)
        functions = {
            "opa_abort": HostFunction(1, self._abort, returns=False),
            "opa_println": HostFunction(1, self._println, returns=False),
            **{
                f"opa_builtin{n}": HostFunction(n + 2, self._builtins.dispatch, returns=True)
                for n in range(5)
            },
        }
        try:
            sandbox = Sandbox(
                module,
                min_pages=min_pages,
                max_pages=max(min_pages, self.limits.max_pages),
                functions=functions,
                watcher=self._epoch_watch,
            )
        except MemoryRefused as exc:
            raise EvalError(
                "cannot reserve the Wasm memory: the process's address-space limit "
                f"(ulimit -v) leaves less than the 4 GiB wasmtime reserves: {exc}"
            ) from None
        except WasmRefused as exc:
            raise EvalError(f"cannot instantiate the policy module: {exc}") from None
        self._reader_size = -1
        self._reader = ValueReader(0, 0)
        return sandbox

    def close(self) -> None:
        """Free the instance's store and Wasm memory now. Its Python objects
        form reference cycles (host callbacks are bound methods), which the
        scan's paused collector would otherwise keep for the whole scan."""
        with cancellation.deferred():  # wasmtime calls finalizers back in Python
            self._sandbox.close()

    def export(self, name: str) -> ExportCall:
        """The module's exported function ``name`` (all-i32), for direct calls."""
        return self._sandbox.export(name)

    def memory_bytes(self) -> int:
        """The Wasm memory's current size in bytes."""
        return self._sandbox.memory_size()

    # -- memory helpers ------------------------------------------------------

    def _base(self) -> int:
        return self._sandbox.memory_base()

    def _call(self, name: str, *args: int) -> int:
        """Call an export in a deferred region (a signal only records the
        request); a request waiting when the outermost call ends raises
        :class:`Cancelled`."""
        state = cancellation.state
        state.depth += 1
        try:
            return self._fn[name](*args)
        except WasmTrap as exc:
            stop, self._stop = self._stop, None
            if stop is not None:
                raise stop from None
            raise self._translate(exc) from None
        finally:
            state.depth -= 1
            if not state.depth and state.requested is not None:
                raise Cancelled(state.requested)

    def _epoch_watch(self) -> str | None:
        """Each tick of a running evaluation: why to stop it (cancelled, or past
        its deadline), or None to let it run."""
        signum = cancellation.requested()
        if signum is not None:
            self._stop = Cancelled(signum)
        elif time.monotonic() > self.deadline:
            self._stop = EvalTimeout(self.limits.time_message())
        else:
            return None
        return str(self._stop)

    def _memory_size(self) -> int:
        return self._sandbox.memory_size()

    def _outside(self, what: str, addr: int, length: int, size: int) -> EvalError:
        return EvalError(
            f"policy module {self.policy.name}: {what} at address {addr} "
            f"({length} bytes) is outside its memory of {size} bytes"
        )

    def host_address(self, addr: int, length: int, what: str = "a value") -> int:
        """The host address of Wasm bytes ``[addr, addr + length)``, after checking
        that they lie inside the memory as it is now: every address and length
        the module hands the host passes here before the host touches it."""
        size = self._memory_size()
        if addr < 0 or length < 0 or addr + length > size:
            raise self._outside(what, addr, length, size)
        return self._base() + addr

    def _cstring_length(self, addr: int, limit: int, what: str) -> int:
        """Length of the NUL-terminated string at ``addr``, counting at most
        ``limit`` bytes; an error when the memory ends before its NUL."""
        size = self._memory_size()
        if not 0 <= addr < size:
            raise self._outside(what, addr, 1, size)
        room = size - addr
        length = _strnlen(self._base() + addr, min(limit, room))
        if length == room:
            raise EvalError(
                f"policy module {self.policy.name}: {what} at address {addr} "
                f"runs past the end of its memory of {size} bytes"
            )
        return length

    def read_cstring(self, addr: int, what: str = "a string") -> bytes:
        """The NUL-terminated string at ``addr`` (checked against the memory's size)."""
        length = self._cstring_length(addr, U32 + 1, what)
        return ctypes.string_at(self._base() + addr, length)

    def read_bytes(self, addr: int, size: int, what: str = "a value") -> bytes:
        """A copy of Wasm bytes ``[addr, addr + size)`` (checked against the memory's size)."""
        return ctypes.string_at(self.host_address(addr, size, what), size)

    def write(self, data: bytes) -> int:
        """Copy ``data`` into freshly allocated Wasm memory; returns its address."""
        addr = self._call("opa_malloc", len(data))
        ctypes.memmove(self.host_address(addr, len(data), "an allocation"), data, len(data))
        return addr

    def parse_json(self, data: bytes) -> int:
        """Parse JSON text into a value in Wasm memory; returns its address."""
        addr = self._call("opa_json_parse", self.write(data), len(data))
        if not addr:
            raise EvalError("the Wasm runtime could not parse a JSON document")
        return addr

    def parse_value(self, data: bytes) -> int:
        """Parse Rego value text (sets allowed) into Wasm memory; returns its address."""
        addr = self._call("opa_value_parse", self.write(data), len(data))
        if not addr:
            raise EvalError("the Wasm runtime could not parse a value")
        return addr

    def json_dump(self, addr: int) -> bytes:
        """JSON text of the value at ``addr`` (sets as arrays)."""
        return self.read_cstring(self._call("opa_json_dump", addr), "a value's JSON text")

    def value_dump(self, addr: int) -> bytes:
        """Rego text of the value at ``addr`` (sets kept)."""
        return self.read_cstring(self._call("opa_value_dump", addr), "a value's text")

    def set_global(self, name: str, value: int) -> None:
        """Set the module's exported i32 global ``name``."""
        try:
            self._sandbox.set_global(name, value)
        except WasmRefused:
            raise EvalError(f"policy module {self.policy.name} exports no global {name}") from None

    # -- the read buffer -------------------------------------------------------

    def _start_read_buffer(self, hook: Callable[[bytes], None], size: int) -> None:
        """Allocate the read buffer and point the module's buffer globals at it."""
        if size < PAIR.size:
            raise ValueError("the read buffer must hold at least one pair")
        start = self._call("opa_malloc", size)
        self._reads = ReadBuffer(
            self._sandbox,
            start,
            size,
            hook,
            lambda addr, length: self.read_bytes(addr, length, "reads"),
            self.policy.name,
        )

    def _take_full_buffer(self, written: int, unused: int) -> int:
        """The instrumented module's call when its read buffer is full."""
        assert self._reads is not None
        return self._reads.take_full(written, unused)

    def reader(self) -> ValueReader:
        """A reader of values in memory, valid until the next call that may allocate."""
        return ValueReader(self._base(), self._memory_size())

    def _current_reader(self) -> ValueReader:
        """A reader of the memory as it is now; made anew only when the memory
        has grown (which is the only way its base can move)."""
        size = self._memory_size()
        if size != self._reader_size:
            self._reader = ValueReader(self._base(), size)
            self._reader_size = size
        return self._reader

    def to_python(self, addr: int) -> Any:
        """The value at ``addr`` as a Python value (:mod:`engine.wasm.values`), within
        the output bound (builtin arguments cross here).

        Read straight from memory when its text surely fits the bound;
        otherwise (or when that read fails) through ``opa_value_dump``, which
        measures the text exactly and gives the same value or the same error."""
        try:
            return self._current_reader().read_within(addr, self.limits.max_output_bytes)
        except (ReadBudgetExceeded, MemoryReadError, ValueError, IndexError, struct.error):
            # Over the estimate, or a value the text path must judge (a string
            # that is not UTF-8 fails there the same way, with its message).
            return values.parse(self.bounded_value_dump(addr, "its argument"))

    def from_python(self, value: Any) -> int:
        """Write a Python value into Wasm memory; returns its address.

        Strings, numbers, booleans and null are written in place, one
        allocation each (a string or number with its bytes right after its
        header), laid out as ``opa_value_parse`` lays them out; anything else
        is parsed from its text by the Wasm runtime."""
        kind = type(value)
        if kind is str:
            try:
                data = value.encode("utf-8")
            except UnicodeEncodeError:  # lone surrogates: refused by the text path
                return self.parse_value(values.dumps(value))
            return self._place(STRING_HEAD_SIZE + len(data), string_block, data)
        if kind is int or kind is float:
            text = values.dumps(value)
            return self._place(NUMBER_REF_HEAD_SIZE + len(text), number_ref_block, text)
        if kind is bool:
            addr = self._call("opa_malloc", 2)
            ctypes.memmove(self.host_address(addr, 2, "an allocation"), boolean_block(value), 2)
            return addr
        if value is None:
            addr = self._call("opa_malloc", 1)
            ctypes.c_ubyte.from_address(self.host_address(addr, 1, "an allocation")).value = NULL
            return addr
        return self.parse_value(values.dumps(value))

    def _place(self, size: int, block: Callable[[int, bytes], bytes], data: bytes) -> int:
        addr = self._call("opa_malloc", size)
        ctypes.memmove(self.host_address(addr, size, "an allocation"), block(addr, data), size)
        return addr

    # -- evaluation ------------------------------------------------------------

    def set_input(
        self,
        input_json: bytes | None,
        *,
        resident: Sequence[bytes] = (),
        rego_syntax: bool = False,
    ) -> list[int]:
        """Parse ``input_json`` once; every later evaluation sees it as ``input``.

        With ``rego_syntax`` the input is Rego value text (sets, non-string
        keys) rather than JSON.

        ``resident`` documents (JSON or Rego value text) are parsed after the
        input and stay in memory with it until the next ``set_input``; their
        addresses are returned, for builtins to hand out without copying.
        Every value parsed here lies in :attr:`input_span`.
        """
        self._call("opa_heap_ptr_set", self._data_heap)  # which also empties the free lists
        parse = self.parse_value if rego_syntax else self.parse_json
        self.input_addr = parse(input_json) if input_json is not None else 0
        addrs = [self.parse_value(doc) for doc in resident]
        self.input_span = (self._data_heap, self._call("opa_heap_ptr_get"))
        self._ctx = self._call("opa_eval_ctx_new")
        if self.input_addr:
            self._call("opa_eval_ctx_set_input", self._ctx, self.input_addr)
        self._call("opa_eval_ctx_set_data", self._ctx, self.data_addr)
        self._input_heap = self._call("opa_heap_ptr_get")
        return addrs

    def extend_input(self, resident: Sequence[bytes]) -> list[int]:
        """Parse more resident documents beside the input (dropping whatever the
        last evaluation allocated); returns their addresses."""
        self._call("opa_heap_ptr_set", self._input_heap)
        addrs = [self.parse_value(doc) for doc in resident]
        self._input_heap = self._call("opa_heap_ptr_get")
        return addrs

    def set_data(self, addr: int, grafts: Mapping[tuple[str, ...], int] | None = None) -> None:
        """Make the object at ``addr`` (a resident value) the data document of
        later evaluations, after inserting each graft's value at its path.

        Grafted values are linked, not copied, so one resident value can
        appear in data without a second parse.
        """
        self._call("opa_heap_ptr_set", self._input_heap)
        for path, value in (grafts or {}).items():
            path_addr = self.parse_json(values.dumps(list(path)))
            if self._call("opa_value_add_path", addr, path_addr, value) != 0:
                raise EvalError(f"cannot insert a value at data path {'/'.join(path)}")
        self._call("opa_eval_ctx_set_data", self._ctx, addr)
        self._input_heap = self._call("opa_heap_ptr_get")

    def eval_addr(self, entrypoint: str, *, timeout_seconds: float | None = None) -> int:
        """Evaluate ``entrypoint``; returns the address of its result set.

        The heap is reset to just after the input, so the returned address is
        valid until the next evaluation. ``timeout_seconds`` overrides the
        instance's time bound for this evaluation.
        """
        ep_id = self.entrypoints.get(entrypoint)
        if ep_id is None:
            raise EvalError(f"entrypoint {entrypoint} is not in the compiled module")
        ctx = self._ctx
        self._call("opa_heap_ptr_set", self._input_heap)
        self._call("opa_eval_ctx_set_entrypoint", ctx, ep_id)
        seconds = self.limits.timeout_seconds if timeout_seconds is None else timeout_seconds
        self.deadline = time.monotonic() + seconds
        token = set_context(
            EvalContext(
                now_ns=time.time_ns(),
                max_memory_bytes=self.limits.max_memory_mb << 20,
                deadline=self.deadline,
            )
        )
        self._sandbox.arm()  # the watcher decides at every tick
        if self._reads is not None:  # drop what a failed evaluation left
            self._reads.reset()
        try:
            self._call("eval", ctx)
            if self._reads is not None:
                self._reads.take_last()
        except EvalTimeout as exc:
            builtin = str(exc).partition(" in builtin ")[2]  # which host builtin ran past it
            where = f" in builtin {builtin}" if builtin else ""
            raise EvalTimeout(self.limits.time_message(seconds) + where) from None
        finally:
            self._sandbox.disarm()
            self.deadline = float("inf")
            reset_context(token)
        return self._call("opa_eval_ctx_get_result", ctx)

    def bounded_value_dump(self, addr: int, what: str = "the result") -> bytes:
        """:meth:`value_dump`, refusing text over the output bound before copying it
        out of Wasm memory (parsing it in Python takes about 20x its size)."""
        limit = self.limits.max_output_bytes
        text = self._call("opa_value_dump", addr)
        size = self._cstring_length(text, limit + 1, f"the text of {what}")
        if size > limit:
            hint = " (a rule producing too many results?)" if what == "the result" else ""
            raise OutputLimitExceeded(
                f"{what} is over the output limit of {self.limits.max_output_mb:g} MiB"
                f"{hint}; raise --max-output"
            )
        return ctypes.string_at(self._base() + text, size)

    def evaluate(self, entrypoint: str, *, timeout_seconds: float | None = None) -> list[Any]:
        """Evaluate ``entrypoint``: the list of its results (empty when undefined)."""
        addr = self.eval_addr(entrypoint, timeout_seconds=timeout_seconds)
        text = self.bounded_value_dump(addr)
        if text.startswith(b"{{") and text.endswith(b"}}"):
            # A single result: parse the inner object, which is often plain JSON.
            try:
                entry = values.parse(text[1:-1])
                if isinstance(entry, dict) and set(entry) == {"result"}:
                    return [entry["result"]]
            except values.ValueError_:
                pass  # several results: their separating commas split the inner text
        try:
            result_set = values.parse(text)
        except values.ValueError_ as exc:
            raise EvalError(
                f"policy module {self.policy.name}: its result is not a Rego value ({exc})"
            ) from None
        if not isinstance(result_set, (list, values.Set)) or not all(
            isinstance(entry, dict) for entry in result_set
        ):
            raise EvalError(f"policy module {self.policy.name}: its result is not a result set")
        return [entry["result"] for entry in result_set if "result" in entry]

    # -- host callbacks ----------------------------------------------------------

    def _translate(self, error: WasmTrap) -> EvalError:
        """An evaluation error for a trap. (An exception a host callback raised
        is re-raised as itself by the export call, so it never reaches here.)"""
        text = str(error)
        if error.kind == "interrupt":
            return EvalTimeout(self.limits.time_message())
        if error.kind == "stack_overflow":
            return EvalError("evaluation exceeded the Wasm stack (recursion too deep)")
        return EvalError(f"evaluation trapped: {text.splitlines()[0] if text else error!r}")

    def _abort(self, addr: int) -> None:
        message = self.read_cstring(addr & U32, "an abort message").decode("utf-8", "replace")
        if "out of memory" in message or "malloc" in message:
            raise MemoryLimitExceeded(self.limits.memory_message())
        located = self.policy.user_locations(message)
        from engine.rules.conflicts import find_conflict  # only when a rule aborts

        conflict = find_conflict(located, self.policy.rego_files)
        if conflict is not None:
            raise EvalConflict(conflict)
        raise EvalError(f"evaluation aborted: {located}")

    def _println(self, addr: int) -> None:
        self._print(self.read_cstring(addr & U32, "a print message").decode("utf-8", "replace"))
