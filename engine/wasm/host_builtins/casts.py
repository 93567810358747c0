"""The deprecated ``cast_*`` builtins (OPA's ``topdown/casts.go``) the Wasm
runtime leaves to the host."""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, register
from engine.wasm.values import Set, type_name


@register("cast_array")
def cast_array(x: Any) -> list[Any]:
    """An array as is, a set as an array of its members in order (deprecated)."""
    if isinstance(x, list):
        return x
    if isinstance(x, Set):
        return list(x)
    raise BuiltinError(f"cast_array: operand 1 must be array or set but got {type_name(x)}")


@register("cast_set")
def cast_set(x: Any) -> Set:
    """A set as is, an array as the set of its elements (deprecated)."""
    if isinstance(x, Set):
        return x
    if isinstance(x, list):
        return Set(x)
    raise BuiltinError(f"cast_set: operand 1 must be array or set but got {type_name(x)}")


def _cast(name: str, kind: str, check: Any) -> None:
    def fn(x: Any) -> Any:
        if not check(x):
            raise BuiltinError(f"{name}: operand 1 must be {kind} but got {type_name(x)}")
        return x

    fn.__name__ = name
    fn.__doc__ = f"The operand when it is a {kind}, else an error (deprecated)."
    register(name)(fn)


_cast("cast_boolean", "boolean", lambda x: isinstance(x, bool))
_cast("cast_null", "null", lambda x: x is None)
_cast("cast_object", "object", lambda x: isinstance(x, dict))
_cast("cast_string", "string", lambda x: isinstance(x, str))
