"""Builtins routed away from OPA's Wasm library to the host.

Where the C library compiled into every module answers differently from OPA's
interpreter (topdown), the module is rewritten so that the library function
calls the host instead: its body becomes a call of the module's own
``opa_builtinN`` import under a builtin id no module uses (:data:`ROUTED_IDS`),
passing its arguments through. The host answers with the implementation in
:mod:`engine.wasm.host_builtins`, which follows topdown. No import or function
index shifts; plain modules and the instrumented copy
(:mod:`engine.wasm.read_tracing`) are rewritten alike.

Routed, with the difference measured against the pinned ``opa eval``:

- ``replace(s, "", x)``: the library never returns (topdown inserts ``x``
  before every character and at the end, as Go's ``strings.ReplaceAll``);
- ``object.union_n([])``: the library is undefined (topdown gives ``{}``);
- ``indexof(s, "")``: the library gives 0 (topdown: an error, so undefined);
- ``format_int(1e21, 10)``: the library aborts the evaluation past 64 bits;
- ``base64.decode("YQ")``, ``base64.is_valid("YQ")``: the library accepts
  unpadded input (topdown, as Go's ``StdEncoding``, refuses it);
- ``json.is_valid("[1,]")``: the library accepts a trailing comma.

``json.marshal`` is not routed: the library keeps object keys in memory order
where topdown sorts them, but topdown also writes each number as its literal
text, which the host's values do not keep.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.wasm import binary
from engine.wasm.binary import CALL, END, I32_CONST, LOCAL_GET, Body, WasmFormatError


@dataclass(frozen=True)
class Route:
    """A builtin routed to the host: its library function and that function's arity."""

    builtin: str
    function: str
    arity: int


ROUTES = (
    Route("replace", "opa_strings_replace", 3),
    Route("object.union_n", "builtin_object_union_n", 1),
    Route("indexof", "opa_strings_indexof", 2),
    Route("format_int", "opa_strings_format_int", 2),
    Route("base64.decode", "opa_base64_decode", 1),
    Route("base64.is_valid", "opa_base64_is_valid", 1),
    Route("json.is_valid", "opa_json_is_valid", 1),
)

ROUTED_IDS: dict[int, str] = {0xFFFFFF00 + i: route.builtin for i, route in enumerate(ROUTES)}
"""The builtin id each routed builtin's host call carries (OPA numbers a
module's builtins from 0; read tracing uses ``0xFFFFFFF0``)."""

_ID_OF = {name: builtin_id for builtin_id, name in ROUTED_IDS.items()}


def _forwarding_body(builtin_id: int, arity: int, builtin_import: int) -> Body:
    """``return opa_builtin<arity>(builtin_id, 0, arg0, ...)``."""
    code = bytes([I32_CONST]) + binary.sleb(builtin_id - (1 << 32)) + bytes([I32_CONST, 0])
    for index in range(arity):
        code += bytes([LOCAL_GET]) + binary.uleb(index)
    code += bytes([CALL]) + binary.uleb(builtin_import) + bytes([END])
    return Body(binary.uleb(0), code)


def routed_module(wasm: bytes) -> bytes:
    """``wasm`` with every routed library function that it holds forwarding to
    the host; the same bytes when it holds none."""
    if not any(route.function.encode() in wasm for route in ROUTES):
        return wasm
    module = binary.sections(wasm)
    imports = binary.imported_functions(module)
    by_name = {name: index for index, name in binary.function_names(module).items()}
    position = next((i for i, s in enumerate(module) if s.id == binary.CODE), None)
    if position is None:
        raise WasmFormatError("the module has no code section")
    bodies = binary.code_bodies(module[position])
    changed = False
    for route in ROUTES:
        index = by_name.get(route.function)
        if index is None or index < len(imports):
            continue
        try:
            builtin_import = imports.index(("env", f"opa_builtin{route.arity}"))
        except ValueError:
            raise WasmFormatError(
                f"the module does not import env.opa_builtin{route.arity}"
            ) from None
        bodies[index - len(imports)] = _forwarding_body(
            _ID_OF[route.builtin], route.arity, builtin_import
        )
        changed = True
    if not changed:
        return wasm
    module[position] = binary.code_section(bodies)
    return binary.encode(module)
