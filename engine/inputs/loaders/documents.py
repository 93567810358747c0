"""Parsing JSON and YAML files into documents, exactly and with clear errors.

JSON numbers stay exact (integers of any size; infinities and NaN refused).
YAML files may hold many documents, and CloudFormation's short-form tags
(``!Ref x``, ``!GetAtt a.b``, ``!Sub ...``) become their long forms
(``{"Ref": "x"}``, ``{"Fn::GetAtt": ["a", "b"]}``, ``{"Fn::Sub": ...}``); any
other tag is an error naming its line. The YAML loader is in
:mod:`engine.inputs.loaders.yaml_documents`, imported with the first YAML file.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

from engine.core.address_space import no_room_message, room_for
from engine.core.yaml_limits import check_yaml_stream, too_deep_message
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


def parse_yaml(raw: bytes) -> list[Any]:
    """Every document of a YAML stream (empty documents dropped), within the
    nesting and alias limits of :mod:`engine.inputs.loaders.limits`."""
    import yaml

    from engine.inputs.loaders.yaml_documents import compose_documents

    try:
        check_yaml_stream(raw)
        return compose_documents(raw)
    except UnicodeDecodeError as exc:
        raise LoaderError(f"not valid UTF-8 ({exc.reason})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise LoaderError(
            f"invalid YAML: {problem}", mark.line + 1 if mark is not None else None
        ) from None
