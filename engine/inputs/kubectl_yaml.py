"""YAML manifests as kubectl reads them: ``sigs.k8s.io/yaml``, which decodes with
go-yaml v2 (YAML 1.1) and converts the result to JSON.

- Plain scalars resolve by go-yaml v2's table: ``y``, ``Y``, ``yes``, ``on`` (any of
  their listed cases) are true, ``n``, ``no``, ``off`` false; ``~``, ``null`` and the
  empty scalar null; numbers as Go's ``strconv.ParseInt`` with base prefix (``0777``
  is 511, ``0x1F`` 31, ``0b101`` 5, underscores ignored), then as a float of YAML's
  float syntax (``08`` is 8, ``1e3`` 1000); anything else (timestamps included) is
  the text as written. Quoted scalars and ``!!str`` are text, ``!!binary`` its
  decoded bytes; other tags keep the value as text.
- Mapping keys are made JSON keys as ``sigs.k8s.io/yaml`` makes them (``true``,
  ``1``); a null key, or a document holding ``.inf`` or ``.nan``, is refused (JSON
  cannot hold them).
- Merge keys (``<<``) apply in document order, each key written or merged
  replacing an earlier one: an explicit ``privileged: false`` followed by a merge
  carrying ``privileged: true`` gives true, as in go-yaml v2; a merged sequence
  of mappings gives precedence to its first mapping. A key written twice keeps
  its last value.
- Numbers are JSON numbers: a whole float is an integer (kubectl decodes the JSON
  into int64 where it can).

Syntax is parsed by libyaml (PyYAML's C parser, from which go-yaml's parser was
ported); empty documents are dropped, as the input loader's
``compose_documents`` drops them, so that document indexes agree with the
source map's.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from typing import Any

import yaml

from engine.core.yaml_limits import check_yaml_node, has_anchor
from engine.inputs.loaders.loaded import LoaderError

_PLAIN = "?plain"
_LONG = "tag:yaml.org,2002:"


class KubectlYamlError(ValueError):
    """A document kubectl's YAML library refuses; ``line`` is 1-based."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _Resolver(yaml.resolver.BaseResolver):
    """Leaves plain scalars unresolved: go-yaml v2's rules are applied when decoding."""

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode:
            return _PLAIN if implicit[0] else _LONG + "str"
        return _LONG + ("seq" if kind is yaml.SequenceNode else "map")


_CParser: Any = getattr(getattr(yaml, "cyaml", None), "CParser", None)

if _CParser is not None:

    class _Loader(_CParser, _Resolver):
        def __init__(self, stream: bytes) -> None:
            _CParser.__init__(self, stream)
            _Resolver.__init__(self)

else:  # pragma: no cover - PyYAML without libyaml

    class _Loader(  # type: ignore[no-redef]  # the pure-Python twin of the class above
        yaml.reader.Reader,
        yaml.scanner.Scanner,
        yaml.parser.Parser,
        yaml.composer.Composer,
        _Resolver,
    ):
        def __init__(self, stream: bytes) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            _Resolver.__init__(self)


_WORDS: dict[str, Any] = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"), True),
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "off", "Off", "OFF"), False),
    **dict.fromkeys(("false", "False", "FALSE"), False),
    **dict.fromkeys(["", "~", "null", "Null", "NULL"], None),
    **dict.fromkeys([".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"], math.inf),
    **dict.fromkeys(["-.inf", "-.Inf", "-.INF"], -math.inf),
    **dict.fromkeys([".nan", ".NaN", ".NAN"], math.nan),
}
_YAML_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_GO_INT = re.compile(r"[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)\Z")
_RESOLVED_TAGS = frozenset({_PLAIN, *(_LONG + name for name in ("int", "float", "bool", "null"))})
_INT64 = 2**63
_UINT64 = 2**64


def _go_parse_int(text: str) -> int | None:
    """``strconv.ParseInt(text, 0, 64)``, else ``ParseUint``: None when neither accepts it."""
    if not _GO_INT.match(text):
        return None
    sign = -1 if text[0] == "-" else 1
    digits = text.lstrip("+-")
    if digits[:2] in ("0x", "0X"):
        value = int(digits[2:], 16)
    elif digits[:2] in ("0o", "0O"):
        value = int(digits[2:], 8)
    elif digits[:2] in ("0b", "0B"):
        value = int(digits[2:], 2)
    elif digits.startswith("0") and len(digits) > 1:
        value = int(digits[1:], 8)
    else:
        value = int(digits)
    value *= sign
    if -_INT64 <= value < _INT64 or (sign > 0 and text[0] != "+" and value < _UINT64):
        return value
    return None


def resolve_plain(text: str) -> Any:
    """The value go-yaml v2 gives a plain scalar decoded into ``interface{}``."""
    if text in _WORDS:
        return _WORDS[text]
    first = text[:1]
    if first == ".":
        try:
            return float(text) if _YAML_FLOAT.match(text) else text
        except ValueError:
            return text
    if first.isdigit() or first in "+-":
        plain = text.replace("_", "")
        number = _go_parse_int(plain)
        if number is not None:
            return number
        if _YAML_FLOAT.match(plain):
            return float(plain)
        if plain.startswith("0b") and re.fullmatch(r"0b[01]+", plain):
            return int(plain[2:], 2)
        if plain.startswith("-0b") and re.fullmatch(r"-0b[01]+", plain):
            return -int(plain[3:], 2)
    return text


def _json_number(value: int | float) -> int | float:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    return value


def _key_text(key: Any, node: yaml.Node) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, str):
        return key
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        if math.isinf(key):
            return ".inf" if key > 0 else "-.inf"
        if math.isnan(key):
            return ".nan"
        return _float32_text(key)
    raise KubectlYamlError("unsupported map key (null, a list or a map)", node.start_mark.line + 1)


def _float32_text(value: float) -> str:
    """Go's ``strconv.FormatFloat(value, 'g', -1, 32)``."""
    import struct

    single = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 10):
        text = f"{single:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == single:
            break
    mantissa, _, exponent = text.partition("e")
    if exponent:
        sign, number = exponent[0], exponent[1:].lstrip("0")
        return f"{mantissa}e{sign}{number.zfill(2)}"
    return mantissa


def _binary_text(node: yaml.ScalarNode) -> str:
    """A ``!!binary`` scalar: its bytes decoded from base64, as text (go-yaml v2)."""
    try:
        data = base64.b64decode("".join(node.value.split()), validate=True)
    except binascii.Error:
        raise KubectlYamlError(
            "!!binary value contains invalid base64 data", node.start_mark.line + 1
        ) from None
    return data.decode("utf-8", "replace")


class _Decoder:
    """go-yaml v2's decode into ``interface{}``, then ``sigs.k8s.io/yaml``'s JSON."""

    def __init__(self) -> None:
        self.active: set[int] = set()

    def value(self, node: yaml.Node) -> Any:
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if id(node) in self.active:
            raise KubectlYamlError("an anchor contains itself", node.start_mark.line + 1)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.value(child) for child in node.value]
            out: dict[str, Any] = {}
            self.mapping(node, out)
            return out
        finally:
            self.active.discard(id(node))

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _LONG + "binary":
            return _binary_text(node)
        if node.tag not in _RESOLVED_TAGS:
            return node.value  # quoted, !!str, or a tag go-yaml keeps as text
        value = resolve_plain(node.value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise KubectlYamlError(
                    f"json: unsupported value: {node.value}", node.start_mark.line + 1
                )
            return _json_number(value)
        return value

    def mapping(self, node: yaml.Node, out: dict[str, Any]) -> None:
        if not isinstance(node, yaml.MappingNode):
            raise KubectlYamlError(
                "map merge requires map or sequence of maps as the value",
                node.start_mark.line + 1,
            )
        for key_node, value_node in node.value:
            if (
                isinstance(key_node, yaml.ScalarNode)
                and key_node.tag == _PLAIN
                and key_node.value == "<<"
            ):
                self.merge(value_node, out)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise KubectlYamlError(
                    "unsupported map key (a list or a map)", key_node.start_mark.line + 1
                )
            key = self.scalar_key(key_node)
            out[key] = self.value(value_node)

    def scalar_key(self, node: yaml.ScalarNode) -> str:
        key = resolve_plain(node.value) if node.tag == _PLAIN else node.value
        return _key_text(key, node)

    def merge(self, node: yaml.Node, out: dict[str, Any]) -> None:
        if isinstance(node, yaml.SequenceNode):
            for child in reversed(node.value):  # the first mapping wins
                self._merge_one(child, out)
        else:
            self._merge_one(node, out)

    def _merge_one(self, node: yaml.Node, out: dict[str, Any]) -> None:
        if id(node) in self.active:
            raise KubectlYamlError("an anchor contains itself", node.start_mark.line + 1)
        self.active.add(id(node))
        try:
            self.mapping(node, out)
        finally:
            self.active.discard(id(node))


def _check_aliases(node: yaml.Node) -> None:
    """The limits on aliases (:func:`check_yaml_node`), as this document's error."""
    try:
        check_yaml_node(node)
    except LoaderError as exc:
        raise KubectlYamlError(exc.message, exc.line or node.start_mark.line + 1) from None


def kubectl_documents(raw: bytes) -> list[Any | KubectlYamlError]:
    """Every non-empty document of a YAML stream as kubectl reads it; a document it
    refuses is a :class:`KubectlYamlError` in its place. PyYAML's syntax errors
    propagate (the stream cannot be split)."""
    documents: list[Any] = []
    anchors = has_anchor(raw)
    loader = _Loader(raw)
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                continue
            try:
                if anchors:
                    _check_aliases(node)
                value = _Decoder().value(node)
            except KubectlYamlError as exc:
                documents.append(exc)
                continue
            except RecursionError:
                documents.append(
                    KubectlYamlError("the document is nested too deeply", node.start_mark.line + 1)
                )
                continue
            if value is not None:
                documents.append(value)
    finally:
        loader.dispose()
    return documents
