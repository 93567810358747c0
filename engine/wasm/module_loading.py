"""Loading a compiled policy's module: its builtins routed to the host where OPA's
Wasm library is wrong (:mod:`engine.wasm.builtin_routing`), native code from
memory, from the signed on-disk cache or compiled anew, and the memory its data
segments need."""

from __future__ import annotations

from engine.rules.compiler import CompiledPolicy
from engine.wasm import binary, native_cache
from engine.wasm.builtin_routing import routed_module
from engine.wasm.eval_errors import EvalError
from engine.wasm.limits import PAGE
from engine.wasm.wasmtime_adapter import (
    CompiledModule,
    WasmRefused,
    compile_module,
    deserialize_module,
)

_MODULES: dict[str, CompiledModule] = {}


def load_module(policy: CompiledPolicy) -> CompiledModule:
    """The compiled module for ``policy``; native code is cached in memory and,
    signed, on disk (:mod:`engine.wasm.native_cache`)."""
    module = _MODULES.get(policy.key)
    if module is not None:
        return module
    try:
        wasm = routed_module(policy.wasm)
    except (binary.WasmFormatError, IndexError) as exc:
        raise EvalError(f"policy module {policy.name} cannot be rewritten: {exc}") from None
    key = native_cache.signing_key()
    native = native_cache.load(key, wasm) if key is not None else None
    if native is not None:
        module = deserialize_module(native)
    if module is None:
        try:
            module = compile_module(wasm)
        except WasmRefused as exc:
            raise EvalError(f"policy module {policy.name} is not valid Wasm: {exc}") from None
        if key is not None:
            native_cache.store(key, wasm, module.serialize())
    _MODULES[policy.key] = module
    return module


def data_pages(wasm: bytes) -> int:
    """Wasm pages the module's active data segments reach (their highest end
    offset, read from the data section; 0 when there is none or it cannot be told)."""
    try:
        end = binary.data_end(binary.sections(wasm))
    except (binary.WasmFormatError, IndexError):
        return 0
    return -(-(end or 0) // PAGE)


def initial_pages(policy: CompiledPolicy, module: CompiledModule) -> int:
    """The memory's initial pages: what the module imports, raised to what its
    data segments reach (OPA declares 2 pages whatever the size of its constants)."""
    return max(module.memory_minimum, data_pages(policy.wasm))
