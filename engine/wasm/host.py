"""The Wasm host: runs OPA-compiled policy modules in ``wasmtime``.

Implements the host side of OPA's Wasm ABI 1.x: it supplies ``env.memory``
(capped), ``opa_abort``, ``opa_println`` and ``opa_builtin0..4``, loads the
data document once, parses each input once, and evaluates entrypoints through
the eval-context calls, resetting the heap between evaluations. Every
evaluation is bounded in time and memory (the memory's maximum size): the
engine's epoch advances every tick and a store's epoch callback, called each
tick while it evaluates, stops the evaluation past its deadline or when the
run is cancelled (:mod:`engine.core.cancellation`; calls into Wasm are
deferred regions, so a signal never raises inside a host callback).

Builtins the module imports are dispatched to, in order: custom handlers
given by the caller (functions over raw value addresses, so they can return
pointers to values already in memory), the host implementations of standard
builtins (:mod:`engine.wasm.host_builtins`), or a refusal. Their arguments are
read straight from linear memory and scalar results written in place
(:mod:`engine.wasm.memory`), so a call needs at most one call back into Wasm
(an allocation) where a text round trip needed three.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import itertools
import struct
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import wasmtime
import wasmtime._func as wasmtime_func
from wasmtime import _bindings as wasmtime_bindings
from wasmtime import _ffi as wasmtime_ffi
from wasmtime._func import maybe_raise_last_exn

from engine.core import cancellation
from engine.core.cancellation import Cancelled
from engine.rules.compiler import CompiledPolicy
from engine.wasm import native_cache, values
from engine.wasm.deep_values import ValueTooDeep, in_deep_thread
from engine.wasm.host_builtins import BuiltinError, implementation
from engine.wasm.host_builtins.registry import (
    BuiltinLimitExceeded,
    BuiltinTimeExceeded,
    EvalContext,
    reset_context,
    set_context,
)
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
from engine.wasm.read_tracing import (
    BUFFER_BYTES,
    PAIR,
    TRACE_AT,
    TRACE_BUILTIN_ID,
    TRACE_END,
)

if TYPE_CHECKING:
    from engine.rules.conflicts import Conflict

TICK_SECONDS = 0.01
"""How often the epoch advances; the resolution of the time bound."""

_NO_DEADLINE = 2**62
PAGE = 65536

REFUSED: dict[str, str] = {
    "http.send": "rules may not use the network",
    "net.lookup_ip_addr": "rules may not use the network",
    "__snyk_test_snapshot": "snapshots are only available under rego-engine test",
}
"""Builtins that reach outside the sandbox: never executed, whatever the rule."""


class EvalError(Exception):
    """Evaluating an entrypoint failed; the message says why."""


class EvalConflict(EvalError):
    """A rule produced conflicting values (OPA's ``eval_conflict_error``)."""

    def __init__(self, conflict: Conflict) -> None:
        super().__init__(str(conflict))
        self.conflict = conflict


class EvalTimeout(EvalError):
    """The evaluation ran past its time bound."""


class MemoryLimitExceeded(EvalError):
    """The evaluation needed more memory than the instance may have."""


class BuiltinUnavailable(EvalError):
    """A rule called a builtin that is refused or not implemented by the host."""


class OutputLimitExceeded(EvalError):
    """An evaluation's result is larger than the output bound."""


EDGE_BYTES = 1024
"""Memory bound per relation edge: a relation may produce ``max-memory / 1 KiB`` edges."""


@dataclass(frozen=True)
class Limits:
    """Bounds for one instance: seconds per evaluation, MiB of Wasm memory, MiB
    of result text per evaluation; and the options that raise them (for hints)."""

    timeout_seconds: float = 30.0
    max_memory_mb: int = 2048
    max_output_mb: float = 16
    timeout_option: str = "--rule-timeout"

    @property
    def max_pages(self) -> int:
        """The memory cap in 64 KiB Wasm pages (Wasm32 ends at 4 GiB)."""
        return min(65536, max(1, int(self.max_memory_mb * 1024 * 1024) // PAGE))

    @property
    def max_output_bytes(self) -> int:
        """The largest result text (Rego value syntax) one evaluation may return."""
        return int(self.max_output_mb * 1024 * 1024)

    @property
    def max_relation_edges(self) -> int:
        """The most edges one relation may have on one input."""
        return (self.max_memory_mb << 20) // EDGE_BYTES

    def time_message(self, seconds: float | None = None) -> str:
        """The error of an evaluation stopped by the time bound, with its hint."""
        limit = self.timeout_seconds if seconds is None else seconds
        return f"evaluation exceeded the time limit of {limit:g}s (raise {self.timeout_option})"

    def memory_message(self) -> str:
        """The error of an evaluation stopped by the memory cap, with its hint."""
        return (
            f"evaluation exceeded the memory limit of {self.max_memory_mb} MiB "
            "(raise --max-memory)"
        )


CustomHandler = Callable[..., int]
"""A custom builtin: ``handler(instance, *arg_addrs) -> result addr`` (0 = undefined)."""


# ---------------------------------------------------------------- the shared engine


class _Ticker:
    """Advances the engine's epoch every tick, from a daemon thread."""

    def __init__(self, engine: wasmtime.Engine) -> None:
        self._engine = engine
        self._thread = threading.Thread(target=self._run, name="wasm-epoch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(TICK_SECONDS)
            self._engine.increment_epoch()


@functools.cache
def _engine() -> wasmtime.Engine:
    config = wasmtime.Config()
    config.epoch_interruption = True
    config.cranelift_opt_level = "speed"
    engine = wasmtime.Engine(config)
    _Ticker(engine)
    return engine


_MODULES: dict[str, wasmtime.Module] = {}

_LIVE_STORES: weakref.WeakSet[wasmtime.Store] = weakref.WeakSet()


@atexit.register
def _close_live_stores() -> None:
    """Delete every store while the interpreter is whole. A store deleted
    during interpreter teardown calls wasmtime-py's finalizer for its host
    functions after that callback may already be gone (a segfault at exit)."""
    for store in list(_LIVE_STORES):
        store.close()


def load_module(policy: CompiledPolicy) -> wasmtime.Module:
    """The wasmtime module for ``policy``; native code is cached in memory and,
    signed, on disk (:mod:`engine.wasm.native_cache`)."""
    module = _MODULES.get(policy.key)
    if module is not None:
        return module
    engine = _engine()
    key = native_cache.signing_key()
    native = native_cache.load(key, policy.wasm) if key is not None else None
    if native is not None:
        try:
            module = wasmtime.Module.deserialize(engine, native)
        except wasmtime.WasmtimeError:
            module = None
    if module is None:
        try:
            module = wasmtime.Module(engine, policy.wasm)
        except wasmtime.WasmtimeError as exc:
            raise EvalError(f"policy module {policy.name} is not valid Wasm: {exc}") from None
        if key is not None:
            native_cache.store(key, policy.wasm, module.serialize())
    _MODULES[policy.key] = module
    return module


def _leb128(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


def data_pages(wasm: bytes) -> int:
    """Wasm pages the module's active data segments reach (their highest end
    offset, read from the data section; 0 when there is none)."""
    pos, end = 8, 0
    try:
        while pos < len(wasm):
            section = wasm[pos]
            size, pos = _leb128(wasm, pos + 1)
            if section == 11:
                count, at = _leb128(wasm, pos)
                for _ in range(count):
                    flags, at = _leb128(wasm, at)
                    if flags == 2:
                        _, at = _leb128(wasm, at)  # memory index
                    offset = 0
                    if flags in (0, 2):
                        if wasm[at] != 0x41:  # not i32.const: cannot tell
                            return 0
                        offset, at = _leb128(wasm, at + 1)
                        at += 1  # end
                    length, at = _leb128(wasm, at)
                    at += length
                    end = max(end, offset + length)
            pos += size
    except IndexError:
        return 0
    return -(-end // PAGE)


# ---------------------------------------------------------------- calling exports

_U32 = 0xFFFFFFFF
_LIBC = ctypes.CDLL(None)
_strnlen = _LIBC.strnlen
_strnlen.restype = ctypes.c_size_t
_strnlen.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_TrapPointer = ctypes.POINTER(wasmtime_ffi.wasm_trap_t)
_func_call_unchecked = wasmtime_bindings._wasmtime_func_call_unchecked


class _ExportCall:
    """Calls an all-i32 export with its signature resolved once.

    wasmtime-py's ``Func.__call__`` looks up and converts the function type on
    every call (about 29 µs here); the OPA ABI is i32 throughout, so the
    export is called unchecked (its type is known) with one buffer of raw
    values, built once and reused for the arguments and the result (about
    1.5 µs). This uses wasmtime-py's ctypes bindings, pinned with the package
    version.
    """

    def __init__(self, store: wasmtime.Store, func: wasmtime.Func) -> None:
        ftype = func.type(store)
        self._nresults = len(ftype.results)
        self._size = max(1, len(ftype.params), self._nresults)
        self._raw = (wasmtime_bindings.wasmtime_val_raw_t * self._size)()
        self._func = ctypes.byref(func._func)
        self._store = store
        self._context = store._context()

    def __call__(self, *args: int) -> int:
        raw = self._raw
        for i, arg in enumerate(args):
            raw[i].i32 = arg
        trap = _TrapPointer()
        error = _func_call_unchecked(
            self._context, self._func, raw, self._size, ctypes.byref(trap)
        )
        if trap:
            trap_obj = wasmtime.Trap._from_ptr(trap)
            maybe_raise_last_exn()  # a Python exception raised by a host callback
            raise trap_obj
        if error:
            maybe_raise_last_exn()
            raise wasmtime.WasmtimeError._from_ptr(error)
        return raw[0].i32 & _U32 if self._nresults else 0


# ---------------------------------------------------------------- host functions

_HOST_FUNCS: dict[int, tuple[weakref.WeakMethod[Callable[..., int | None]], bool]] = {}
"""Host functions by the id wasmtime hands back to the trampoline: the
handler (a method of its instance, held weakly: this table must not keep an
instance, its store and its Wasm memory alive), and whether it returns a
value. An entry goes when wasmtime drops the store's functions."""
_HOST_FUNC_IDS = itertools.count(1)
_RAW_VALUE_SIZE = 16  # wasmtime_val_raw_t, a union as wide as a v128
_RAW_I32S = [struct.Struct("<" + "I12x" * n) for n in range(8)]
_RawCallback = ctypes.CFUNCTYPE(
    ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t
)


@_RawCallback
def _trampoline(env: int, _caller: int, args_and_results: int, count: int) -> int:
    """Calls a host function on its raw i32 arguments; writes its i32 result
    over the first argument. A Python exception becomes a trap, which the
    export call that entered Wasm re-raises as itself (wasmtime-py's
    convention: the exception waits in ``wasmtime._func.LAST_EXCEPTION``)."""
    try:
        method, returns = _HOST_FUNCS[env]
        handler = method()
        if handler is None:  # the store outlived its instance: a call cannot happen
            raise RuntimeError("host function called after its instance was freed")
        result = handler(
            *_RAW_I32S[count].unpack(ctypes.string_at(args_and_results, _RAW_VALUE_SIZE * count))
        )
        if returns:
            ctypes.c_uint32.from_address(args_and_results).value = result
        return 0
    except BaseException as exc:
        wasmtime_func.LAST_EXCEPTION = exc
        return ctypes.cast(wasmtime.Trap("python exception")._consume(), ctypes.c_void_p).value


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _finalize(env: int) -> None:
    _HOST_FUNCS.pop(env, None)


_TRAMPOLINE = ctypes.cast(_trampoline, wasmtime_ffi.wasmtime_func_unchecked_callback_t)

_EPOCH_WATCHERS: dict[int, weakref.WeakMethod[Callable[[], str | None]]] = {}
"""Each store's epoch watcher by the id wasmtime hands back to the callback:
a method of its instance (held weakly), returning why to stop or None."""
_EpochCallback = ctypes.CFUNCTYPE(
    ctypes.c_size_t,
    ctypes.POINTER(wasmtime_ffi.wasmtime_context_t),
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint64),
    ctypes.POINTER(wasmtime_bindings.wasmtime_update_deadline_kind_t),
)
_CONTINUE = 0  # WASMTIME_UPDATE_DEADLINE_CONTINUE


@_EpochCallback
def _epoch_reached(_context: Any, env: int | None, delta: Any, kind: Any) -> int:
    """Called by wasmtime when a store's epoch deadline is reached: run for one
    more tick, or stop the evaluation with an error (its message the reason).
    Never raises: an exception here would cross the C boundary."""
    try:
        method = _EPOCH_WATCHERS.get(env or 0)
        watcher = method() if method is not None else None
        reason = "its instance was freed" if watcher is None else watcher()
    except BaseException as exc:  # must not cross the C boundary
        reason = f"epoch callback failed: {exc!r}"
    if reason is None:
        delta[0] = 1
        kind[0] = _CONTINUE
        return 0
    error = wasmtime_bindings.wasmtime_error_new(reason.encode())
    return ctypes.cast(error, ctypes.c_void_p).value or 0


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _finalize_watcher(env: int) -> None:
    _EPOCH_WATCHERS.pop(env, None)


def _watch_epochs(store: wasmtime.Store, watcher: Callable[[], str | None]) -> None:
    """Call ``watcher`` (a bound method) whenever ``store`` reaches its epoch deadline."""
    ident = next(_HOST_FUNC_IDS)
    _EPOCH_WATCHERS[ident] = weakref.WeakMethod(watcher)  # type: ignore[arg-type]
    wasmtime_bindings.wasmtime_store_epoch_deadline_callback(
        store.ptr(), _epoch_reached, ident, _finalize_watcher
    )


def _define_host_func(
    linker: wasmtime.Linker,
    name: str,
    nparams: int,
    handler: Callable[..., int | None],
    *,
    returns: bool,
) -> None:
    """Define ``env.name``, all-i32, answered by ``handler`` (a bound method
    of the instance) through a lean trampoline: wasmtime-py's generic one
    wraps each argument and the result in ``Val`` objects (about 10 µs a call
    here). Uses wasmtime-py's ctypes bindings, pinned with the package
    version."""
    i32 = wasmtime.ValType.i32()
    ftype = wasmtime.FuncType([i32] * nparams, [i32] if returns else [])
    ident = next(_HOST_FUNC_IDS)
    _HOST_FUNCS[ident] = (weakref.WeakMethod(handler), returns)  # type: ignore[arg-type]
    error = wasmtime_bindings.wasmtime_linker_define_func_unchecked(
        linker.ptr(),
        b"env",
        3,
        name.encode(),
        len(name),
        ftype.ptr(),
        _TRAMPOLINE,
        ident,
        _finalize,
    )
    if error:
        _HOST_FUNCS.pop(ident, None)
        raise wasmtime.WasmtimeError._from_ptr(error)


# ---------------------------------------------------------------- one instance


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
        self._custom = dict(custom or {})
        self._builtins: dict[int, tuple[str, Callable[..., int]]] = {}
        self._read_hook = read_hook
        self._read_buffer = (0, 0)
        """Where the read buffer starts and ends (nothing when not tracing)."""
        self._read_at: wasmtime.Global | None = None
        if read_hook is not None:  # the runtime reads values from instantiation on
            self._builtins[TRACE_BUILTIN_ID] = ("(value reads)", self._take_full_buffer)
        self._print = print_hook or (lambda line: print(line, file=sys.stderr))

        module = load_module(policy)
        engine = _engine()
        self.store = wasmtime.Store(engine)
        _LIVE_STORES.add(self.store)
        self.store.set_epoch_deadline(_NO_DEADLINE)
        self._stop: BaseException | None = None
        """Why the epoch watcher stopped the running evaluation."""
        self._deadline = float("inf")
        _watch_epochs(self.store, self._epoch_watch)
        min_pages = 2
        for imp in module.imports:
            if imp.name == "memory" and isinstance(imp.type, wasmtime.MemoryType):
                min_pages = imp.type.limits.min
        # The module's data segments must fit in the initial memory; OPA
        # declares 2 pages whatever the size of its constants.
        min_pages = max(min_pages, data_pages(policy.wasm))
        max_pages = max(min_pages, self.limits.max_pages)
        try:
            self.memory = wasmtime.Memory(
                self.store, wasmtime.MemoryType(wasmtime.Limits(min_pages, max_pages))
            )
        except wasmtime.WasmtimeError as exc:
            # wasmtime reserves the whole 32-bit address range (about 4 GiB of virtual
            # memory) up front: an address-space limit below that refuses the memory.
            reason = str(exc).splitlines()[0]
            raise EvalError(
                "cannot reserve the Wasm memory: the process's address-space limit "
                f"(ulimit -v) leaves less than the 4 GiB wasmtime reserves: {reason}"
            ) from None
        linker = wasmtime.Linker(engine)
        linker.define(self.store, "env", "memory", self.memory)
        self._memory_context = self.store._context()
        self._memory_ref = ctypes.byref(self.memory._memory)
        self._reader_size = -1
        self._reader = ValueReader(0, 0)
        _define_host_func(linker, "opa_abort", 1, self._abort, returns=False)
        _define_host_func(linker, "opa_println", 1, self._println, returns=False)
        for n in range(5):
            _define_host_func(linker, f"opa_builtin{n}", n + 2, self._dispatch, returns=True)
        try:
            self.instance = linker.instantiate(self.store, module)
        except wasmtime.WasmtimeError as exc:
            raise EvalError(f"cannot instantiate the policy module: {exc}") from None
        exports = self.instance.exports(self.store)
        self._fn: dict[str, _ExportCall] = {
            name: _ExportCall(self.store, exports[name])
            for name in (
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
        }
        self.abi_version = (
            exports["opa_wasm_abi_version"].value(self.store),
            exports["opa_wasm_abi_minor_version"].value(self.store),
        )
        self.entrypoints: dict[str, int] = values.parse(self.json_dump(self._call("entrypoints")))
        builtin_ids: dict[str, int] = values.parse(self.json_dump(self._call("builtins")))
        self.imported_builtins = frozenset(builtin_ids)
        """Names of the builtins this module calls on the host."""
        self._builtins.update(
            (bid, (name, self._resolve_builtin(name))) for name, bid in builtin_ids.items()
        )
        if read_hook is not None:
            self._start_read_buffer(read_buffer_bytes - read_buffer_bytes % PAIR.size)
        self.data_addr = self.parse_json(policy.data)
        self._data_heap = self._call("opa_heap_ptr_get")
        self.input_addr = 0
        self.input_span = (0, 0)
        """The addresses ``[from, to)`` holding the input and the resident documents
        of the last :meth:`set_input`."""
        self._ctx = 0
        self.set_input(None)

    def close(self) -> None:
        """Free the instance's store and Wasm memory now. Its Python objects
        form reference cycles (host callbacks are bound methods), which the
        scan's paused collector would otherwise keep for the whole scan."""
        with cancellation.deferred():  # wasmtime calls finalizers back in Python
            self.store.close()

    # -- memory helpers ------------------------------------------------------

    def _base(self) -> int:
        return ctypes.addressof(self.memory.data_ptr(self.store).contents)

    def _call(self, name: str, *args: int) -> int:
        """Call an export in a deferred region (a signal only records the
        request); a request waiting when the outermost call ends raises
        :class:`Cancelled`."""
        state = cancellation.state
        state.depth += 1
        try:
            return self._fn[name](*args)
        except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
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
        elif time.monotonic() > self._deadline:
            self._stop = EvalTimeout(self.limits.time_message())
        else:
            return None
        return str(self._stop)

    def _memory_size(self) -> int:
        return wasmtime_bindings._wasmtime_memory_data_size(self._memory_context, self._memory_ref)

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
        length = self._cstring_length(addr, _U32 + 1, what)
        return ctypes.string_at(self._base() + addr, length)

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
        found = self.instance.exports(self.store).get(name)
        if not isinstance(found, wasmtime.Global):
            raise EvalError(f"policy module {self.policy.name} exports no global {name}")
        signed = value - (1 << 32) if value >= 1 << 31 else value  # i32 holds it signed
        found.set_value(self.store, wasmtime.Val.i32(signed))

    def _start_read_buffer(self, size: int) -> None:
        """Allocate the read buffer and point the module's buffer globals at it."""
        if size < PAIR.size:
            raise ValueError("the read buffer must hold at least one pair")
        start = self._call("opa_malloc", size)
        found = self.instance.exports(self.store).get(TRACE_AT)
        if not isinstance(found, wasmtime.Global):
            raise EvalError(f"policy module {self.policy.name} exports no global {TRACE_AT}")
        self._read_at = found
        self._read_buffer = (start, start + size)
        self.set_global(TRACE_AT, start)
        self.set_global(TRACE_END, start + size)

    def _take_reads(self, written: int) -> None:
        """Hand the pairs below ``written`` to the read hook."""
        start, end = self._read_buffer
        if not start <= written <= end or (written - start) % PAIR.size:
            raise EvalError(
                f"policy module {self.policy.name}: its read buffer's write pointer "
                f"{written} is outside [{start}, {end}]"
            )
        if written > start and self._read_hook is not None:
            size = written - start
            self._read_hook(ctypes.string_at(self.host_address(start, size, "reads"), size))

    def _take_full_buffer(self, written: int, _unused: int) -> int:
        """The instrumented module's call when its read buffer is full: take
        the pairs, answer where writing starts again."""
        self._take_reads(written)
        return self._read_buffer[0]

    def _take_last_reads(self) -> None:
        """Take the pairs the evaluation wrote since the buffer last filled."""
        assert self._read_at is not None
        self._take_reads(self._read_at.value(self.store) & _U32)
        self._read_at.set_value(self.store, wasmtime.Val.i32(self._read_buffer[0]))

    def reader(self) -> ValueReader:
        """A reader of values in memory, valid until the next call that may allocate."""
        return ValueReader(self._base(), self.memory.data_len(self.store))

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
        self._deadline = time.monotonic() + seconds
        token = set_context(
            EvalContext(
                now_ns=time.time_ns(),
                max_memory_bytes=self.limits.max_memory_mb << 20,
                deadline=self._deadline,
            )
        )
        self.store.set_epoch_deadline(1)  # the watcher decides at every tick
        if self._read_at is not None:  # drop what a failed evaluation left
            self._read_at.set_value(self.store, wasmtime.Val.i32(self._read_buffer[0]))
        try:
            self._call("eval", ctx)
            if self._read_at is not None:
                self._take_last_reads()
        except EvalTimeout as exc:
            builtin = str(exc).partition(" in builtin ")[2]  # which host builtin ran past it
            where = f" in builtin {builtin}" if builtin else ""
            raise EvalTimeout(self.limits.time_message(seconds) + where) from None
        finally:
            self.store.set_epoch_deadline(_NO_DEADLINE)
            self._deadline = float("inf")
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

    def _translate(self, error: Exception) -> EvalError:
        """An evaluation error for a trap. (An exception a host callback raised
        is re-raised as itself by the export call, so it never reaches here.)"""
        text = str(error)
        if isinstance(error, wasmtime.Trap) and error.trap_code == wasmtime.TrapCode.INTERRUPT:
            return EvalTimeout(self.limits.time_message())
        if isinstance(error, wasmtime.Trap) and error.trap_code == wasmtime.TrapCode.STACK_OVERFLOW:
            return EvalError("evaluation exceeded the Wasm stack (recursion too deep)")
        return EvalError(f"evaluation trapped: {text.splitlines()[0] if text else error!r}")

    def _abort(self, addr: int) -> None:
        message = self.read_cstring(addr & _U32, "an abort message").decode("utf-8", "replace")
        if "out of memory" in message or "malloc" in message:
            raise MemoryLimitExceeded(self.limits.memory_message())
        located = self.policy.user_locations(message)
        from engine.rules.conflicts import find_conflict  # only when a rule aborts

        conflict = find_conflict(located, self.policy.rego_files)
        if conflict is not None:
            raise EvalConflict(conflict)
        raise EvalError(f"evaluation aborted: {located}")

    def _println(self, addr: int) -> None:
        self._print(self.read_cstring(addr & _U32, "a print message").decode("utf-8", "replace"))

    def _dispatch(self, builtin_id: int, _ctx: int, *args: int) -> int:
        name, handler = self._builtins[builtin_id]
        try:
            result = handler(*args)
        except OutputLimitExceeded as exc:
            raise OutputLimitExceeded(f"builtin {name}: {exc}") from None
        except EvalError:
            raise
        except BuiltinLimitExceeded as exc:
            raise MemoryLimitExceeded(
                f"{self.limits.memory_message()} in builtin {name}: {exc}"
            ) from None
        except BuiltinTimeExceeded:
            raise EvalTimeout(f"{self.limits.time_message()} in builtin {name}") from None
        except ValueTooDeep as exc:
            raise EvalError(f"builtin {name}: {exc}") from None
        except Exception as exc:  # a host bug must not take the process down
            raise EvalError(f"builtin {name} failed: {type(exc).__name__}: {exc}") from exc
        # Host code does not see the epoch interruption: check the time bound here.
        if time.monotonic() > self._deadline:
            raise EvalTimeout(f"{self.limits.time_message()} in builtin {name}")
        return result

    def _resolve_builtin(self, name: str) -> Callable[..., int]:
        custom = self._custom.get(name)
        if custom is not None:
            return functools.partial(custom, self)
        reason = REFUSED.get(name)
        if reason is not None:
            return functools.partial(self._unavailable, name, f"is refused: {reason}")
        impl = implementation(name)
        if impl is None:
            return functools.partial(self._unavailable, name, "is not supported")
        return functools.partial(self._call_value_builtin, impl)

    def _unavailable(self, name: str, why: str, *_args: int) -> int:
        files = self.policy.files_calling(name)
        where = f" (called in {', '.join(files)})" if files else ""
        raise BuiltinUnavailable(f"builtin {name} {why}{where}")

    def _call_value_builtin(self, impl: Callable[..., Any], *args: int) -> int:
        try:
            py_args = [self.to_python(a) for a in args]
            try:
                result = impl(*py_args)
            except BuiltinError:
                return 0
            return self.from_python(result)
        except RecursionError:
            pass  # a deeply nested value: again, with a deeper stack
        return self._call_deep_value_builtin(impl, args)

    def _call_deep_value_builtin(self, impl: Callable[..., Any], args: tuple[int, ...]) -> int:
        """:meth:`_call_value_builtin` for values nested past Python's recursion
        limit: the Python work runs in :func:`in_deep_thread`, the calls into
        Wasm stay on this thread."""
        texts = [self.bounded_value_dump(a, "its argument") for a in args]

        def work() -> bytes | None:
            try:
                result = impl(*(values.parse(text) for text in texts))
            except BuiltinError:
                return None
            return values.dumps(result)

        text = in_deep_thread(work)
        return 0 if text is None else self.parse_value(text)
