"""The one module that touches ``wasmtime``: the shared engine and its epoch
ticker, compiled modules, and a sandbox (one store, its capped memory, one
instance) with all-i32 exports and host functions.

wasmtime-py's public API is used wherever it is as fast. Three private calls
are kept, each measured on this machine with wasmtime-py 50 (figures per call):

- calling an export unchecked, its i32 signature resolved once
  (:class:`ExportCall`): 6.4 µs, where ``Func.__call__`` takes 33.6 µs (it
  looks up and converts the function type on every call);
- host functions defined unchecked with a lean trampoline
  (:func:`_define_host_func`): about 2 µs per Wasm→host call, where
  ``Linker.define_func`` takes about 24 µs (it wraps each argument and the
  result in ``Val`` objects);
- the store's epoch-deadline callback (:func:`_watch_epochs`), which
  wasmtime-py does not expose at all: it runs Python on the evaluating thread
  every tick, so a deadline is checked against the clock and a SIGINT is
  honoured within a tick instead of at the end of the evaluation.

These use wasmtime-py's ctypes bindings; ``pyproject.toml`` pins the range of
releases they are tested with (``make wasmtime-range``).
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import itertools
import struct
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import wasmtime
import wasmtime._func as wasmtime_func
from wasmtime import _bindings as wasmtime_bindings
from wasmtime import _ffi as wasmtime_ffi

TICK_SECONDS = 0.01
"""How often the epoch advances; the resolution of the time bound."""

NO_DEADLINE = 2**62
"""An epoch deadline never reached: a store outside an evaluation."""

U32 = 0xFFFFFFFF

TrapKind = Literal["interrupt", "stack_overflow", "trap", "error"]


class WasmTrap(Exception):
    """Wasm stopped: a trap (``kind`` says which) or an error wasmtime raised."""

    def __init__(self, message: str, kind: TrapKind) -> None:
        super().__init__(message)
        self.kind = kind


class WasmRefused(Exception):
    """wasmtime refused to compile or instantiate a module."""


class MemoryRefused(WasmRefused):
    """wasmtime could not reserve a Wasm memory (it reserves the whole 32-bit
    address range, about 4 GiB of virtual memory, up front)."""


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


_LIVE_STORES: weakref.WeakSet[wasmtime.Store] = weakref.WeakSet()


@atexit.register
def _close_live_stores() -> None:
    """Delete every store while the interpreter is whole. A store deleted
    during interpreter teardown calls wasmtime-py's finalizer for its host
    functions after that callback may already be gone (a segfault at exit)."""
    for store in list(_LIVE_STORES):
        store.close()


# ---------------------------------------------------------------- modules


@dataclass(frozen=True)
class CompiledModule:
    """A module compiled to native code for the shared engine."""

    module: wasmtime.Module

    @property
    def memory_minimum(self) -> int:
        """The initial pages of the memory the module imports (2 when it imports none)."""
        for imp in self.module.imports:
            if imp.name == "memory" and isinstance(imp.type, wasmtime.MemoryType):
                return imp.type.limits.min
        return 2

    def serialize(self) -> bytes:
        """The native code, for :func:`deserialize_module`."""
        return bytes(self.module.serialize())


def compile_module(wasm: bytes) -> CompiledModule:
    """Compile ``wasm``; :class:`WasmRefused` when it is not valid Wasm."""
    try:
        return CompiledModule(wasmtime.Module(_engine(), wasm))
    except wasmtime.WasmtimeError as exc:
        raise WasmRefused(str(exc)) from None


def deserialize_module(native: bytes) -> CompiledModule | None:
    """A module from native code :meth:`CompiledModule.serialize` wrote; None
    when this wasmtime cannot load it."""
    try:
        return CompiledModule(wasmtime.Module.deserialize(_engine(), native))
    except wasmtime.WasmtimeError:
        return None


# ---------------------------------------------------------------- calling exports

_TrapPointer = ctypes.POINTER(wasmtime_ffi.wasm_trap_t)
_func_call_unchecked = wasmtime_bindings._wasmtime_func_call_unchecked


def _as_wasm_trap(exc: wasmtime.Trap | wasmtime.WasmtimeError) -> WasmTrap:
    text = str(exc)
    if isinstance(exc, wasmtime.Trap):
        code = exc.trap_code
        if code == wasmtime.TrapCode.INTERRUPT:
            return WasmTrap(text, "interrupt")
        if code == wasmtime.TrapCode.STACK_OVERFLOW:
            return WasmTrap(text, "stack_overflow")
        return WasmTrap(text, "trap")
    return WasmTrap(text, "error")


class ExportCall:
    """Calls an all-i32 export with its signature resolved once: unchecked
    (its type is known), with one buffer of raw values built once and reused
    for the arguments and the result (see the module docstring for the cost).

    A Python exception a host function raised is re-raised as itself; a trap
    or a wasmtime error becomes :class:`WasmTrap`."""

    def __init__(self, store: wasmtime.Store, func: wasmtime.Func) -> None:
        ftype = func.type(store)
        self._nresults = len(ftype.results)
        self._size = max(1, len(ftype.params), self._nresults)
        self._raw = (wasmtime_bindings.wasmtime_val_raw_t * self._size)()
        self._func = ctypes.byref(func._func)
        self._context = store._context()

    def __call__(self, *args: int) -> int:
        raw = self._raw
        for i, arg in enumerate(args):
            raw[i].i32 = arg
        trap = _TrapPointer()
        error = _func_call_unchecked(self._context, self._func, raw, self._size, ctypes.byref(trap))
        if trap:
            trap_obj = wasmtime.Trap._from_ptr(trap)
            wasmtime_func.maybe_raise_last_exn()  # a Python exception of a host function
            raise _as_wasm_trap(trap_obj)
        if error:
            wasmtime_func.maybe_raise_last_exn()
            raise _as_wasm_trap(wasmtime.WasmtimeError._from_ptr(error))
        return raw[0].i32 & U32 if self._nresults else 0


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


def host_function_count() -> int:
    """How many host functions are defined in live stores (for leak checks)."""
    return len(_HOST_FUNCS)


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
            # a returning handler answers an int (a None raises here: a trap)
            ctypes.c_uint32.from_address(args_and_results).value = result  # type: ignore[assignment]
        return 0
    except BaseException as exc:
        # wasmtime-py declares Exception but re-raises whatever it finds (it stores
        # BaseException itself).
        wasmtime_func.LAST_EXCEPTION = exc  # type: ignore[assignment]
        return ctypes.cast(wasmtime.Trap("python exception")._consume(), ctypes.c_void_p).value or 0


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _finalize(env: int) -> None:
    _HOST_FUNCS.pop(env, None)


_TRAMPOLINE = ctypes.cast(_trampoline, wasmtime_ffi.wasmtime_func_unchecked_callback_t)


def _define_host_func(linker: wasmtime.Linker, name: str, function: HostFunction) -> None:
    """Define ``env.name``, all-i32, answered by the function's handler through
    the lean trampoline."""
    i32 = wasmtime.ValType.i32()
    ftype = wasmtime.FuncType([i32] * function.params, [i32] if function.returns else [])
    ident = next(_HOST_FUNC_IDS)
    _HOST_FUNCS[ident] = (weakref.WeakMethod(function.handler), function.returns)
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


# ---------------------------------------------------------------- epoch watching

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
    _EPOCH_WATCHERS[ident] = weakref.WeakMethod(watcher)
    wasmtime_bindings.wasmtime_store_epoch_deadline_callback(
        store.ptr(), _epoch_reached, ident, _finalize_watcher
    )


# ---------------------------------------------------------------- one sandbox


@dataclass(frozen=True)
class HostFunction:
    """An ``env`` import answered by the host: ``handler`` (a bound method)
    takes ``params`` i32 arguments and returns an i32 when ``returns``."""

    params: int
    handler: Callable[..., int | None]
    returns: bool


class Sandbox:
    """One store with its memory (``min_pages`` to ``max_pages`` 64 KiB pages)
    and one instance of a module, whose ``env`` imports are ``functions``.

    ``watcher`` (a bound method) is asked at every tick of an armed
    evaluation whether to stop it (a reason) or not (None)."""

    def __init__(
        self,
        module: CompiledModule,
        *,
        min_pages: int,
        max_pages: int,
        functions: Mapping[str, HostFunction],
        watcher: Callable[[], str | None],
    ) -> None:
        engine = _engine()
        self._store = wasmtime.Store(engine)
        _LIVE_STORES.add(self._store)
        self._store.set_epoch_deadline(NO_DEADLINE)
        _watch_epochs(self._store, watcher)
        try:
            self._memory = wasmtime.Memory(
                self._store, wasmtime.MemoryType(wasmtime.Limits(min_pages, max_pages))
            )
        except wasmtime.WasmtimeError as exc:
            raise MemoryRefused(str(exc).splitlines()[0]) from None
        linker = wasmtime.Linker(engine)
        linker.define(self._store, "env", "memory", self._memory)
        for name, function in functions.items():
            _define_host_func(linker, name, function)
        try:
            self._instance = linker.instantiate(self._store, module.module)
        except wasmtime.WasmtimeError as exc:
            raise WasmRefused(str(exc)) from None
        self._exports = self._instance.exports(self._store)
        self._globals: dict[str, wasmtime.Global] = {}

    def _global(self, name: str) -> wasmtime.Global:
        found = self._globals.get(name)
        if found is None:
            export = self._exports.get(name)
            if not isinstance(export, wasmtime.Global):
                raise WasmRefused(f"the module exports no global {name}")
            found = self._globals[name] = export
        return found

    def export(self, name: str) -> ExportCall:
        """The exported function ``name`` (all-i32), ready to call."""
        found = self._exports.get(name)
        if not isinstance(found, wasmtime.Func):
            raise WasmRefused(f"the module exports no function {name}")
        return ExportCall(self._store, found)

    def has_global(self, name: str) -> bool:
        """Whether the module exports a global ``name``."""
        return name in self._globals or isinstance(self._exports.get(name), wasmtime.Global)

    def global_value(self, name: str) -> int:
        """The exported i32 global ``name``, read as unsigned."""
        return self._global(name).value(self._store) & U32

    def set_global(self, name: str, value: int) -> None:
        """Set the exported i32 global ``name`` (given unsigned)."""
        signed = value - (1 << 32) if value >= 1 << 31 else value  # i32 holds it signed
        self._global(name).set_value(self._store, wasmtime.Val.i32(signed))

    def memory_base(self) -> int:
        """The host address of Wasm address 0 (moves only when the memory grows)."""
        return ctypes.addressof(self._memory.data_ptr(self._store).contents)

    def memory_size(self) -> int:
        """The memory's size in bytes."""
        return self._memory.data_len(self._store)

    def arm(self) -> None:
        """Ask the watcher at every tick from now on."""
        self._store.set_epoch_deadline(1)

    def disarm(self) -> None:
        """Stop asking the watcher."""
        self._store.set_epoch_deadline(NO_DEADLINE)

    def close(self) -> None:
        """Free the store, its memory and its host functions now."""
        self._store.close()
