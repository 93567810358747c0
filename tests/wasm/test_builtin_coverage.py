"""Which builtins OPA's Wasm runtime leaves to the host, read from OPA itself.

A module calling every builtin of the pinned capabilities is compiled; its
``builtins`` export lists those the host must supply. Each must be
implemented, refused, or named here as not supported (an evaluation error).
"""

from __future__ import annotations

from pathlib import Path

from engine.rules.capabilities import opa_capabilities
from engine.rules.compiler import compile_policy
from engine.rules.opa import find_opa
from engine.rules.sources import load_sources
from engine.wasm.builtin_routing import ROUTES
from engine.wasm.host import REFUSED, PolicyInstance
from engine.wasm.host_builtins import REGISTRY

NOT_SUPPORTED: set[str] = set()

VOID = {"print", "internal.print", "internal.test_case"}


def every_builtin_module() -> str:
    lines = ["package allbuiltins", "v0_marker { true }  # a body without if: the file is v0"]
    for i, builtin in enumerate(opa_capabilities(find_opa())["builtins"]):
        name = builtin["name"]
        if builtin.get("infix") or not name[0].isalpha() or name in VOID:
            continue
        decl = builtin["decl"]
        arity = len(decl.get("args", [])) + (1 if decl.get("variadic") else 0)
        args = ", ".join(f"input.a{j}" for j in range(arity))
        lines.append(f"r{i} := {name}({args})")
    return "\n".join(lines) + "\n"


def test_every_host_builtin_is_implemented_refused_or_listed(tmp_path: Path) -> None:
    # v0 syntax, so the deprecated builtins v0 policies call are included too
    (tmp_path / "all.rego").write_text(every_builtin_module())
    policy = compile_policy(load_sources([tmp_path]), ["allbuiltins"])
    needed = set(PolicyInstance(policy).imported_builtins)
    assert len(needed) > 90
    unhandled = needed - set(REGISTRY) - set(REFUSED)
    assert unhandled == NOT_SUPPORTED
    routed = {route.builtin for route in ROUTES}
    assert set(REGISTRY) <= needed | routed, "registered builtins OPA never delegates"
