"""ARM template functions of evaluated arguments (``concat``, ``format``, ``uri``...),
and the values they work on: placeholders for what the deployment environment
decides, null for what cannot be known. A wrong number or kind of arguments gives
null; arithmetic is on 64-bit integers, as in ARM (outside that range, null).

Functions whose result can outgrow their arguments (``concat``, ``format``,
``join``, ``padLeft``, ``replace``, ``string``) charge the evaluation budget for
the text before they build it.
"""

from __future__ import annotations

import base64
import json
import math
import re
import urllib.parse
from collections.abc import Callable
from typing import Any

from engine.inputs.loaders.evaluation_budget import spend, spend_for_json, text_units


class Placeholder(str):
    """A string standing for a value only a deployment knows, e.g.
    ``resourceGroup().location``, or text built from one."""


def entry_folded(mapping: dict[str, Any], name: str) -> tuple[str, Any] | None:
    """``mapping``'s entry for ``name``, compared case-insensitively as ARM does."""
    if name in mapping:
        return name, mapping[name]
    folded = name.casefold()
    for key, value in mapping.items():
        if isinstance(key, str) and key.casefold() == folded:
            return key, value
    return None


def is_indeterminate(value: Any) -> bool:
    if value is None or isinstance(value, Placeholder):
        return True
    if isinstance(value, dict):
        return any(is_indeterminate(v) for v in value.values())
    if isinstance(value, list):
        return any(is_indeterminate(v) for v in value)
    return False


def as_text(value: Any) -> str | None:
    """A scalar as ARM writes it into a string."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    return None


def string_result(text: str, *inputs: Any) -> str:
    return Placeholder(text) if any(isinstance(i, Placeholder) for i in inputs) else text


def plain(value: Any) -> Any:
    """``value`` as JSON: placeholders made ordinary strings, keys strings,
    what JSON cannot hold null."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, bool | int | float):
        return value
    return None


def is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _concat(args: list[Any]) -> Any:
    if args and all(isinstance(a, list) for a in args):
        return [item for a in args for item in a]
    texts = [as_text(a) for a in args]
    if any(t is None for t in texts):
        return None
    spend(text_units(sum(len(t) for t in texts if t is not None)))
    return string_result("".join(t for t in texts if t is not None), *args)


_FORMAT_ITEM = re.compile(r"\{\{|\}\}|\{([0-9]+)(?:,[^:}]*)?(?::[^}]*)?\}")


def _format(args: list[Any]) -> Any:
    template, values = args[0], args[1:]
    if not isinstance(template, str):
        return None
    texts = [as_text(v) for v in values]
    failed = False

    def item(found: re.Match[str]) -> str:
        nonlocal failed
        if found.group(0) in ("{{", "}}"):
            return found.group(0)[0]
        index = int(found.group(1))
        text = texts[index] if index < len(texts) else None
        if text is None:
            failed = True
            return ""
        spend(text_units(len(text)))  # before the pieces are joined
        return text

    result = _FORMAT_ITEM.sub(item, template)
    return None if failed else string_result(result, template, *values)


def _equals(args: list[Any]) -> Any:
    left, right = args
    if is_indeterminate(left) or is_indeterminate(right):
        return None
    return type(left) is type(right) and left == right


def _logical(combine: Callable[[list[bool]], bool]) -> Callable[[list[Any]], Any]:
    def logical(args: list[Any]) -> Any:
        if len(args) < 2 or not all(isinstance(a, bool) for a in args):
            return None
        return combine(args)

    return logical


def _not(args: list[Any]) -> Any:
    (value,) = args
    return not value if isinstance(value, bool) else None


def _compare(test: Callable[[Any, Any], bool]) -> Callable[[list[Any]], Any]:
    def compare(args: list[Any]) -> Any:
        left, right = args
        if is_indeterminate(left) or is_indeterminate(right):
            return None
        if is_integer(left) and is_integer(right):
            return test(left, right)
        if isinstance(left, str) and isinstance(right, str):
            return test(left, right)
        return None

    return compare


def _length(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, Placeholder) or not isinstance(value, str | list | dict):
        return None
    return len(value)


def _string(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, dict | list):
        if is_indeterminate(value):
            return None
        spend_for_json(value)
        return json.dumps(value, separators=(",", ":"))
    return as_text(value)


def _int(args: list[Any]) -> Any:
    (value,) = args
    if is_integer(value):
        return value
    if isinstance(value, str) and not isinstance(value, Placeholder):
        return int(value.strip())
    return None


def _bool(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, bool):
        return value
    if is_integer(value):
        return value != 0
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _json(args: list[Any]) -> Any:
    (value,) = args
    if not isinstance(value, str) or isinstance(value, Placeholder):
        return None
    return json.loads(value)


def _union(args: list[Any]) -> Any:
    if args and all(isinstance(a, dict) for a in args):
        merged: dict[str, Any] = {}
        for a in args:
            merged.update(a)
        return merged
    if args and all(isinstance(a, list) for a in args):
        items: list[Any] = []
        for a in args:
            for i in a:
                spend(len(items))  # one unit a comparison: duplicates are found pairwise
                if i not in items:
                    items.append(i)
        return items
    return None


def _intersection(args: list[Any]) -> Any:
    if args and all(isinstance(a, dict) for a in args):
        return {k: v for k, v in args[0].items() if all(b.get(k) == v for b in args[1:])}
    if args and all(isinstance(a, list) for a in args):
        spend(len(args[0]) * sum(len(b) for b in args[1:]))  # the comparisons
        return [i for i in args[0] if all(i in b for b in args[1:])]
    return None


def _create_object(args: list[Any]) -> Any:
    if len(args) % 2 or not all(isinstance(k, str) for k in args[::2]):
        return None
    return dict(zip(args[::2], args[1::2], strict=True))


def _contains(args: list[Any]) -> Any:
    container, item = args
    if is_indeterminate(item) or isinstance(container, Placeholder) or container is None:
        return None
    if isinstance(container, str):
        return isinstance(item, str) and item.lower() in container.lower()
    if isinstance(container, dict):
        return isinstance(item, str) and entry_folded(container, item) is not None
    if isinstance(container, list):
        return item in container
    return None


def _empty(args: list[Any]) -> Any:
    (value,) = args
    if isinstance(value, Placeholder):
        return None
    return value is None or (isinstance(value, str | list | dict) and len(value) == 0)


def _end(at: int) -> Callable[[list[Any]], Any]:
    def end(args: list[Any]) -> Any:
        (value,) = args
        if isinstance(value, Placeholder) or not isinstance(value, str | list) or not value:
            return None
        return value[at]

    return end


def _substring(args: list[Any]) -> Any:
    text, start, *rest = args
    if not isinstance(text, str) or not is_integer(start) or start < 0:
        return None
    length = rest[0] if rest else len(text) - start
    if not is_integer(length) or length < 0 or start + length > len(text):
        return None
    return string_result(text[start : start + length], text)


def _string_function(apply: Callable[..., str]) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        if not all(isinstance(a, str) for a in args):
            return None
        return string_result(apply(*args), *args)

    return function


def _replace(args: list[Any]) -> Any:
    if len(args) != 3 or not all(isinstance(a, str) for a in args):
        return None
    text, old, new = args
    spend(text_units(len(text) + text.count(old) * (len(new) - len(old))))
    return string_result(text.replace(old, new), *args)


def _split(args: list[Any]) -> Any:
    text, delimiters = args
    if not isinstance(text, str) or isinstance(text, Placeholder):
        return None
    if isinstance(delimiters, str):
        delimiters = [delimiters]
    if not isinstance(delimiters, list) or not all(isinstance(d, str) and d for d in delimiters):
        return None
    return re.split("|".join(re.escape(d) for d in delimiters), text)


def _join(args: list[Any]) -> Any:
    items, delimiter = args
    if not isinstance(items, list) or not isinstance(delimiter, str):
        return None
    texts = [as_text(i) for i in items]
    if any(t is None for t in texts):
        return None
    size = sum(len(t) for t in texts if t is not None) + len(delimiter) * max(len(texts) - 1, 0)
    spend(text_units(size))
    return string_result(delimiter.join(t for t in texts if t is not None), *items)


_INT64 = range(-(2**63), 2**63)


def _arithmetic(apply: Callable[[int, int], int]) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        left, right = args
        if not (is_integer(left) and is_integer(right)):
            return None
        if left not in _INT64 or right not in _INT64:
            return None
        result = apply(left, right)
        return result if result in _INT64 else None

    return function


def _divide(left: int, right: int) -> int:
    quotient = abs(left) // abs(right)  # .NET truncates towards zero
    return quotient if (left >= 0) == (right >= 0) else -quotient


def _remainder(left: int, right: int) -> int:
    return left - right * _divide(left, right)


def _extreme(pick: Callable[..., Any]) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        values = args[0] if len(args) == 1 and isinstance(args[0], list) else args
        if not values or not all(is_integer(v) for v in values):
            return None
        return pick(values)

    return function


def _take(args: list[Any], keep_start: bool) -> Any:
    value, count = args
    if not isinstance(value, str | list) or not is_integer(count):
        return None
    count = max(0, count)
    return value[:count] if keep_start else value[count:]


def _range(args: list[Any]) -> Any:
    start, count = args
    if not (is_integer(start) and is_integer(count)) or not 0 <= count <= 10000:
        return None
    return list(range(start, start + count))


def _coalesce(args: list[Any]) -> Any:
    return next((a for a in args if a is not None), None)


def _pad_left(args: list[Any]) -> Any:
    value, width, *rest = args
    fill = rest[0] if rest else " "
    text = as_text(value)
    if text is None or not is_integer(width) or not isinstance(fill, str) or len(fill) != 1:
        return None
    spend(text_units(width))
    return string_result(text.rjust(width, fill), value)


def _base64(args: list[Any]) -> Any:
    (value,) = args
    if not isinstance(value, str):
        return None
    return string_result(base64.b64encode(value.encode()).decode(), value)


def _base64_to_string(args: list[Any]) -> Any:
    (value,) = args
    if not isinstance(value, str) or isinstance(value, Placeholder):
        return None
    return base64.b64decode(value, validate=True).decode()


def _index_of(last: bool) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        text, item = args
        if not isinstance(text, str) or not isinstance(item, str):
            return None
        if isinstance(text, Placeholder):
            return None
        folded, wanted = text.lower(), item.lower()
        return folded.rfind(wanted) if last else folded.find(wanted)

    return function


def _affix(test: str) -> Callable[[list[Any]], Any]:
    def function(args: list[Any]) -> Any:
        text, affix = args
        if isinstance(text, Placeholder) or not isinstance(text, str):
            return None
        if not isinstance(affix, str):
            return None
        return getattr(text.lower(), test)(affix.lower())

    return function


def _uri(args: list[Any]) -> Any:
    """``uri(baseUri, relativeUri)`` as Azure documents it: after a base ending in ``/``
    the relative URI is appended (one ``/`` where both have one); otherwise the base
    loses everything after its last ``/`` (none but the scheme's ``//``: nothing)."""
    if len(args) != 2 or not all(isinstance(a, str) for a in args):
        return None
    base, relative = args
    if not base.endswith("/"):
        _, scheme_slashes, rest = base.partition("//")
        if "/" in (rest if scheme_slashes else base):
            base = base[: base.rfind("/") + 1]
    if base.endswith("/") and relative.startswith("/"):
        relative = relative[1:]
    return string_result(base + relative, *args)


def _uri_component(args: list[Any]) -> Any:
    """``uriComponent(text)``: percent-encoded as JavaScript's ``encodeURIComponent``."""
    if len(args) != 1 or not isinstance(args[0], str):
        return None
    return string_result(urllib.parse.quote(args[0], safe="!'()*-._~"), args[0])


def _uri_component_to_string(args: list[Any]) -> Any:
    """``uriComponentToString(text)``: percent-decoded."""
    if len(args) != 1 or not isinstance(args[0], str):
        return None
    return string_result(urllib.parse.unquote(args[0]), args[0])


FUNCTIONS: dict[str, Callable[[list[Any]], Any]] = {
    "concat": _concat,
    "uri": _uri,
    "uricomponent": _uri_component,
    "uricomponenttostring": _uri_component_to_string,
    "format": _format,
    "tolower": _string_function(str.lower),
    "toupper": _string_function(str.upper),
    "trim": _string_function(str.strip),
    "replace": _replace,
    "substring": _substring,
    "split": _split,
    "join": _join,
    "padleft": _pad_left,
    "startswith": _affix("startswith"),
    "endswith": _affix("endswith"),
    "indexof": _index_of(last=False),
    "lastindexof": _index_of(last=True),
    "base64": _base64,
    "base64tostring": _base64_to_string,
    "equals": _equals,
    "not": _not,
    "and": _logical(all),
    "or": _logical(any),
    "less": _compare(lambda a, b: a < b),
    "lessorequals": _compare(lambda a, b: a <= b),
    "greater": _compare(lambda a, b: a > b),
    "greaterorequals": _compare(lambda a, b: a >= b),
    "true": lambda args: True if not args else None,
    "false": lambda args: False if not args else None,
    "null": lambda args: None,
    "length": _length,
    "string": _string,
    "int": _int,
    "bool": _bool,
    "json": _json,
    "array": lambda args: args[0] if isinstance(args[0], list) else [args[0]],
    "union": _union,
    "intersection": _intersection,
    "createarray": list,
    "createobject": _create_object,
    "contains": _contains,
    "empty": _empty,
    "first": _end(0),
    "last": _end(-1),
    "take": lambda args: _take(args, keep_start=True),
    "skip": lambda args: _take(args, keep_start=False),
    "range": _range,
    "coalesce": _coalesce,
    "add": _arithmetic(lambda a, b: a + b),
    "sub": _arithmetic(lambda a, b: a - b),
    "mul": _arithmetic(lambda a, b: a * b),
    "div": _arithmetic(_divide),
    "mod": _arithmetic(_remainder),
    "min": _extreme(min),
    "max": _extreme(max),
}
"""Functions of evaluated arguments; a wrong number or kind of arguments gives null."""
