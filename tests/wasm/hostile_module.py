"""A hand-made policy module that hands the host the addresses a test chooses.

It implements just enough of OPA's Wasm ABI for :class:`PolicyInstance` to
load it; ``opa_malloc``, ``opa_value_dump`` and what ``eval`` passes to
``opa_println`` / ``opa_abort`` are the test's numbers, as a policy.wasm
written by hand (with its bundle hash recomputed) could make them.
"""

from __future__ import annotations

import wasmtime

from engine.rules.compiler import CompiledPolicy

MEMORY_BYTES = 2 * 65536
"""The module's memory: two pages; ``abc`` with no NUL fills its last 3 bytes."""

_WAT = """
(module
  (import "env" "memory" (memory 2))
  (import "env" "opa_abort" (func $abort (param i32)))
  (import "env" "opa_println" (func $println (param i32)))
  (global (export "opa_wasm_abi_version") i32 (i32.const 1))
  (global (export "opa_wasm_abi_minor_version") i32 (i32.const 3))
  (data (i32.const 16) "{{}}\\00")
  (data (i32.const 32) "{{\\"main\\":0}}\\00")
  (data (i32.const 48) "[]\\00")
  (data (i32.const {tail}) "abc")
  (func (export "opa_malloc") (param i32) (result i32) (i32.const {malloc}))
  (func (export "opa_json_parse") (param i32 i32) (result i32) (i32.const 64))
  (func (export "opa_value_parse") (param i32 i32) (result i32) (i32.const 64))
  (func (export "opa_json_dump") (param i32) (result i32) (local.get 0))
  (func (export "opa_value_dump") (param i32) (result i32) (i32.const {dump}))
  (func (export "opa_heap_ptr_get") (result i32) (i32.const 0))
  (func (export "opa_heap_ptr_set") (param i32))
  (func (export "opa_eval_ctx_new") (result i32) (i32.const 0))
  (func (export "opa_eval_ctx_set_input") (param i32 i32))
  (func (export "opa_eval_ctx_set_data") (param i32 i32))
  (func (export "opa_eval_ctx_set_entrypoint") (param i32 i32))
  (func (export "opa_eval_ctx_get_result") (param i32) (result i32) (i32.const 80))
  (func (export "eval") (param i32) (result i32) {eval_body} (i32.const 0))
  (func (export "builtins") (result i32) (i32.const 16))
  (func (export "entrypoints") (result i32) (i32.const 32))
  (func (export "opa_value_add_path") (param i32 i32 i32) (result i32) (i32.const 0))
)
"""


def hostile_policy(
    *, malloc: int = 1024, dump: int = 48, println: int | None = None, abort: int | None = None
) -> CompiledPolicy:
    """The module with ``opa_malloc`` answering ``malloc``, ``opa_value_dump``
    answering ``dump``, and ``eval`` printing or aborting with the given address."""
    body = ""
    if println is not None:
        body += f"(call $println (i32.const {println}))"
    if abort is not None:
        body += f"(call $abort (i32.const {abort}))"
    wat = _WAT.format(malloc=malloc, dump=dump, tail=MEMORY_BYTES - 3, eval_body=body)
    wasm = wasmtime.wat2wasm(wat)
    key = f"hostile-{malloc}-{dump}-{println}-{abort}"
    return CompiledPolicy(wasm=wasm, data=b"{}", entrypoints=("main",), key=key, name="hand-made")
