"""Glob builtins the Wasm runtime leaves to the host (OPA's ``topdown/glob.go``):
``glob.quote_meta``."""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.operands import string_operand
from engine.wasm.host_builtins.registry import register

_GLOB_META = frozenset("*?\\[]{}")


@register("glob.quote_meta")
def glob_quote_meta(pattern: Any) -> str:
    """Escape the glob metacharacters ``* ? \\ [ ] { }`` with a backslash."""
    s = string_operand("glob.quote_meta", 1, pattern)
    return "".join("\\" + c if c in _GLOB_META else c for c in s)
