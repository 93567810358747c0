"""Host implementations of the builtins OPA's Wasm runtime does not implement.

Every module of this package registers its functions in
:data:`engine.wasm.host_builtins.registry.REGISTRY`; importing the package loads
them all.
"""

from __future__ import annotations

import importlib
import pkgutil

from engine.wasm.host_builtins.registry import REGISTRY, BuiltinError, register

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "registry":
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["REGISTRY", "BuiltinError", "register"]
