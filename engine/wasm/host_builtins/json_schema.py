"""``json.verify_schema`` and ``json.match_schema``: JSON Schema as OPA's gojsonschema.

OPA validates with its copy of gojsonschema (drafts 4, 6 and 7, detected from
``$schema``, else a hybrid of all three). Its results are part of a policy's
output: each error's ``type``, ``field`` (the path below ``(Root)``, joined
with dots), ``desc`` and ``error`` (``field: desc``). This module keeps those
texts and the order gojsonschema reports errors in, including which branch's
errors ``anyOf``/``oneOf``/``contains`` report (the best-scoring one). Where Go
iterates a map (object members, ``properties``, ``patternProperties``,
``dependencies``) its order is random; here it is sorted, so output stays
deterministic.

References: ``$ref`` to the document itself (``#``, ``#/definitions/x``,
any JSON pointer) resolves; a reference to anything else fails, since rules
may not reach the network or the file system.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any
from urllib.parse import unquote

from engine.wasm.host_builtins.registry import BuiltinError, register
from engine.wasm.values import Set, dumps

JSON_TYPES = ["array", "boolean", "integer", "number", "null", "object", "string"]
DRAFT4, DRAFT6, DRAFT7, HYBRID = 4, 6, 7, 1 << 31
_DRAFT_URLS = {
    "http://json-schema.org/draft-04/schema": DRAFT4,
    "http://json-schema.org/draft-06/schema": DRAFT6,
    "http://json-schema.org/draft-07/schema": DRAFT7,
}


class SchemaError(Exception):
    """The schema does not compile; the message is gojsonschema's."""


# ---------------------------------------------------------------- documents


@dataclass(frozen=True)
class Number:
    """A ``json.Number``: a number's JSON text."""

    text: str

    @property
    def rat(self) -> Fraction:
        return Fraction(Decimal(self.text))


def _reject_constant(text: str) -> Any:
    raise ValueError(f"invalid constant {text}")


def _document(value: Any) -> Any:
    """A Rego value, or the JSON text of a string operand, as Go's decoded JSON."""
    if isinstance(value, str):
        try:
            return json.loads(
                value, parse_int=Number, parse_float=Number, parse_constant=_reject_constant
            )
        except ValueError:
            raise SchemaError("invalid JSON string") from None
    if isinstance(value, dict | list | Set):
        return _from_rego(value)
    raise SchemaError("wrong type, expected string or object")


def _from_rego(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float | Decimal):
        return Number(dumps(value).decode())
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise SchemaError("object keys must be strings")
            out[key] = _from_rego(item)
        return out
    return [_from_rego(item) for item in value]


def _go_float(value: float) -> str:
    """Go's ``encoding/json`` text of a float64."""
    if value == 0:
        return "0"
    if 1e-6 <= abs(value) < 1e21:
        text = format(Decimal(repr(value)), "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    sign = exponent[0] if exponent[0] in "+-" else "+"
    digits = exponent.lstrip("+-").lstrip("0") or "0"
    return f"{mantissa}e{sign}{digits}"


def _go_json(value: Any) -> str:
    """``marshalWithoutNumber``: Go's JSON with numbers through float64, keys sorted."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Number):
        try:
            return _go_float(float(value.rat))
        except OverflowError:  # beyond float64: Go cannot decode it; keep the text
            return value.text
    if isinstance(value, str):
        out = json.dumps(value, ensure_ascii=False)
        for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
            out = out.replace(char, escape)
        return out.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    if isinstance(value, list):
        return "[" + ",".join(_go_json(v) for v in value) + "]"
    items = (f"{_go_json(k)}:{_go_json(value[k])}" for k in sorted(value))
    return "{" + ",".join(items) + "}"


def _is_integer(number: Number) -> bool:
    return number.rat.denominator == 1


def _big_float_text(rat: Fraction) -> str:
    """Go's ``%v`` of ``new(big.Float).SetRat(rat)``: shortest ``%g`` at its precision."""
    if rat == 0:
        return "0"
    prec = max(64, rat.numerator.bit_length(), rat.denominator.bit_length())
    target = _round_bits(rat, prec)
    sign = "-" if rat < 0 else ""
    magnitude = abs(rat)
    for digits in range(1, 40):
        exp10 = _exp10(magnitude)
        scale = Fraction(10) ** (digits - 1 - exp10)
        mantissa = round(magnitude * scale)
        candidate = Fraction(mantissa) / scale
        if _round_bits(candidate, prec) == abs(target):
            return sign + _g_text(str(mantissa), exp10 + (len(str(mantissa)) - digits))
    return sign + str(float(magnitude))


def _exp10(value: Fraction) -> int:
    """The decimal exponent of the leading digit of ``value > 0``."""
    exp = len(str(value.numerator)) - len(str(value.denominator))
    while Fraction(10) ** exp > value:
        exp -= 1
    while Fraction(10) ** (exp + 1) <= value:
        exp += 1
    return exp


def _round_bits(value: Fraction, bits: int) -> Fraction:
    """``|value|`` rounded to a ``bits``-bit mantissa (half to even), as big.Float stores it."""
    magnitude = abs(value)
    exp = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    while Fraction(2) ** exp > magnitude:
        exp -= 1
    while Fraction(2) ** (exp + 1) <= magnitude:
        exp += 1
    scale = Fraction(2) ** (bits - 1 - exp)
    return Fraction(round(magnitude * scale)) / scale


def _g_text(mantissa: str, exp: int) -> str:
    """``%g`` layout of the digits ``mantissa`` (d.ddd) times 10**exp, as for a shortest
    representation (exponent form below 1e-4 and from 1e6)."""
    mantissa = mantissa.rstrip("0") or "0"
    if exp < -4 or exp >= 6:
        body = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
        return f"{body}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if exp < 0:
        return "0." + "0" * (-exp - 1) + mantissa
    if exp + 1 >= len(mantissa):
        return mantissa + "0" * (exp + 1 - len(mantissa))
    return mantissa[: exp + 1] + "." + mantissa[exp + 1 :]


# ---------------------------------------------------------------- schemas


@dataclass(eq=False)
class Schema:
    """One compiled (sub)schema, gojsonschema's ``SubSchema``."""

    draft: int
    property: str = ""
    passes: bool | None = None
    ref: Schema | None = None
    types: list[str] = field(default_factory=list)
    properties: list[Schema] = field(default_factory=list)
    additional_properties: bool | Schema | None = None
    pattern_properties: list[tuple[str, Any, Schema]] = field(default_factory=list)
    property_names: Schema | None = None
    dependencies: dict[str, list[str] | Schema] = field(default_factory=dict)
    items: list[Schema] = field(default_factory=list)
    items_single: bool = False
    additional_items: bool | Schema | None = None
    multiple_of: Fraction | None = None
    minimum: Fraction | None = None
    maximum: Fraction | None = None
    exclusive_minimum: Fraction | None = None
    exclusive_maximum: Fraction | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: tuple[str, Any] | None = None
    format: str = ""
    min_properties: int | None = None
    max_properties: int | None = None
    required: list[str] = field(default_factory=list)
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False
    contains: Schema | None = None
    const: str | None = None
    enum: list[str] | None = None
    one_of: list[Schema] = field(default_factory=list)
    any_of: list[Schema] = field(default_factory=list)
    all_of: list[Schema] = field(default_factory=list)
    not_: Schema | None = None
    if_: Schema | None = None
    then: Schema | None = None
    else_: Schema | None = None


def _invalid_type(expected: str, given: str) -> SchemaError:
    return SchemaError(f"Invalid type. Expected: {expected}, given: {given}")


def _must_be(x: str, article: str, y: str) -> SchemaError:
    return SchemaError(f"{x} must be of {article} {y}")


def _number(value: Any) -> Fraction | None:
    return value.rat if isinstance(value, Number) else None


def _integer(value: Any) -> int | None:
    if not isinstance(value, Number) or not _is_integer(value):
        return None
    if not re.fullmatch(r"-?[0-9]+", value.text):
        return None  # Go's json.Number.Int64 takes integer literals only
    number = int(value.text)
    return number if -(2**63) <= number < 2**63 else None


class _Compiler:
    """gojsonschema's ``Schema.parseSchema`` over one document."""

    def __init__(self, root: Any, validate_patterns: bool) -> None:
        self.root = root
        self.refs: dict[str, Schema] = {}
        self.validate_patterns = validate_patterns

    def compile(self, draft: int) -> Schema:
        schema = Schema(draft=draft)
        self.parse(self.root, schema)
        return schema

    def child(self, parent: Schema, node: Any, prop: str = "") -> Schema:
        schema = Schema(draft=parent.draft, property=prop)
        self.parse(node, schema)
        return schema

    def parse(self, node: Any, schema: Schema) -> None:
        if schema.draft >= DRAFT6 and isinstance(node, bool):
            schema.passes = node
            return
        if not isinstance(node, dict):
            raise SchemaError("Expected: Valid Schema, given: Invalid JSON")
        id_key = "id" if schema.draft == DRAFT4 else "$id"
        if schema.draft == HYBRID and "id" in node:
            id_key = "id"
        self._string(node, id_key)
        if "definitions" in node:
            definitions = node["definitions"]
            if not isinstance(definitions, dict):
                raise _invalid_type("Array Of Schemas", "definitions")
            for key in sorted(definitions):
                if not isinstance(definitions[key], bool | dict):
                    raise _invalid_type("Array Of Schemas", "definitions")
                self.child(schema, definitions[key], "definitions")
        self._string(node, "title")
        self._string(node, "description")
        ref = self._string(node, "$ref")
        if ref is not None:
            if ref in self.refs:
                schema.ref = self.refs[ref]
            else:
                schema.ref = self.reference(ref, schema)
                return
        self.parse_types(node, schema)
        self.parse_objects(node, schema)
        self.parse_arrays(node, schema)
        self.parse_numbers(node, schema)
        self.parse_strings(node, schema)
        self.parse_counts(node, schema)
        self.parse_values(node, schema)
        self.parse_combinators(node, schema)

    def reference(self, ref: str, schema: Schema) -> Schema:
        if not ref.startswith("#"):
            raise SchemaError(
                f"reference {ref} cannot be resolved: only references within the schema are allowed"
            )
        target: Any = self.root
        pointer = unquote(ref[1:])
        if pointer:
            if not pointer.startswith("/"):
                raise SchemaError(f"reference {ref} cannot be resolved")
            for token in pointer[1:].split("/"):
                token = token.replace("~1", "/").replace("~0", "~")
                if isinstance(target, dict) and token in target:
                    target = target[token]
                elif isinstance(target, list) and token.isdigit() and int(token) < len(target):
                    target = target[int(token)]
                else:
                    raise SchemaError(f"Object has no key '{token}'")
        if not isinstance(target, bool | dict):
            raise SchemaError("Valid Schema must be of type object")
        resolved = Schema(draft=schema.draft, property="$ref")
        self.refs[ref] = resolved
        self.parse(target, resolved)
        return resolved

    @staticmethod
    def _string(node: dict[str, Any], key: str) -> str | None:
        if key not in node:
            return None
        if not isinstance(node[key], str):
            raise _invalid_type("string", key)
        return str(node[key])

    def parse_types(self, node: dict[str, Any], schema: Schema) -> None:
        if "type" not in node:
            return
        given = node["type"]
        names = given if isinstance(given, list) else [given]
        if not isinstance(given, str | list):
            raise _invalid_type("type", "string/Array Of Strings")
        for name in names:
            if not isinstance(name, str):
                raise _invalid_type("type", "string/Array Of Strings")
            if name not in JSON_TYPES:
                raise SchemaError(
                    f"has a primitive type that is NOT VALID -- given: /{name}/ "
                    f"Expected valid values are:[{' '.join(JSON_TYPES)}]"
                )
            if name in schema.types:
                raise SchemaError(f"{name} type is duplicated")
            schema.types.append(name)

    def parse_objects(self, node: dict[str, Any], schema: Schema) -> None:
        if "properties" in node:
            props = node["properties"]
            if not isinstance(props, dict):
                raise SchemaError("Properties must be of type object")
            for key in sorted(props):
                schema.properties.append(self.child(schema, props[key], key))
        if "additionalProperties" in node:
            extra = node["additionalProperties"]
            if isinstance(extra, bool):
                schema.additional_properties = extra
            elif isinstance(extra, dict):
                schema.additional_properties = self.child(schema, extra, "additionalProperties")
            else:
                raise _invalid_type("boolean/Valid Schema", "additionalProperties")
        if "patternProperties" in node:
            patterns = node["patternProperties"]
            if not isinstance(patterns, dict):
                raise _invalid_type("Valid Schema", "patternProperties")
            for key in sorted(patterns):
                program = self.regex(key)
                if program is None:
                    raise SchemaError(f"Invalid regex pattern '{key}'")
                schema.pattern_properties.append(
                    (key, program, self.child(schema, patterns[key], key))
                )
        if "propertyNames" in node and schema.draft >= DRAFT6:
            names = node["propertyNames"]
            if not isinstance(names, bool | dict):
                raise _invalid_type("Valid Schema", "patternProperties")
            schema.property_names = self.child(schema, names, "propertyNames")
        if "dependencies" in node:
            deps = node["dependencies"]
            if not isinstance(deps, dict):
                raise SchemaError("dependencies must be of type object")
            for key in sorted(deps):
                dep = deps[key]
                if isinstance(dep, list):
                    if not all(isinstance(d, str) for d in dep):
                        raise SchemaError("Dependency must be of type Schema Or Array Of Strings")
                    if dep:
                        schema.dependencies[key] = list(dep)
                elif isinstance(dep, bool | dict):
                    schema.dependencies[key] = self.child(schema, dep, key)
                else:
                    raise SchemaError("Dependency must be of type Schema Or Array Of Strings")

    def parse_arrays(self, node: dict[str, Any], schema: Schema) -> None:
        if "items" in node:
            items = node["items"]
            if isinstance(items, list):
                for item in items:
                    if not isinstance(item, dict | bool):
                        raise _invalid_type("Valid Schema/Array Of Schemas", "items")
                    schema.items.append(self.child(schema, item, "items"))
            elif isinstance(items, dict | bool):
                schema.items.append(self.child(schema, items, "items"))
                schema.items_single = True
            else:
                raise _invalid_type("Valid Schema/Array Of Schemas", "items")
        if "additionalItems" in node:
            extra = node["additionalItems"]
            if isinstance(extra, bool):
                schema.additional_items = extra
            elif isinstance(extra, dict):
                schema.additional_items = self.child(schema, extra, "additionalItems")
            else:
                raise _invalid_type("boolean/Valid Schema", "additionalItems")

    def parse_numbers(self, node: dict[str, Any], schema: Schema) -> None:
        if "multipleOf" in node:
            multiple = _number(node["multipleOf"])
            if multiple is None:
                raise _invalid_type("Number", "multipleOf")
            if multiple <= 0:
                raise SchemaError("multipleOf must be strictly greater than 0")
            schema.multiple_of = multiple
        for key, bound, exclusive in (
            ("minimum", "minimum", "exclusiveMinimum"),
            ("maximum", "maximum", "exclusiveMaximum"),
        ):
            if key in node:
                value = _number(node[key])
                if value is None:
                    raise _must_be(key, "a", "Number")
                setattr(schema, bound, value)
            if exclusive in node:
                self.parse_exclusive(node[exclusive], schema, bound, exclusive)

    @staticmethod
    def parse_exclusive(given: Any, schema: Schema, bound: str, key: str) -> None:
        target = "exclusive_minimum" if bound == "minimum" else "exclusive_maximum"
        if schema.draft == DRAFT4 or (schema.draft == HYBRID and isinstance(given, bool)):
            if not isinstance(given, bool):
                raise _invalid_type("boolean", key)
            if getattr(schema, bound) is None:
                raise SchemaError(f"{key} cannot be used without {bound}")
            if given:
                setattr(schema, target, getattr(schema, bound))
                setattr(schema, bound, None)
            return
        if not isinstance(given, Number):
            expected = "boolean/number" if schema.draft == HYBRID else "number"
            raise _invalid_type(expected, key)
        setattr(schema, target, given.rat)

    def parse_strings(self, node: dict[str, Any], schema: Schema) -> None:
        for key, attr in (("minLength", "min_length"), ("maxLength", "max_length")):
            if key in node:
                setattr(schema, attr, self.count(node[key], key))
        low, high = schema.min_length, schema.max_length
        if low is not None and high is not None and low > high:
            raise SchemaError("minLength cannot be greater than maxLength")
        pattern = self._string(node, "pattern")
        if pattern is not None and self.validate_patterns:
            program = self.regex(pattern)
            if program is None:
                raise SchemaError("pattern must be a valid regex")
            schema.pattern = (pattern, program)
        schema.format = self._string(node, "format") or ""

    @staticmethod
    def count(value: Any, key: str) -> int:
        number = _integer(value)
        if number is None:
            raise _must_be(key, "an", "integer")
        if number < 0:
            raise SchemaError(f"{key} must be greater than or equal to 0")
        return number

    @staticmethod
    def regex(pattern: str) -> Any:
        from engine.wasm.host_builtins.regex import compile_pattern

        try:
            return compile_pattern("json.match_schema", pattern)
        except BuiltinError:
            return None

    def parse_counts(self, node: dict[str, Any], schema: Schema) -> None:
        for key, attr in (("minProperties", "min_properties"), ("maxProperties", "max_properties")):
            if key in node:
                setattr(schema, attr, self.count(node[key], key))
        low, high = schema.min_properties, schema.max_properties
        if low is not None and high is not None and low > high:
            raise SchemaError("minProperties cannot be greater than maxProperties")
        for value in self.slice(node, "required") or []:
            if not isinstance(value, str):
                raise _invalid_type("string", "required")
            if value in schema.required:
                raise SchemaError("required items must be unique")
            schema.required.append(value)
        for key, attr in (("minItems", "min_items"), ("maxItems", "max_items")):
            if key in node:
                setattr(schema, attr, self.count(node[key], key))
        if "uniqueItems" in node:
            if not isinstance(node["uniqueItems"], bool):
                raise _must_be("uniqueItems", "a", "boolean")
            schema.unique_items = node["uniqueItems"]

    @staticmethod
    def slice(node: dict[str, Any], key: str) -> list[Any] | None:
        if key not in node:
            return None
        if not isinstance(node[key], list):
            raise _must_be(key, "an", "array")
        return list(node[key])

    def parse_values(self, node: dict[str, Any], schema: Schema) -> None:
        if "contains" in node and schema.draft >= DRAFT6:
            schema.contains = self.child(schema, node["contains"], "contains")
        if "const" in node and schema.draft >= DRAFT6:
            schema.const = _go_json(node["const"])
        enum = self.slice(node, "enum")
        if enum is not None:
            schema.enum = []
            for value in enum:
                text = _go_json(value)
                if text in schema.enum:
                    raise SchemaError("enum items must be unique")
                schema.enum.append(text)

    def parse_combinators(self, node: dict[str, Any], schema: Schema) -> None:
        for key, attr in (("oneOf", "one_of"), ("anyOf", "any_of"), ("allOf", "all_of")):
            for value in self.slice(node, key) or []:
                getattr(schema, attr).append(self.child(schema, value, key))
        keys = [("not", "not_")]
        if schema.draft >= DRAFT7:
            keys += [("if", "if_"), ("then", "then"), ("else", "else_")]
        for key, attr in keys:
            if key in node:
                if not isinstance(node[key], bool | dict):
                    raise _must_be(key, "an", "object")
                setattr(schema, attr, self.child(schema, node[key], key))


def compile_schema(document: Any) -> Schema:
    """gojsonschema's ``SchemaLoader.Compile`` (patterns validated, drafts auto-detected)."""
    draft = HYBRID
    if isinstance(document, dict) and "$schema" in document:
        url = document["$schema"]
        if not isinstance(url, str):
            raise SchemaError("$schema must be of type string")
        draft = _DRAFT_URLS.get(url.removesuffix("#"), HYBRID)
    elif not isinstance(document, dict | bool):
        raise SchemaError("schema is invalid")
    return _Compiler(document, validate_patterns=True).compile(draft)


# ---------------------------------------------------------------- validation

_DESCRIPTIONS = {
    "false": "False always fails validation",
    "required": "{property} is required",
    "invalid_type": "Invalid type. Expected: {expected}, given: {given}",
    "number_any_of": "Must validate at least one schema (anyOf)",
    "number_one_of": "Must validate one and only one schema (oneOf)",
    "number_all_of": "Must validate all the schemas (allOf)",
    "number_not": "Must not validate the schema (not)",
    "missing_dependency": "Has a dependency on {dependency}",
    "const": "{field} does not match: {allowed}",
    "enum": "{field} must be one of the following: {allowed}",
    "array_no_additional_items": "No additional items allowed on array",
    "array_min_items": "Array must have at least {min} items",
    "array_max_items": "Array must have at most {max} items",
    "unique": "{type} items[{i},{j}] must be unique",
    "contains": "At least one of the items must match",
    "array_min_properties": "Must have at least {min} properties",
    "array_max_properties": "Must have at most {max} properties",
    "additional_property_not_allowed": "Additional property {property} is not allowed",
    "invalid_property_name": 'Property name of "{property}" does not match',
    "string_gte": "String length must be greater than or equal to {min}",
    "string_lte": "String length must be less than or equal to {max}",
    "pattern": "Does not match pattern '{pattern}'",
    "format": "Does not match format '{format}'",
    "multiple_of": "Must be a multiple of {multiple}",
    "number_gte": "Must be greater than or equal to {min}",
    "number_gt": "Must be greater than {min}",
    "number_lte": "Must be less than or equal to {max}",
    "number_lt": "Must be less than {max}",
    "condition_then": 'Must validate "then" as "if" was valid',
    "condition_else": 'Must validate "else" as "if" was not valid',
}


@dataclass(frozen=True)
class Context:
    """A position in the document: ``(Root)`` and the keys below it."""

    head: str
    tail: Context | None = None

    def text(self) -> str:
        return self.head if self.tail is None else f"{self.tail.text()}.{self.head}"

    def field(self) -> str:
        return self.text().removeprefix("(Root).")


@dataclass
class Result:
    """Errors in order and gojsonschema's score (used to pick the best failing branch)."""

    errors: list[dict[str, str]] = field(default_factory=list)
    score: int = 0

    def add(self, kind: str, context: Context, **details: Any) -> None:
        text = context.field()
        description = _DESCRIPTIONS[kind].format(field=text, **details)
        self.errors.append(
            {"error": f"{text}: {description}", "type": kind, "field": text, "desc": description}
        )
        self.score -= 2

    def merge(self, other: Result) -> None:
        self.errors.extend(other.errors)
        self.score += other.score

    @property
    def valid(self) -> bool:
        return not self.errors


def _given_type(node: Any) -> str:
    if node is None:
        return "null"
    if isinstance(node, bool):
        return "boolean"
    if isinstance(node, Number):
        return "integer" if _is_integer(node) else "number"
    if isinstance(node, str):
        return "string"
    return "array" if isinstance(node, list) else "object"


def _type_text(types: list[str]) -> str:
    return types[0] if len(types) == 1 else "[" + ",".join(types) + "]"


def _sub(schema: Schema, node: Any, context: Context) -> Result:
    result = Result()
    _validate(schema, node, result, context)
    return result


def _validate(schema: Schema, node: Any, result: Result, context: Context) -> None:
    if schema.passes is not None:
        if not schema.passes:
            result.add("false", context)
        return
    if schema.ref is not None:
        _validate(schema.ref, node, result, context)
        return
    given = _given_type(node)
    if schema.types:
        ok = given in schema.types or (given == "integer" and "number" in schema.types)
        if not ok:
            result.add("invalid_type", context, expected=_type_text(schema.types), given=given)
            return
    _validate_schema(schema, node, result, context)
    if isinstance(node, Number):
        _validate_number(schema, node, result, context)
    elif isinstance(node, list):
        _validate_array(schema, node, result, context)
    elif isinstance(node, dict):
        _validate_object(schema, node, result, context)
    _validate_common(schema, node, result, context)
    if isinstance(node, str):
        _validate_string(schema, node, result, context)
    if isinstance(node, dict):
        for child in schema.properties:
            if child.property in node:
                _validate(child, node[child.property], result, Context(child.property, context))
    result.score += 1


def _best(results: list[Result]) -> Result | None:
    best: Result | None = None
    for candidate in results:
        if best is None or candidate.score > best.score:
            best = candidate
    return best


def _validate_schema(schema: Schema, node: Any, result: Result, context: Context) -> None:
    if schema.any_of:
        failed: list[Result] = []
        for sub in schema.any_of:
            outcome = _sub(sub, node, context)
            if outcome.valid:
                break
            failed.append(outcome)
        else:
            result.add("number_any_of", context)
            best = _best(failed)
            if best is not None:
                result.merge(best)
    if schema.one_of:
        validated = 0
        failed = []
        for sub in schema.one_of:
            outcome = _sub(sub, node, context)
            if outcome.valid:
                validated += 1
            elif validated == 0:
                failed.append(outcome)
        if validated != 1:
            result.add("number_one_of", context)
            best = _best(failed)
            if validated == 0 and best is not None:
                result.merge(best)
    if schema.all_of:
        passed = 0
        for sub in schema.all_of:
            outcome = _sub(sub, node, context)
            passed += outcome.valid
            result.merge(outcome)
        if passed != len(schema.all_of):
            result.add("number_all_of", context)
    if schema.not_ is not None and _sub(schema.not_, node, context).valid:
        result.add("number_not", context)
    if schema.dependencies and isinstance(node, dict):
        for key in sorted(node):
            dependency = schema.dependencies.get(key)
            if isinstance(dependency, list):
                for other in dependency:
                    if other not in node:
                        result.add("missing_dependency", context, dependency=other)
            elif dependency is not None:
                _validate(dependency, node, result, context)
    if schema.if_ is not None:
        condition = _sub(schema.if_, node, context).valid
        branch, kind = (
            (schema.then, "condition_then") if condition else (schema.else_, "condition_else")
        )
        if branch is not None:
            outcome = _sub(branch, node, context)
            if not outcome.valid:
                result.add(kind, context)
                result.merge(outcome)
    result.score += 1


def _validate_common(schema: Schema, node: Any, result: Result, context: Context) -> None:
    if schema.const is not None and _go_json(node) != schema.const:
        result.add("const", context, allowed=schema.const)
    if schema.enum is not None and _go_json(node) not in schema.enum:
        result.add("enum", context, allowed=", ".join(schema.enum))
    if schema.format and not is_format(schema.format, node):
        result.add("format", context, format=schema.format)
    result.score += 1


def _validate_array(schema: Schema, node: list[Any], result: Result, context: Context) -> None:
    if schema.items_single:
        for i, item in enumerate(node):
            result.merge(_sub(schema.items[0], item, Context(str(i), context)))
    elif schema.items:
        for i, (sub, item) in enumerate(zip(schema.items, node, strict=False)):
            result.merge(_sub(sub, item, Context(str(i), context)))
        if len(schema.items) < len(node):
            extra = schema.additional_items
            if extra is False:
                result.add("array_no_additional_items", context)
            elif isinstance(extra, Schema):
                for i in range(len(schema.items), len(node)):
                    result.merge(_sub(extra, node[i], Context(str(i), context)))
    if schema.min_items is not None and len(node) < schema.min_items:
        result.add("array_min_items", context, min=schema.min_items)
    if schema.max_items is not None and len(node) > schema.max_items:
        result.add("array_max_items", context, max=schema.max_items)
    if schema.unique_items:
        seen: dict[str, int] = {}
        for j, item in enumerate(node):
            text = _go_json(item)
            if text in seen:
                result.add("unique", context, type="array", i=seen[text], j=j)
            seen[text] = j
    if schema.contains is not None:
        failed: list[Result] = []
        for i, item in enumerate(node):
            outcome = _sub(schema.contains, item, Context(str(i), context))
            if outcome.valid:
                break
            failed.append(outcome)
        else:
            result.add("contains", context)
            best = _best(failed)
            if best is not None:
                result.merge(best)
    result.score += 1


def _validate_object(
    schema: Schema, node: dict[str, Any], result: Result, context: Context
) -> None:
    if schema.min_properties is not None and len(node) < schema.min_properties:
        result.add("array_min_properties", context, min=schema.min_properties)
    if schema.max_properties is not None and len(node) > schema.max_properties:
        result.add("array_max_properties", context, max=schema.max_properties)
    for name in schema.required:
        if name in node:
            result.score += 1
        else:
            result.add("required", context, property=name)
    declared = {child.property for child in schema.properties}
    for key in sorted(node):
        matched = False
        for _, program, sub in schema.pattern_properties:
            if program.search(key.encode("utf-8", "surrogatepass")) is not None:
                matched = True
                result.merge(_sub(sub, node[key], Context(key, context)))
        if matched:
            result.score += 1
        if key in declared or matched:
            continue
        extra = schema.additional_properties
        if extra is False:
            result.add("additional_property_not_allowed", context, property=key)
        elif isinstance(extra, Schema):
            result.merge(_sub(extra, node[key], Context(key, context)))
    if schema.property_names is not None:
        for key in sorted(node):
            outcome = _sub(schema.property_names, key, context)
            if not outcome.valid:
                result.add("invalid_property_name", context, property=key)
                result.merge(outcome)
    result.score += 1


def _validate_string(schema: Schema, node: str, result: Result, context: Context) -> None:
    length = len(node)
    if schema.min_length is not None and length < schema.min_length:
        result.add("string_gte", context, min=schema.min_length)
    if schema.max_length is not None and length > schema.max_length:
        result.add("string_lte", context, max=schema.max_length)
    if schema.pattern is not None:
        source, program = schema.pattern
        if program.search(node.encode("utf-8", "surrogatepass")) is None:
            result.add("pattern", context, pattern=source)
    result.score += 1


def _validate_number(schema: Schema, node: Number, result: Result, context: Context) -> None:
    value = node.rat
    if schema.multiple_of is not None and (value / schema.multiple_of).denominator != 1:
        result.add("multiple_of", context, multiple=_big_float_text(schema.multiple_of))
    if schema.maximum is not None and value > schema.maximum:
        result.add("number_lte", context, max=_big_float_text(schema.maximum))
    if schema.exclusive_maximum is not None and value >= schema.exclusive_maximum:
        result.add("number_lt", context, max=_big_float_text(schema.exclusive_maximum))
    if schema.minimum is not None and value < schema.minimum:
        result.add("number_gte", context, min=_big_float_text(schema.minimum))
    if schema.exclusive_minimum is not None and value <= schema.exclusive_minimum:
        result.add("number_gt", context, min=_big_float_text(schema.exclusive_minimum))
    result.score += 1


# ---------------------------------------------------------------- formats

_HOSTNAME = re.compile(
    r"^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])"
    r"(\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]{0,61}[a-zA-Z0-9]))*$"
)
_UUID = re.compile(r"^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$")
_JSON_POINTER = re.compile(r"^(?:/(?:[^~/]|~0|~1)*)*$")
_REL_JSON_POINTER = re.compile(r"^(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~0|~1)*)*)$")
_URI_TEMPLATE = re.compile(r"^([^{]*({[^}]*})?)*$")
_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
_TIME = re.compile(r"^\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})?$")


def _valid_date(text: str) -> bool:
    try:
        datetime.date(int(text[0:4]), int(text[5:7]), int(text[8:10]))
    except ValueError:
        return False
    return True


def _valid_clock(text: str) -> bool:
    hour, minute, second = int(text[0:2]), int(text[3:5]), int(text[6:8])
    return hour < 24 and minute < 60 and second < 60


def _go_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return "%" not in text


def _url(text: str, *, absolute: bool) -> Any:
    from engine.wasm.host_builtins.urls import parse_url

    if "\\" in text:
        return None
    try:
        parsed = parse_url(text)
    except ValueError:
        return None
    if absolute and not parsed.get("scheme"):
        return None
    return parsed


def is_format(name: str, node: Any) -> bool:
    """gojsonschema's format checkers; non-strings and unknown formats pass."""
    if not isinstance(node, str):
        return True
    if name in ("email", "idn-email"):
        from email.headerregistry import Address

        try:
            Address(addr_spec=node.strip())
        except (ValueError, IndexError, TypeError):
            return False
        return "@" in node
    checks = {
        "date": lambda s: bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", s)) and _valid_date(s),
        "time": lambda s: bool(_TIME.match(s)) and _valid_clock(s),
        "date-time": lambda s: (
            bool(_DATE_TIME.match(s)) and _valid_date(s) and _valid_clock(s[11:])
        ),
        "hostname": lambda s: bool(_HOSTNAME.match(s)) and len(s) < 256,
        "ipv4": lambda s: _go_ip(s) and "." in s,
        "ipv6": lambda s: _go_ip(s) and ":" in s,
        "uri": lambda s: _url(s, absolute=True) is not None,
        "iri": lambda s: _url(s, absolute=True) is not None,
        "uri-reference": lambda s: _url(s, absolute=False) is not None,
        "iri-reference": lambda s: _url(s, absolute=False) is not None,
        "uri-template": lambda s: (
            (u := _url(s, absolute=False)) is not None
            and bool(_URI_TEMPLATE.match(u.get("path", "")))
        ),
        "uuid": lambda s: bool(_UUID.match(s)),
        "regex": lambda s: s == "" or _Compiler.regex(s) is not None,
        "json-pointer": lambda s: bool(_JSON_POINTER.match(s)),
        "relative-json-pointer": lambda s: bool(_REL_JSON_POINTER.match(s)),
    }
    check = checks.get(name)
    return True if check is None else bool(check(node))


# ---------------------------------------------------------------- builtins


@register("json.verify_schema")
def verify_schema(schema: Any) -> list[Any]:
    """``json.verify_schema``: [true, null] for a valid schema, else [false, error]."""
    try:
        compile_schema(_document(schema))
    except SchemaError as exc:
        return [False, f"jsonschema: {exc}"]
    return [True, None]


@register("json.match_schema")
def match_schema(document: Any, schema: Any) -> list[Any]:
    """``json.match_schema``: [valid, errors] with gojsonschema's error objects."""
    name = "json.match_schema"
    try:
        doc = _document(document)
        compiled = compile_schema(_document(schema))
    except SchemaError as exc:
        raise BuiltinError(f"{name}: {exc}") from None
    result = Result()
    _validate(compiled, doc, result, Context("(Root)"))
    return [result.valid, result.errors]
