"""Terraform's built-in functions, over plain values (None, bool, int, float, str, list, dict).

Sets are lists (strings sorted, duplicates removed). A function that cannot
give a value raises; the evaluator turns that into null. Functions that read
files live in :mod:`engine.inputs.loaders.hcl_file_functions`.
``try`` and ``can`` need unevaluated arguments and live in the evaluator.

Regular expressions (``regex``, ``regexall``, ``replace`` with ``/.../``) are
RE2, as in Terraform: linear time, whatever the pattern. Functions whose result
can outgrow their arguments (``replace``, ``join``, ``format``, ``jsonencode``) charge the
evaluation budget for the text before they build it.
"""

from __future__ import annotations

import base64
import functools
import ipaddress
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.inputs.loaders.evaluation_budget import spend, spend_for_json, text_units


class FunctionError(ValueError):
    """A function was called with arguments it cannot handle."""


def is_number(value: Any) -> bool:
    """Whether ``value`` is a number (bools are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def normalize_number(value: float | int) -> int | float:
    """Integral floats as ints (Terraform has a single number type)."""
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise FunctionError("number is not finite")
        if value.is_integer():
            return int(value)
    return value


def to_number(value: Any) -> int | float:
    """A number, converting numeric strings as Terraform does."""
    if is_number(value):
        return normalize_number(value)
    if isinstance(value, str):
        try:
            return normalize_number(int(value) if re.fullmatch(r"-?\d+", value) else float(value))
        except ValueError:
            pass
    raise FunctionError(f"cannot convert {value!r} to a number")


def to_bool(value: Any) -> bool:
    """A bool, converting "true"/"false" as Terraform does."""
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise FunctionError(f"cannot convert {value!r} to a bool")


def to_string(value: Any) -> str:
    """A string, converting numbers and bools as Terraform does."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        number = normalize_number(value)
        return str(number) if isinstance(number, int) else repr(number)
    raise FunctionError(f"cannot convert {type(value).__name__} to a string")


def values_equal(left: Any, right: Any) -> bool:
    """Terraform equality: types must agree (1 == 1.0, but true != 1 and "1" != 1)."""
    if is_number(left) and is_number(right):
        return bool(left == right)
    if type(left) is not type(right):
        return False
    if isinstance(left, list):
        return len(left) == len(right) and all(map(values_equal, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(values_equal(left[k], right[k]) for k in left)
    return bool(left == right)


def to_set(values: Any) -> list[Any]:
    """A set as a list: duplicates removed, strings sorted."""
    items = _list(values)
    unique: list[Any] = []
    for item in items:
        spend(len(unique))  # one unit a comparison: duplicates are found pairwise
        if not any(values_equal(item, seen) for seen in unique):
            unique.append(item)
    if all(isinstance(item, str) for item in unique):
        unique.sort()
    return unique


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise FunctionError(f"expected a list, found {type(value).__name__}")
    return value


def _map(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FunctionError(f"expected a map, found {type(value).__name__}")
    return value


def _string(value: Any) -> str:
    if value is None:
        raise FunctionError("expected a string, found null")
    return to_string(value)


def _int(value: Any) -> int:
    number = to_number(value)
    if not isinstance(number, int):
        raise FunctionError(f"expected a whole number, found {number}")
    return number


def _length(value: Any) -> int:
    if isinstance(value, str | list | dict):
        return len(value)
    raise FunctionError(f"length of {type(value).__name__}")


def _concat(*lists: Any) -> list[Any]:
    return [item for one in lists for item in _list(one)]


def _merge(*maps: Any) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for one in maps:
        if one is not None:
            merged.update(_map(one))
    return merged


def _lookup(mapping: Any, key: Any, *default: Any) -> Any:
    found = _map(mapping)
    name = _string(key)
    if name in found:
        return found[name]
    if default:
        return default[0]
    raise FunctionError(f"no key {name!r}")


def _element(values: Any, index: Any) -> Any:
    items = _list(values)
    if not items:
        raise FunctionError("element of an empty list")
    return items[_int(index) % len(items)]


def _keys(mapping: Any) -> list[str]:
    return sorted(_map(mapping))


def _values(mapping: Any) -> list[Any]:
    found = _map(mapping)
    return [found[k] for k in sorted(found)]


def _join(separator: Any, *lists: Any) -> str:
    sep = _string(separator)
    texts = [_string(v) for one in lists for v in _list(one)]
    spend(text_units(sum(map(len, texts)) + len(sep) * max(len(texts) - 1, 0)))
    return sep.join(texts)


def _split(separator: Any, text: Any) -> list[str]:
    sep, whole = _string(separator), _string(text)
    if not sep:
        return list(whole)
    return whole.split(sep)


_VERB = re.compile(r"%(?:%|(?:\[(\d+)\])?([-+# 0]*)(\d*)(?:\.(\d+))?([a-zA-Z]))")


def _format(spec: Any, *args: Any) -> str:
    pattern = _string(spec)
    position = 0

    def verb(match: re.Match[str]) -> str:
        nonlocal position
        if match.group(0) == "%%":
            return "%"
        explicit, flags, width, precision, kind = match.groups()
        if explicit:
            position = int(explicit) - 1
        if position >= len(args):
            raise FunctionError("too few arguments for format")
        value = args[position]
        position += 1
        text = _format_verb(value, kind, flags, width, precision)
        spend(text_units(len(text)))  # before the pieces are joined
        return text

    return _VERB.sub(verb, pattern)


def _format_verb(value: Any, kind: str, flags: str, width: str, precision: str | None) -> str:
    if value is None:
        raise FunctionError("format of null")
    if kind == "v":
        text = to_string(value) if not isinstance(value, list | dict) else json.dumps(value)
        if width and int(width) > 1_000_000:
            raise FunctionError("format width too large")
        spend(int(width or 0) // 16)
        return f"{text:{'<' if '-' in flags else '>'}{width}}" if width else text
    if kind == "s":
        text = _string(value)
        if precision is not None:
            text = text[: int(precision)]
    elif kind == "d":
        text = str(_int(value))
    elif kind in "fFeEgG":
        digits = f".{precision}" if precision is not None else (".6" if kind in "fFeE" else "")
        text = format(float(to_number(value)), f"{digits}{kind}")
    elif kind == "t":
        text = to_string(to_bool(value))
    elif kind in "xXob":
        text = format(_int(value), kind)
    elif kind == "q":
        text = json.dumps(_string(value))
    else:
        raise FunctionError(f"unsupported format verb %{kind}")
    if "+" in flags and kind in "dfFeEgG" and not text.startswith("-"):
        text = "+" + text
    if width:
        if int(width) > 1_000_000:  # as Go's fmt: %!(BADWIDTH)
            raise FunctionError("format width too large")
        spend(int(width) // 16)
        fill = "0" if "0" in flags and "-" not in flags else " "
        align = "<" if "-" in flags else ">"
        text = f"{text:{fill}{align}{width}}"
    return text


def _formatlist(spec: Any, *args: Any) -> list[str]:
    lengths = {len(a) for a in args if isinstance(a, list)}
    if len(lengths) > 1:
        raise FunctionError("formatlist lists differ in length")
    count = lengths.pop() if lengths else 1
    return [
        _format(spec, *(a[i] if isinstance(a, list) else a for a in args)) for i in range(count)
    ]


def _replace(text: Any, search: Any, replacement: Any) -> str:
    whole, find, new = _string(text), _string(search), _string(replacement)
    if len(find) > 1 and find.startswith("/") and find.endswith("/"):
        go_style = re.sub(r"\$\{?(\w+)\}?", r"\\g<\1>", new)
        return _regex_replace(_compile(find[1:-1]), go_style, whole)
    count = whole.count(find)
    spend(text_units(len(whole) + count * (len(new) - len(find))))
    return whole.replace(find, new)


def _regex_replace(compiled: Any, template: str, whole: str) -> str:
    """Every match replaced, the budget charged for each piece before it is kept."""
    pieces: list[str] = []
    built = charged = last = 0
    for match in compiled.finditer(whole):
        pieces += (whole[last : match.start()], match.expand(template))
        last = match.end()
        built += len(pieces[-2]) + len(pieces[-1])
        spend(text_units(built) - charged)
        charged = text_units(built)
    pieces.append(whole[last:])
    return "".join(pieces)


def _substr(text: Any, offset: Any, length: Any) -> str:
    whole, start, size = _string(text), _int(offset), _int(length)
    if start < 0:
        start += len(whole)
    start = max(start, 0)
    return whole[start:] if size < 0 else whole[start : start + size]


def _coalesce(*values: Any) -> Any:
    for value in values:
        if value is not None and value != "":
            return value
    raise FunctionError("no non-null, non-empty argument")


def _coalescelist(*lists: Any) -> list[Any]:
    for value in lists:
        if _list(value):
            return value
    raise FunctionError("no non-empty list")


def _compact(values: Any) -> list[str]:
    return [_string(v) for v in _list(values) if v is not None and v != ""]


def _distinct(values: Any) -> list[Any]:
    unique: list[Any] = []
    for item in _list(values):
        spend(len(unique))  # one unit a comparison: duplicates are found pairwise
        if not any(values_equal(item, seen) for seen in unique):
            unique.append(item)
    return unique


def _flatten(values: Any) -> list[Any]:
    flat: list[Any] = []
    for item in _list(values):
        flat.extend(_flatten(item) if isinstance(item, list) else [item])
    return flat


def _contains(values: Any, value: Any) -> bool:
    return any(values_equal(item, value) for item in _list(values))


def _tolist(values: Any) -> list[Any]:
    return list(_list(values))


def _tomap(mapping: Any) -> dict[str, Any]:
    return dict(_map(mapping))


def _tostring(value: Any) -> str | None:
    return None if value is None else to_string(value)


def _tonumber(value: Any) -> int | float | None:
    return None if value is None else to_number(value)


def _tobool(value: Any) -> bool | None:
    return None if value is None else to_bool(value)


def _jsonencode(value: Any) -> str:
    # Terraform writes object keys sorted (its objects are maps).
    spend_for_json(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def _jsondecode(text: Any) -> Any:
    try:
        return json.loads(_string(text))
    except json.JSONDecodeError as exc:
        raise FunctionError(f"invalid JSON: {exc.msg}") from None


def _numbers(values: tuple[Any, ...]) -> list[int | float]:
    if not values:
        raise FunctionError("no arguments")
    return [to_number(v) for v in values]


def _min(*values: Any) -> int | float:
    return min(_numbers(values))


def _max(*values: Any) -> int | float:
    return max(_numbers(values))


def _range(*bounds: Any) -> list[int | float]:
    numbers = [to_number(b) for b in bounds]
    start: int | float
    stop: int | float
    step: int | float
    if len(numbers) == 1:
        start, stop, step = 0, numbers[0], 1
    elif len(numbers) == 2:
        start, stop, step = numbers[0], numbers[1], (1 if numbers[1] >= numbers[0] else -1)
    elif len(numbers) == 3:
        start, stop, step = numbers
    else:
        raise FunctionError("range takes one to three arguments")
    if step == 0 or (stop - start) / step > 1024:
        raise FunctionError("range too large")
    result: list[int | float] = []
    current = start
    while (current < stop) if step > 0 else (current > stop):
        result.append(normalize_number(current))
        current += step
    return result


def _zipmap(keys: Any, values: Any) -> dict[str, Any]:
    names, items = _list(keys), _list(values)
    if len(names) != len(items):
        raise FunctionError("zipmap lists differ in length")
    return {_string(k): v for k, v in zip(names, items, strict=True)}


def _cidrsubnet(prefix: Any, newbits: Any, netnum: Any) -> str:
    network = ipaddress.ip_network(_string(prefix), strict=False)
    bits, number = _int(newbits), _int(netnum)
    new_prefix = network.prefixlen + bits
    if bits < 0 or new_prefix > network.max_prefixlen or not 0 <= number < 2**bits:
        raise FunctionError("cidrsubnet out of range")
    size = 2 ** (network.max_prefixlen - new_prefix)
    address = network.network_address + number * size
    return f"{address}/{new_prefix}"


def _cidrhost(prefix: Any, hostnum: Any) -> str:
    network = ipaddress.ip_network(_string(prefix), strict=False)
    number = _int(hostnum)
    if number < 0:
        number += network.num_addresses
    if not 0 <= number < network.num_addresses:
        raise FunctionError("cidrhost out of range")
    return str(network.network_address + number)


def _base64encode(text: Any) -> str:
    return base64.b64encode(_string(text).encode()).decode()


def _base64decode(text: Any) -> str:
    return base64.b64decode(_string(text), validate=True).decode()


@functools.cache
def re2_options() -> Any:
    """RE2's options for patterns in HCL: a bad pattern raises, nothing is
    logged (``re2`` is imported with the first pattern)."""
    import re2

    options = re2.Options()
    options.log_errors = False
    return options


def _compile(pattern: str) -> Any:
    """An RE2 program for ``pattern``; :class:`FunctionError` when it is invalid."""
    import re2

    try:
        return re2.compile(pattern, re2_options())
    except re2.error as exc:
        raise FunctionError(f"invalid regular expression: {exc}") from None


def _regex(pattern: Any, text: Any) -> Any:
    try:
        compiled = _compile(_string(pattern))
    except FunctionError:
        return None
    match = compiled.search(_string(text))
    if match is None:
        raise FunctionError("regex did not match")
    if compiled.groupindex:
        return match.groupdict()
    if compiled.groups:
        return list(match.groups())
    return match.group(0)


def _regexall(pattern: Any, text: Any) -> Any:
    try:
        compiled = _compile(_string(pattern))
    except FunctionError:
        return None
    matches = list(compiled.finditer(_string(text)))
    if compiled.groupindex:
        return [m.groupdict() for m in matches]
    if compiled.groups:
        return [list(m.groups()) for m in matches]
    return [m.group(0) for m in matches]


def _slice(values: Any, start: Any, end: Any) -> list[Any]:
    items, first, last = _list(values), _int(start), _int(end)
    if not 0 <= first <= last <= len(items):
        raise FunctionError("slice out of range")
    return items[first:last]


def _sort(values: Any) -> list[str]:
    return sorted(_string(v) for v in _list(values))


def _reverse(values: Any) -> list[Any]:
    return list(reversed(_list(values)))


def _setunion(*sets: Any) -> list[Any]:
    return to_set([item for one in sets for item in _list(one)])


def _setintersection(first: Any, *others: Any) -> list[Any]:
    spend(len(_list(first)) * sum(len(_list(other)) for other in others))  # the comparisons
    return to_set([v for v in _list(first) if all(_contains(other, v) for other in others)])


def _one(values: Any) -> Any:
    items = _list(values)
    if len(items) > 1:
        raise FunctionError("one() of more than one element")
    return items[0] if items else None


def _sum(values: Any) -> int | float:
    items = _list(values)
    if not items:
        raise FunctionError("sum of an empty list")
    return normalize_number(sum(to_number(v) for v in items))


def _trim(text: Any, cutset: Any) -> str:
    return _string(text).strip(_string(cutset))


def _title(text: Any) -> str:
    return re.sub(r"\b[a-z]", lambda m: m.group(0).upper(), _string(text))


def _chunklist(values: Any, size: Any) -> list[list[Any]]:
    items, step = _list(values), _int(size)
    if step <= 0:
        return [items]
    return [items[i : i + step] for i in range(0, len(items), step)]


def _index(values: Any, value: Any) -> int:
    for position, item in enumerate(_list(values)):
        if values_equal(item, value):
            return position
    raise FunctionError("value not in list")


def _transpose(mapping: Any) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for key, items in _map(mapping).items():
        for item in _list(items):
            result.setdefault(_string(item), []).append(key)
    return {k: sorted(v) for k, v in sorted(result.items())}


FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "abs": lambda n: normalize_number(abs(to_number(n))),
    "base64decode": _base64decode,
    "base64encode": _base64encode,
    "ceil": lambda n: math.ceil(to_number(n)),
    "chomp": lambda s: re.sub(r"(\r\n|\n|\r)+$", "", _string(s)),
    "chunklist": _chunklist,
    "cidrhost": _cidrhost,
    "cidrsubnet": _cidrsubnet,
    "coalesce": _coalesce,
    "coalescelist": _coalescelist,
    "compact": _compact,
    "concat": _concat,
    "contains": _contains,
    "distinct": _distinct,
    "element": _element,
    "endswith": lambda s, suffix: _string(s).endswith(_string(suffix)),
    "flatten": _flatten,
    "floor": lambda n: math.floor(to_number(n)),
    "format": _format,
    "formatlist": _formatlist,
    "index": _index,
    "join": _join,
    "jsondecode": _jsondecode,
    "jsonencode": _jsonencode,
    "keys": _keys,
    "length": _length,
    "lookup": _lookup,
    "lower": lambda s: _string(s).lower(),
    "max": _max,
    "merge": _merge,
    "min": _min,
    "nonsensitive": lambda value: value,
    "one": _one,
    "range": _range,
    "regex": _regex,
    "regexall": _regexall,
    "replace": _replace,
    "reverse": _reverse,
    "setintersection": _setintersection,
    "sensitive": lambda value: value,
    "setunion": _setunion,
    "slice": _slice,
    "sort": _sort,
    "split": _split,
    "startswith": lambda s, prefix: _string(s).startswith(_string(prefix)),
    "strrev": lambda s: _string(s)[::-1],
    "substr": _substr,
    "sum": _sum,
    "title": _title,
    "tobool": _tobool,
    "tolist": _tolist,
    "tomap": _tomap,
    "tonumber": _tonumber,
    "toset": to_set,
    "tostring": _tostring,
    "transpose": _transpose,
    "trim": _trim,
    "trimprefix": lambda s, p: _string(s).removeprefix(_string(p)),
    "trimspace": lambda s: _string(s).strip(),
    "trimsuffix": lambda s, p: _string(s).removesuffix(_string(p)),
    "upper": lambda s: _string(s).upper(),
    "values": _values,
    "zipmap": _zipmap,
}
"""Built-in functions by name."""
