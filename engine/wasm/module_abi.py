"""The OPA Wasm ABI version a compiled module declares, read from its binary.

OPA exports the version as two constant globals, ``opa_wasm_abi_version`` and
``opa_wasm_abi_minor_version``. Reading them from the module's import, global
and export sections (:mod:`engine.wasm.binary`) needs no Wasm runtime
(``rego-engine version`` does not load wasmtime for it).
"""

from __future__ import annotations

from engine.wasm import binary

_NAMES = ("opa_wasm_abi_version", "opa_wasm_abi_minor_version")
_GLOBAL_KIND = 3


class ModuleFormatError(ValueError):
    """Bytes that are not a Wasm module with OPA's ABI version globals."""


def abi_version(wasm: bytes) -> tuple[int, int]:
    """(major, minor) of the OPA Wasm ABI ``wasm`` was compiled for."""
    if wasm[:4] != binary.MAGIC[:4]:
        raise ModuleFormatError("not a Wasm module")
    try:
        module = binary.sections(wasm)
        imported = binary.imported_global_count(module)
        defined = binary.constant_globals(module)
        exported = binary.exports(module)
    except (binary.WasmFormatError, IndexError) as exc:
        raise ModuleFormatError(f"truncated or malformed Wasm module: {exc}") from None
    versions: list[int] = []
    for name in _NAMES:
        kind, index = exported.get(name, (None, 0))
        if kind != _GLOBAL_KIND:
            raise ModuleFormatError(f"the module does not export {name}")
        position = index - imported
        value = defined[position] if 0 <= position < len(defined) else None
        if value is None:
            raise ModuleFormatError(f"{name} is not a constant global of the module")
        versions.append(value)
    return versions[0], versions[1]
