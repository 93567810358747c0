"""Terraform's built-in functions, over plain values (None, bool, int, float, str, list, dict).

Every function of Terraform 1.x's function table is here or in a family module
(:mod:`hcl_network_functions`, :mod:`hcl_path_functions`,
:mod:`hcl_crypto_functions`, :mod:`hcl_encoding_functions`,
:mod:`hcl_time_functions`); each is also reachable as ``core::name``, as in
Terraform. Functions that read files, and the template functions, live in
:mod:`engine.inputs.loaders.hcl_file_functions`. ``try`` and ``can`` need
unevaluated arguments and live in the evaluator. ``convert`` needs a type
constraint as its argument and lives with the variables' type constraints.

Sets are lists (strings sorted, duplicates removed). A function that cannot
give a value raises; the evaluator turns that into null. Functions whose value
Terraform knows only when it runs (``uuid``, ``bcrypt``, ``timestamp``,
``plantimestamp``, ``pathexpand`` of ``~``, ``issensitive``: sensitivity is not
tracked here) give :class:`~engine.inputs.loaders.hcl_unknown.Unknown` values,
what ``terraform plan`` shows as known after apply.

Regular expressions (``regex``, ``regexall``, ``replace`` with ``/.../``) are
RE2, as in Terraform: linear time, whatever the pattern. Functions whose result
can outgrow their arguments (``replace``, ``join``, ``format``, ``jsonencode``) charge the
evaluation budget for the text before they build it.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.inputs.loaders.evaluation_budget import spend, spend_for_json, text_units
from engine.inputs.loaders.hcl_conversions import (
    FunctionError,
    as_int,
    as_list,
    as_map,
    as_string,
    is_number,
    normalize_number,
    to_bool,
    to_number,
    to_set,
    to_string,
    values_equal,
)
from engine.inputs.loaders.hcl_crypto_functions import CRYPTO_FUNCTIONS
from engine.inputs.loaders.hcl_encoding_functions import ENCODING_FUNCTIONS
from engine.inputs.loaders.hcl_network_functions import NETWORK_FUNCTIONS
from engine.inputs.loaders.hcl_path_functions import PATH_FUNCTIONS
from engine.inputs.loaders.hcl_time_functions import TIME_FUNCTIONS
from engine.inputs.loaders.hcl_unknown import Unknown

__all__ = [
    "FUNCTIONS",
    "FunctionError",
    "is_number",
    "normalize_number",
    "re2_options",
    "to_bool",
    "to_number",
    "to_set",
    "to_string",
    "values_equal",
    "with_core_names",
]


def _length(value: Any) -> int:
    if isinstance(value, str | list | dict):
        return len(value)
    raise FunctionError(f"length of {type(value).__name__}")


def _concat(*lists: Any) -> list[Any]:
    return [item for one in lists for item in as_list(one)]


def _merge(*maps: Any) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for one in maps:
        if one is not None:
            merged.update(as_map(one))
    return merged


def _lookup(mapping: Any, key: Any, *default: Any) -> Any:
    found = as_map(mapping)
    name = as_string(key)
    if name in found:
        return found[name]
    if default:
        return default[0]
    raise FunctionError(f"no key {name!r}")


def _element(values: Any, index: Any) -> Any:
    items = as_list(values)
    if not items:
        raise FunctionError("element of an empty list")
    return items[as_int(index) % len(items)]


def _keys(mapping: Any) -> list[str]:
    return sorted(as_map(mapping))


def _values(mapping: Any) -> list[Any]:
    found = as_map(mapping)
    return [found[k] for k in sorted(found)]


def _join(separator: Any, *lists: Any) -> str:
    sep = as_string(separator)
    texts = [as_string(v) for one in lists for v in as_list(one)]
    spend(text_units(sum(map(len, texts)) + len(sep) * max(len(texts) - 1, 0)))
    return sep.join(texts)


def _split(separator: Any, text: Any) -> list[str]:
    sep, whole = as_string(separator), as_string(text)
    if not sep:
        return list(whole)
    return whole.split(sep)


_VERB = re.compile(r"%(?:%|(?:\[(\d+)\])?([-+# 0]*)(\d*)(?:\.(\d+))?([a-zA-Z]))")


def _format(spec: Any, *args: Any) -> str:
    pattern = as_string(spec)
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
        text = as_string(value)
        if precision is not None:
            text = text[: int(precision)]
    elif kind == "d":
        text = str(as_int(value))
    elif kind in "fFeEgG":
        digits = f".{precision}" if precision is not None else (".6" if kind in "fFeE" else "")
        text = format(float(to_number(value)), f"{digits}{kind}")
    elif kind == "t":
        text = to_string(to_bool(value))
    elif kind in "xXob":
        text = format(as_int(value), kind)
    elif kind == "q":
        text = json.dumps(as_string(value))
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
    whole, find, new = as_string(text), as_string(search), as_string(replacement)
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
    whole, start, size = as_string(text), as_int(offset), as_int(length)
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
        if as_list(value):
            return value
    raise FunctionError("no non-empty list")


def _compact(values: Any) -> list[str]:
    return [as_string(v) for v in as_list(values) if v is not None and v != ""]


def _distinct(values: Any) -> list[Any]:
    unique: list[Any] = []
    for item in as_list(values):
        spend(len(unique))  # one unit a comparison: duplicates are found pairwise
        if not any(values_equal(item, seen) for seen in unique):
            unique.append(item)
    return unique


def _flatten(values: Any) -> list[Any]:
    flat: list[Any] = []
    for item in as_list(values):
        flat.extend(_flatten(item) if isinstance(item, list) else [item])
    return flat


def _contains(values: Any, value: Any) -> bool:
    return any(values_equal(item, value) for item in as_list(values))


def _tolist(values: Any) -> list[Any]:
    return list(as_list(values))


def _tomap(mapping: Any) -> dict[str, Any]:
    return dict(as_map(mapping))


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
        return json.loads(as_string(text))
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
    names, items = as_list(keys), as_list(values)
    if len(names) != len(items):
        raise FunctionError("zipmap lists differ in length")
    return {as_string(k): v for k, v in zip(names, items, strict=True)}


def _base64encode(text: Any) -> str:
    return base64.b64encode(as_string(text).encode()).decode()


def _base64decode(text: Any) -> str:
    return base64.b64decode(as_string(text), validate=True).decode()


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
        compiled = _compile(as_string(pattern))
    except FunctionError:
        return None
    match = compiled.search(as_string(text))
    if match is None:
        raise FunctionError("regex did not match")
    if compiled.groupindex:
        return match.groupdict()
    if compiled.groups:
        return list(match.groups())
    return match.group(0)


def _regexall(pattern: Any, text: Any) -> Any:
    try:
        compiled = _compile(as_string(pattern))
    except FunctionError:
        return None
    matches = list(compiled.finditer(as_string(text)))
    if compiled.groupindex:
        return [m.groupdict() for m in matches]
    if compiled.groups:
        return [list(m.groups()) for m in matches]
    return [m.group(0) for m in matches]


def _slice(values: Any, start: Any, end: Any) -> list[Any]:
    items, first, last = as_list(values), as_int(start), as_int(end)
    if not 0 <= first <= last <= len(items):
        raise FunctionError("slice out of range")
    return items[first:last]


def _sort(values: Any) -> list[str]:
    return sorted(as_string(v) for v in as_list(values))


def _reverse(values: Any) -> list[Any]:
    return list(reversed(as_list(values)))


def _setunion(*sets: Any) -> list[Any]:
    return to_set([item for one in sets for item in as_list(one)])


def _setintersection(first: Any, *others: Any) -> list[Any]:
    spend(len(as_list(first)) * sum(len(as_list(other)) for other in others))  # the comparisons
    return to_set([v for v in as_list(first) if all(_contains(other, v) for other in others)])


def _one(values: Any) -> Any:
    items = as_list(values)
    if len(items) > 1:
        raise FunctionError("one() of more than one element")
    return items[0] if items else None


def _sum(values: Any) -> int | float:
    items = as_list(values)
    if not items:
        raise FunctionError("sum of an empty list")
    return normalize_number(sum(to_number(v) for v in items))


def _trim(text: Any, cutset: Any) -> str:
    return as_string(text).strip(as_string(cutset))


def _title(text: Any) -> str:
    return re.sub(r"\b[a-z]", lambda m: m.group(0).upper(), as_string(text))


def _chunklist(values: Any, size: Any) -> list[list[Any]]:
    items, step = as_list(values), as_int(size)
    if step <= 0:
        return [items]
    return [items[i : i + step] for i in range(0, len(items), step)]


def _index(values: Any, value: Any) -> int:
    for position, item in enumerate(as_list(values)):
        if values_equal(item, value):
            return position
    raise FunctionError("value not in list")


def _transpose(mapping: Any) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for key, items in as_map(mapping).items():
        for item in as_list(items):
            result.setdefault(as_string(item), []).append(key)
    return {k: sorted(v) for k, v in sorted(result.items())}


def _log(number: Any, base: Any) -> int | float:
    value, radix = float(to_number(number)), float(to_number(base))
    try:
        return normalize_number(_go_log(value) / _go_log(radix))
    except ZeroDivisionError:
        raise FunctionError("log() of base 1") from None


def _go_log(value: float) -> float:
    """Go's ``math.Log``: -Inf at 0, NaN below (both refused as results later)."""
    if value == 0:
        return -math.inf
    if value < 0:
        return math.nan
    return math.log(value)


def _pow(base: Any, exponent: Any) -> int | float:
    left, right = to_number(base), to_number(exponent)
    if isinstance(left, int) and isinstance(right, int) and right >= 0:
        spend(right.bit_length() * max(left.bit_length(), 1))
        return left**right
    try:
        return normalize_number(math.pow(left, right))
    except (OverflowError, ValueError):
        raise FunctionError("pow() result is not a finite number") from None


def _signum(number: Any) -> int:
    value = to_number(number)
    return (value > 0) - (value < 0)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _parseint(text: Any, base: Any) -> int:
    """Go's ``big.Int.SetString`` digits for bases 2 to 62: up to 36 either case,
    past 36 lower case first; an optional sign, no prefix."""
    whole, radix = as_string(text), as_int(base)
    if not 2 <= radix <= 62:
        raise FunctionError("base must be a whole number between 2 and 62 inclusive")
    sign, digits = (-1, whole[1:]) if whole[:1] == "-" else (1, whole.removeprefix("+"))
    if not digits:
        raise FunctionError(f"cannot parse {whole!r} as a base {radix} integer")
    spend(text_units(len(digits)))
    value = 0
    for character in digits:
        digit = _DIGITS.find(character.lower() if radix <= 36 else character)
        if not 0 <= digit < radix:
            raise FunctionError(f"cannot parse {whole!r} as a base {radix} integer")
        value = value * radix + digit
    return sign * value


def _indent(spaces: Any, text: Any) -> str:
    pad = " " * as_int(spaces)
    lines = as_string(text).split("\n")
    spend(text_units(len(pad) * len(lines)))
    return "\n".join([lines[0], *(pad + line if line else line for line in lines[1:])])


def _all_bools(values: Any) -> list[bool]:
    return [to_bool(v) if v is not None else False for v in as_list(values)]


def _matchkeys(values: Any, keys: Any, searchset: Any) -> list[Any]:
    items, names, wanted = as_list(values), as_list(keys), as_list(searchset)
    if len(items) != len(names):
        raise FunctionError("length of keys and values should be equal")
    spend(len(names) * len(wanted))
    return [item for item, key in zip(items, names, strict=True) if _contains(wanted, key)]


def _setproduct(*sets: Any) -> list[list[Any]]:
    if not sets:
        raise FunctionError("at least one argument is required")
    product: list[list[Any]] = [[]]
    for one in sets:
        elements = as_list(one)
        spend(len(product) * len(elements))
        product = [[*head, item] for head in product for item in elements]
    return product


def _setsubtract(first: Any, second: Any) -> list[Any]:
    spend(len(as_list(first)) * len(as_list(second)))
    return to_set([v for v in as_list(first) if not _contains(second, v)])


def _removed(name: str, instead: str) -> Callable[..., Any]:
    def refuse(*_arguments: Any) -> Any:
        raise FunctionError(f"Terraform removed {name}() in v0.15; use {instead}")

    return refuse


def _known_after_apply(name: str) -> Callable[..., Unknown]:
    def unknown(*_arguments: Any) -> Unknown:
        return Unknown(f"{name}()")

    return unknown


def _pathexpand(path: Any) -> str | Unknown:
    text = as_string(path)
    if text.startswith("~"):
        return Unknown("pathexpand()")  # the runner's home directory
    return text


APPLY_TIME_FUNCTIONS = ("bcrypt", "issensitive", "plantimestamp", "timestamp", "uuid")
"""Functions whose value depends on when and where Terraform runs, not on the configuration."""


def with_core_names(functions: Mapping[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """``functions`` under their names and under ``core::name``, as Terraform registers them."""
    return {**functions, **{f"core::{name}": f for name, f in functions.items()}}


_BUILTINS: Mapping[str, Callable[..., Any]] = {
    "abs": lambda n: normalize_number(abs(to_number(n))),
    "alltrue": lambda values: all(_all_bools(values)),
    "anytrue": lambda values: any(_all_bools(values)),
    "base64decode": _base64decode,
    "base64encode": _base64encode,
    "ceil": lambda n: math.ceil(to_number(n)),
    "chomp": lambda s: re.sub(r"(\r\n|\n|\r)+$", "", as_string(s)),
    "chunklist": _chunklist,
    "coalesce": _coalesce,
    "coalescelist": _coalescelist,
    "compact": _compact,
    "concat": _concat,
    "contains": _contains,
    "distinct": _distinct,
    "element": _element,
    "ephemeralasnull": lambda value: value,  # no value of a configuration is ephemeral
    "endswith": lambda s, suffix: as_string(s).endswith(as_string(suffix)),
    "flatten": _flatten,
    "floor": lambda n: math.floor(to_number(n)),
    "format": _format,
    "formatlist": _formatlist,
    "indent": _indent,
    "index": _index,
    "join": _join,
    "jsondecode": _jsondecode,
    "jsonencode": _jsonencode,
    "keys": _keys,
    "length": _length,
    "list": _removed("list", "tolist([...])"),
    "log": _log,
    "lookup": _lookup,
    "lower": lambda s: as_string(s).lower(),
    "map": _removed("map", "tomap({...})"),
    "matchkeys": _matchkeys,
    "max": _max,
    "merge": _merge,
    "min": _min,
    "nonsensitive": lambda value: value,
    "one": _one,
    "parseint": _parseint,
    "pow": _pow,
    "range": _range,
    "regex": _regex,
    "regexall": _regexall,
    "replace": _replace,
    "reverse": _reverse,
    "setintersection": _setintersection,
    "sensitive": lambda value: value,
    "setproduct": _setproduct,
    "setsubtract": _setsubtract,
    "setunion": _setunion,
    "signum": _signum,
    "slice": _slice,
    "sort": _sort,
    "split": _split,
    "startswith": lambda s, prefix: as_string(s).startswith(as_string(prefix)),
    "strcontains": lambda s, part: as_string(part) in as_string(s),
    "strrev": lambda s: as_string(s)[::-1],
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
    "trimprefix": lambda s, p: as_string(s).removeprefix(as_string(p)),
    "trimspace": lambda s: as_string(s).strip(),
    "trimsuffix": lambda s, p: as_string(s).removesuffix(as_string(p)),
    "upper": lambda s: as_string(s).upper(),
    "values": _values,
    "zipmap": _zipmap,
}

FUNCTIONS: Mapping[str, Callable[..., Any]] = with_core_names(
    {
        **_BUILTINS,
        **CRYPTO_FUNCTIONS,
        **ENCODING_FUNCTIONS,
        **NETWORK_FUNCTIONS,
        **PATH_FUNCTIONS,
        **TIME_FUNCTIONS,
        "pathexpand": _pathexpand,
        **{name: _known_after_apply(name) for name in APPLY_TIME_FUNCTIONS},
    }
)
"""Built-in functions by name (the file and template functions are added per module)."""
