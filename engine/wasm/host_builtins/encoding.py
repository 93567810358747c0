"""Encoding builtins: ``hex.*``, ``base64url.encode_no_pad``, ``json.marshal_with_options``
and ``json.patch``, with OPA's (Go's) exact output; and ``base64.decode``,
``base64.is_valid`` and ``json.is_valid``, routed here from OPA's
Wasm library (:mod:`engine.wasm.builtin_routing`)."""

from __future__ import annotations

import base64
import binascii
import json
import math
from decimal import Decimal
from typing import Any

from engine.core.go_text import go_string
from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set, Value, freeze, sort_values, type_name


def _string_arg(name: str, pos: int, value: Value) -> str:
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand {pos} must be string but got {type_name(value)}")
    return value


@register("hex.encode")
def hex_encode(x: Value) -> str:
    """Lower-case hex of the string's UTF-8 bytes."""
    return _string_arg("hex.encode", 1, x).encode("utf-8").hex()


@register("hex.decode")
def hex_decode(x: Value) -> str:
    """Decode hex digits (either case) into a string; undefined on bad input."""
    text = _string_arg("hex.decode", 1, x)
    if not text.isascii():
        raise BuiltinError("hex.decode: encoding/hex: invalid byte")
    try:
        return go_string(binascii.unhexlify(text))
    except (binascii.Error, ValueError) as err:
        raise BuiltinError(f"hex.decode: {err}") from None


@register("base64url.encode_no_pad")
def base64url_encode_no_pad(x: Value) -> str:
    """URL-safe base64 of the string's UTF-8 bytes, without ``=`` padding."""
    data = _string_arg("base64url.encode_no_pad", 1, x).encode("utf-8")
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _go_base64(name: str, x: Value) -> bytes:
    """Go's ``base64.StdEncoding.DecodeString``: padding required, line breaks ignored."""
    text = _string_arg(name, 1, x).replace("\r", "").replace("\n", "")
    try:
        return base64.b64decode(text.encode("utf-8"), validate=True)
    except (binascii.Error, ValueError) as err:
        raise BuiltinError(f"{name}: illegal base64 data ({err})") from None


@register("base64.decode")
def base64_decode(x: Value) -> str:
    """Standard base64 decoded as topdown decodes it (unpadded input is an error,
    which OPA's Wasm library accepts)."""
    return go_string(_go_base64("base64.decode", x))


@register("base64.is_valid")
def base64_is_valid(x: Value) -> bool:
    """Whether topdown's ``base64.decode`` accepts ``x`` (false for a non-string)."""
    if not isinstance(x, str):
        return False
    try:
        _go_base64("base64.is_valid", x)
    except BuiltinError:
        return False
    return True


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


@register("json.is_valid")
def json_is_valid(x: Value) -> bool:
    """Go's ``json.Valid``: one RFC 8259 value, nothing after it (OPA's Wasm
    library accepts a trailing comma in an array); false for a non-string."""
    if not isinstance(x, str):
        return False
    text = x
    try:
        json.loads(text, parse_constant=_no_constant)
    except (ValueError, UnicodeError):
        return False
    return True


# ---------------------------------------------------------------- Go encoding/json


def go_number_text(value: int | float | Decimal) -> str:
    """JSON text of a number.

    OPA writes a number's source text; the value model keeps only the number,
    so a float is written in Python's shortest round-trip form (``repr``),
    which is also how the engine passes it to the Wasm module.
    """
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return str(value)
    if math.isnan(value) or math.isinf(value):
        raise BuiltinError("json: unsupported value")
    return repr(value)


_JSON_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def go_json_string(s: str) -> str:
    """A JSON string literal as Go's encoding/json writes it (HTML-escaped)."""
    out = ['"']
    for ch in s:
        esc = _JSON_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch < " ":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def json_key(key: Value) -> str:
    """An object key as a JSON object key (OPA writes non-string keys as JSON text)."""
    if isinstance(key, str):
        return key
    return go_json_compact(key)


def go_json_compact(value: Value) -> str:
    """Compact JSON text with sorted keys, as Go's ``json.Marshal`` writes Rego values."""
    out: list[str] = []
    _write_json(value, out, None, "", 0)
    return "".join(out)


def _write_json(value: Value, out: list[str], indent: str | None, prefix: str, depth: int) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, (int, float, Decimal)):
        out.append(go_number_text(value))
    elif isinstance(value, str):
        out.append(go_json_string(value))
    elif isinstance(value, (list, tuple, Set)):
        items = list(value)
        if not items:
            out.append("[]")
            return
        out.append("[")
        for i, item in enumerate(items):
            if i:
                out.append(",")
            if indent is not None:
                out.append("\n" + prefix + indent * (depth + 1))
            _write_json(item, out, indent, prefix, depth + 1)
        if indent is not None:
            out.append("\n" + prefix + indent * depth)
        out.append("]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        pairs = sorted(
            ((json_key(k), v) for k, v in value.items()), key=lambda kv: kv[0].encode("utf-8")
        )
        out.append("{")
        for i, (k, v) in enumerate(pairs):
            if i:
                out.append(",")
            if indent is not None:
                out.append("\n" + prefix + indent * (depth + 1))
            out.append(go_json_string(k))
            out.append(": " if indent is not None else ":")
            _write_json(v, out, indent, prefix, depth + 1)
        if indent is not None:
            out.append("\n" + prefix + indent * depth)
        out.append("}")
    else:
        raise BuiltinError(f"json: unsupported value {type(value).__name__}")


@register("json.marshal_with_options")
def json_marshal_with_options(x: Value, opts: Value) -> str:
    """Go ``json.Marshal``/``MarshalIndent`` of a value; options pretty, indent, prefix."""
    name = "json.marshal_with_options"
    if not isinstance(opts, dict):
        raise BuiltinError(f"{name}: operand 2 must be object but got {type_name(opts)}")
    indent, prefix = "\t", ""
    implicit_pretty = False
    explicit_pretty: bool | None = None
    for key in sort_values(opts):
        val = opts[key]
        if not isinstance(key, str):
            raise BuiltinError(f"{name}: operand 2 failed to stringify key")
        if key == "prefix":
            prefix = _string_arg(name, 2, val)
            implicit_pretty = True
        elif key == "indent":
            indent = _string_arg(name, 2, val)
            implicit_pretty = True
        elif key == "pretty":
            if not isinstance(val, bool):
                raise BuiltinError(f"{name}: operand 2 key pretty failed cast to bool")
            explicit_pretty = val
        else:
            raise BuiltinError(f"{name}: operand 2 object contained unknown key {key}")
    pretty = implicit_pretty if explicit_pretty is None else explicit_pretty
    out: list[str] = []
    if pretty:
        _write_json(x, out, indent, prefix, 0)
        return prefix + "".join(out)
    _write_json(x, out, None, "", 0)
    return "".join(out)


# ---------------------------------------------------------------- json.patch


class _PatchError(Exception):
    pass


_DELETED: Any = object()


def _is_composite(value: Value) -> bool:
    return isinstance(value, (list, dict, Set))


def _equal(a: Value, b: Value) -> bool:
    return freeze(a) == freeze(b)


def _to_index(length: int, key: Value) -> int:
    """OPA's edit-tree ``toIndex``: an int, ``"-"`` (end), or a decimal string."""
    if isinstance(key, bool):
        raise _PatchError("invalid type for indexing")
    if isinstance(key, int):
        if not -(2**63) <= key < 2**63:
            raise _PatchError("invalid number type for indexing")
        return key
    if isinstance(key, (float, Decimal)):
        raise _PatchError("invalid number type for indexing")
    if isinstance(key, str):
        if key == "-":
            return length
        body = key[1:] if key[:1] in "+-" else key
        if not body or not body.isascii() or not body.isdigit():
            raise _PatchError("invalid string for indexing")
        idx = int(key)
        if not -(2**63) <= idx < 2**63:
            raise _PatchError("invalid string for indexing")
        if key != "0" and key.startswith("0"):
            raise _PatchError("leading zeros are not allowed in JSON paths")
        return idx
    raise _PatchError("invalid type for indexing")


class _EditNode:
    """A node of OPA's edit tree (internal/edittree), reproducing its quirks.

    Objects and sets record per-key edits over the original value; arrays keep
    the current element list as references to original indices or new nodes.
    """

    __slots__ = ("children", "entries", "value")

    def __init__(self, value: Value) -> None:
        self.reset(value)

    def reset(self, value: Value) -> None:
        self.value = value
        self.children: dict[Any, tuple[Value, _EditNode | None]] = {}
        self.entries: list[tuple[bool, Any]] = (
            [(False, i) for i in range(len(value))] if isinstance(value, list) else []
        )

    def _collapse(self) -> None:
        self.reset(self.render())

    def render(self) -> Value:
        value = self.value
        if value is _DELETED:
            return _DELETED
        if isinstance(value, dict):
            if not self.children:
                return value
            out: dict[Any, Value] = {}
            for key, child in self.children.values():
                if child is not None:
                    out[key] = child.render()
            for key, val in value.items():
                if freeze(key) not in self.children:
                    out[key] = val
            return out
        if isinstance(value, Set):
            if not self.children:
                return value
            members = [child.render() for _, child in self.children.values() if child is not None]
            members.extend(m for m in value if freeze(m) not in self.children)
            return Set(members)
        if isinstance(value, list):
            return [value[ref] if not is_new else ref.render() for is_new, ref in self.entries]
        return value

    def insert(self, key: Value, value: Value) -> _EditNode:
        current = self.value
        if current is _DELETED:
            raise _PatchError("deleted node encountered during insert operation")
        if isinstance(current, dict):
            child = _EditNode(value)
            self.children[freeze(key)] = (key, child)
            return child
        if isinstance(current, Set):
            if not _equal(key, value):
                raise _PatchError("set key does not equal value to be inserted")
            if _is_composite(key):
                self._collapse()
            child = _EditNode(value)
            self.children[freeze(key)] = (key, child)
            return child
        if isinstance(current, list):
            idx = _to_index(len(self.entries), key)
            if idx < 0 or idx > len(self.entries):
                raise _PatchError("index for array insertion out of bounds")
            child = _EditNode(value)
            self.entries.insert(idx, (True, child))
            return child
        raise _PatchError("expected composite type")

    def delete(self, key: Value) -> None:
        current = self.value
        if current is _DELETED:
            raise _PatchError("deleted node encountered during delete operation")
        if isinstance(current, dict):
            fk = freeze(key)
            if fk in self.children:
                if self.children[fk][1] is None:
                    raise _PatchError("cannot delete the already deleted node")
                self.children[fk] = (key, None)
                return
            self._fallback_delete(key)
            return
        if isinstance(current, Set):
            if _is_composite(key):
                self._collapse()
            else:
                fk = freeze(key)
                if fk in self.children:
                    child = self.children[fk][1]
                    if child is None:
                        raise _PatchError("cannot delete the already deleted node")
                    if not _is_composite(child.value) and _equal(key, child.value):
                        self.children[fk] = (key, None)
                        return
            self._fallback_delete(key)
            return
        if isinstance(current, list):
            idx = _to_index(len(self.entries), key)
            if idx < 0 or idx > len(self.entries) - 1:
                raise _PatchError("index for array delete out of bounds")
            del self.entries[idx]
            return
        raise _PatchError("expected composite type")

    def _fallback_delete(self, key: Value) -> None:
        if not _contains(self.value, key):
            raise _PatchError("cannot delete child key that does not exist")
        self.children[freeze(key)] = (key, None)

    def unfold(self, path: list[Value]) -> _EditNode:
        node = self
        for key in path:
            current = node.value
            if current is _DELETED:
                raise _PatchError("nil value encountered where composite value was expected")
            if isinstance(current, dict):
                fk = freeze(key)
                if fk in node.children:
                    child = node.children[fk][1]
                    if child is None:
                        raise _PatchError("cannot unfold the already deleted node")
                    node = child
                    continue
                found, val = _lookup(current, key)
                if not found:
                    raise _PatchError("path does not exist in object term")
                node = node.insert(key, val)
            elif isinstance(current, Set):
                if _is_composite(key):
                    node._collapse()
                else:
                    fk = freeze(key)
                    if fk in node.children:
                        child = node.children[fk][1]
                        if child is None:
                            raise _PatchError("cannot unfold the already deleted node")
                        if not _is_composite(child.value):
                            node = _EditNode(child.value)
                            continue
                if not _contains(node.value, key):
                    raise _PatchError("path does not exist in set term")
                node = node.insert(key, key)
            elif isinstance(current, list):
                idx = _to_index(len(node.entries), key)
                if 0 <= idx < len(node.entries) and node.entries[idx][0]:
                    node = node.entries[idx][1]
                    continue
                # OPA looks the index up in the array as it was before this
                # patch's edits, then swaps that element in at the index.
                if not 0 <= idx < len(current):
                    raise _PatchError("path does not exist in array term")
                val = current[idx]
                node.delete(idx)
                node = node.insert(idx, val)
            else:
                raise _PatchError("expected composite type for path")
        return node

    def insert_at(self, path: list[Value], value: Value) -> None:
        if not path:
            self.reset(value)
            return
        self.unfold(path[:-1]).insert(path[-1], value)

    def delete_at(self, path: list[Value]) -> None:
        if not path:
            if self.value is _DELETED:
                raise _PatchError("deleted node encountered during delete operation")
            self.reset(_DELETED)
            return
        self.unfold(path[:-1]).delete(path[-1])

    def render_at(self, path: list[Value]) -> Value:
        return self.unfold(path).render()


def _lookup(obj: dict[Any, Value], key: Value) -> tuple[bool, Value]:
    fk = freeze(key)
    for k, v in obj.items():
        if freeze(k) == fk:
            return True, v
    return False, None


def _contains(container: Value, key: Value) -> bool:
    if isinstance(container, Set):
        return key in container
    if isinstance(container, dict):
        return _lookup(container, key)[0]
    return False


def _parse_path(path: Value) -> list[Value]:
    """A JSON pointer string or an array of segments as a list of segments."""
    if isinstance(path, str):
        if path == "":
            return []
        parts = path.lstrip("/").split("/")
        return [p.replace("~1", "/").replace("~0", "~") for p in parts]
    if isinstance(path, list):
        return list(path)
    raise _PatchError(
        "must be one of {set, array} containing string paths or array of path segments"
    )


def apply_patch(doc: Value, operations: list[Value]) -> Value:
    """Apply JSON-Patch operations the way OPA's ``json.patch`` does."""
    tree = _EditNode(doc)
    context = current_context()
    for op in operations:
        context.check_time()  # each operation may walk the document
        if not isinstance(op, dict):
            raise _PatchError("must be an array of JSON-Patch objects")
        if "path" not in op:
            raise _PatchError("missing required attribute 'path'")
        if "op" not in op:
            raise _PatchError("missing required attribute 'op'")
        kind = op["op"]
        if not isinstance(kind, str):
            raise _PatchError("attribute 'op' must be a string")
        path = _parse_path(op["path"])
        if kind == "add":
            if "value" not in op:
                raise _PatchError("missing required attribute 'value'")
            tree.insert_at(path, op["value"])
        elif kind == "remove":
            tree.delete_at(path)
        elif kind == "replace":
            tree.delete_at(path)
            if "value" not in op:
                raise _PatchError("missing required attribute 'value'")
            tree.insert_at(path, op["value"])
        elif kind in ("move", "copy"):
            if "from" not in op:
                raise _PatchError("missing required attribute 'from'")
            source = _parse_path(op["from"])
            chunk = tree.render_at(source)
            if kind == "move":
                tree.delete_at(source)
            tree.insert_at(path, chunk)
        elif kind == "test":
            chunk = tree.render_at(path)
            if "value" not in op:
                raise _PatchError("missing required attribute 'value'")
            if chunk is _DELETED or not _equal(chunk, op["value"]):
                raise _PatchError("value from EditTree != patch value")
        else:
            raise _PatchError(f"unrecognized op: '{kind}'")
    result = tree.render()
    if result is _DELETED:
        raise _PatchError("the document was removed")
    return result


@register("json.patch")
def json_patch(doc: Value, patches: Value) -> Value:
    """Apply an array of RFC 6902 operations to a value (sets and objects included)."""
    if not isinstance(patches, list):
        raise BuiltinError(f"json.patch: operand 2 must be array but got {type_name(patches)}")
    try:
        return apply_patch(doc, patches)
    except _PatchError as err:
        raise BuiltinError(f"json.patch: {err}") from None
