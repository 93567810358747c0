"""Parsing JSON and YAML files into documents, exactly and with clear errors.

JSON numbers stay exact (integers of any size; infinities and NaN refused).
YAML files may hold many documents, and CloudFormation's short-form tags
(``!Ref x``, ``!GetAtt a.b``, ``!Sub ...``) become their long forms
(``{"Ref": "x"}``, ``{"Fn::GetAtt": ["a", "b"]}``, ``{"Fn::Sub": ...}``); any
other tag is an error naming its line.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson
import yaml

from engine.core.address_space import no_room_message, room_for
from engine.inputs.loaders.limits import (
    check_yaml_node,
    check_yaml_stream,
    has_anchor,
    too_deep_message,
)
from engine.inputs.loaders.loaded import LoaderError

# Digits to "0", every other byte to " ": a run of 19 zeros is then found by a
# plain substring search, far faster than a regular expression.
_DIGIT_MAP = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN = b"0" * 19


def _has_long_digit_run(raw: bytes) -> bool:
    """Whether ``raw`` holds 19 digits in a row: an integer orjson may round
    (it is exact for int64 and uint64 only)."""
    return _LONG_RUN in raw.translate(_DIGIT_MAP)

ORJSON_PARSE_ROOM = 24
"""Address space orjson may need per byte of JSON it parses (15 measured on
a 40 MB State: 600 MiB), with a margin."""

_FN_TAGS = (
    *("And", "Base64", "Cidr", "Equals", "FindInMap", "GetAZs", "If", "ImportValue"),
    *("Join", "Length", "Not", "Or", "Select", "Split", "Sub", "ToJsonString"),
    *("Transform", "ForEach"),
)
"""CloudFormation intrinsics whose short form ``!X`` is ``{"Fn::X": ...}``."""


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"number {text} is out of range")
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(raw: bytes) -> Any:
    """One JSON document; :class:`LoaderError` with the line when invalid."""
    if not _has_long_digit_run(raw) and room_for(ORJSON_PARSE_ROOM * len(raw)):
        # orjson is exact below 20 digits and refuses infinities and NaN;
        # anything it refuses is parsed again for the precise error. Short of
        # address space (RLIMIT_AS) it would crash the process: Python's
        # parser raises MemoryError instead.
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    try:
        doc = json.loads(raw, parse_float=_finite, parse_constant=_no_constant)
    except MemoryError:
        raise LoaderError(f"{no_room_message()} to parse {len(raw):,} bytes of JSON") from None
    except json.JSONDecodeError as exc:
        raise LoaderError(f"invalid JSON: {exc.msg}", exc.lineno) from None
    except UnicodeDecodeError as exc:
        raise LoaderError(f"not valid UTF-8 ({exc.reason})") from None
    except RecursionError:
        raise LoaderError(too_deep_message()) from None
    except ValueError as exc:
        raise LoaderError(f"invalid JSON: {exc}") from None
    return _without_lone_surrogates(doc) if _SURROGATE_ESCAPE.search(raw) else doc


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _without_lone_surrogates(value: Any) -> Any:
    """``value`` with every unpaired surrogate (``"\\ud800"`` alone) replaced by U+FFFD, as
    Go's JSON decoder reads it (OPA, Terraform): such a string cannot be encoded in UTF-8.
    Iterative: documents may nest deeper than Python recurses."""
    fix = _fixed_string
    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        parent, key = stack.pop()
        item = parent[key]
        if isinstance(item, str):
            parent[key] = fix(item)
        elif isinstance(item, list):
            stack.extend((item, i) for i in range(len(item)))
        elif isinstance(item, dict):
            fixed = {fix(k): v for k, v in item.items()}
            parent[key] = fixed
            stack.extend((fixed, k) for k in fixed)
    return root[0]


def _fixed_string(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


class _TemplateLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML plus CloudFormation's short-form intrinsic tags; a key twice
    in one mapping is an error, as in go-yaml v3 (YAML requires unique keys)."""

    def __init__(self, stream: bytes) -> None:
        super().__init__(stream)
        self._unique_checked: set[int] = set()

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        if id(node) not in self._unique_checked:  # before merges add their keys
            self._unique_checked.add(id(node))
            _check_unique_keys(node)
        super().flatten_mapping(node)


def _check_unique_keys(node: yaml.MappingNode) -> None:
    keys = [
        (key.tag, key.value)
        for key, _ in node.value
        if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE
    ]
    if len(set(keys)) == len(keys):
        return  # the common case, checked at C speed; else find the duplicate
    seen: dict[tuple[str, str], int] = {}
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag == _MERGE:
            continue
        identity = (key.tag, key.value)
        if identity in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"key {key.value!r} is defined twice (first at line {seen[identity]})",
                key.start_mark,
            )
        seen[identity] = key.start_mark.line + 1


_MERGE = "tag:yaml.org,2002:merge"


def _construct_plain(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


def _long_form(name: str) -> Any:
    def construct(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        value = _construct_plain(loader, node)
        if name == "Fn::GetAtt" and isinstance(value, str):
            resource, _, attribute = value.partition(".")
            value = [resource, attribute]
        return {name: value}

    return construct


for _tag in _FN_TAGS:
    _TemplateLoader.add_constructor(f"!{_tag}", _long_form(f"Fn::{_tag}"))
_TemplateLoader.add_constructor("!GetAtt", _long_form("Fn::GetAtt"))
_TemplateLoader.add_constructor("!Ref", _long_form("Ref"))
_TemplateLoader.add_constructor("!Condition", _long_form("Condition"))


def _unknown_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(
        None, None, f"unknown tag !{suffix}", node.start_mark
    )


_TemplateLoader.add_multi_constructor("!", _unknown_tag)


def _compose_documents(raw: bytes) -> list[Any]:
    documents: list[Any] = []
    anchors = has_anchor(raw)
    loader = _TemplateLoader(raw)
    try:
        while loader.check_node():
            node = loader.get_node()
            if anchors:  # without aliases, the loaded document's check bounds the depth
                check_yaml_node(node)
            document = loader.construct_document(node)
            if document is not None:
                documents.append(document)
    finally:
        loader.dispose()
    return documents


def parse_yaml(raw: bytes) -> list[Any]:
    """Every document of a YAML stream (empty documents dropped), within the
    nesting and alias limits of :mod:`engine.inputs.loaders.limits`."""
    try:
        check_yaml_stream(raw)
        return _compose_documents(raw)
    except UnicodeDecodeError as exc:
        raise LoaderError(f"not valid UTF-8 ({exc.reason})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise LoaderError(
            f"invalid YAML: {problem}", mark.line + 1 if mark is not None else None
        ) from None
