"""``trace`` (OPA's ``topdown/trace.go``): a note in the evaluation's trace."""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import type_name


@register("trace")
def trace(note: Any) -> bool:
    """Record ``note`` in the evaluation's trace notes; always true."""
    if not isinstance(note, str):
        raise BuiltinError(f"trace: operand 1 must be string but got {type_name(note)}")
    current_context().memo.setdefault("trace", []).append(note)
    return True
