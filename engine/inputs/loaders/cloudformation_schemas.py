"""CloudFormation resource schemas: the type each property is written in.

AWS publishes a JSON schema per resource type (the CloudFormation registry
schemas); the ``cfn-lint`` package ships them as data
(``cfnlint/data/schemas``: ``providers/<region>.json`` maps a type to a file
of ``resources/``). They are read from there without importing ``cfnlint``,
one file per resource type when a template first uses that type.

:func:`coerce` changes a value written in a template to its property's type
as snyk's loader does: ``"true"`` under a ``boolean`` is ``true`` (any other
text ``false``), ``"22"`` under an ``integer`` is ``22``, ``"1.5"`` under a
``number`` is ``1.5``, and a number under a ``string`` is its text (``5`` →
``"5"``, ``1.2`` → ``"1.200000"``, as Go's ``%d`` and ``%f``). Only a property
whose ``type`` is one name (``"string"``, not ``["string", "object"]``) is
coerced; intrinsic functions are not (their keys are no property names).
Text that does not parse as the number stays text, and so does text that
would be an infinite or not-a-number float, which JSON cannot hold.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REGION = "us-east-1"
"""The region whose schemas are read: the one with every resource type."""

_TYPES = {
    "boolean": "bool",
    "integer": "int",
    "number": "float",
    "string": "string",
    "array": "array",
    "object": "object",
}
_INT64 = 1 << 63
_GO_INT = re.compile(r"[+-]?[0-9]+")
_GO_DECIMAL_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_GO_HEX_FLOAT = re.compile(
    r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+"
)


@dataclass(eq=False)
class Schema:
    """The type of a property, with its properties (objects) or items (arrays).
    Definitions that refer to themselves make cycles: compare by identity."""

    kind: str = ""
    properties: dict[str, Schema | None] = field(default_factory=dict)
    items: Schema | None = None


@functools.cache
def _schema_directory() -> Path | None:
    """``cfnlint/data/schemas`` of the installed ``cfn-lint``, None without it."""
    spec = importlib.util.find_spec("cfnlint")  # finds, does not import
    if spec is None or spec.origin is None:
        return None
    directory = Path(spec.origin).parent / "data" / "schemas"
    return directory if (directory / "providers" / f"{REGION}.json").is_file() else None


@functools.cache
def _schema_files() -> dict[str, str]:
    """Resource type → schema file name (without ``.json``), for :data:`REGION`."""
    directory = _schema_directory()
    if directory is None:
        return {}
    files = json.loads((directory / "providers" / f"{REGION}.json").read_text())
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


@functools.cache
def resource_schema(resource_type: str) -> Schema | None:
    """The schema of a resource type's properties; None for a type AWS does
    not publish (custom resources, SAM, registry types of other publishers)."""
    name = _schema_files().get(resource_type)
    directory = _schema_directory()
    if name is None or directory is None or "/" in name or name.startswith("."):
        return None
    document = json.loads((directory / "resources" / f"{name}.json").read_text())
    return convert(document) if isinstance(document, dict) else None


def convert(document: dict[str, Any]) -> Schema:
    """A resource schema document (``properties``, ``definitions`` with
    ``$ref: #/definitions/X``) as a :class:`Schema` of kind ``object``."""
    written = document.get("definitions")
    written = written if isinstance(written, dict) else {}
    definitions = {name: Schema() for name in written}

    def property_schema(prop: Any) -> Schema | None:
        if not isinstance(prop, dict):
            return None
        ref = prop.get("$ref")
        if isinstance(ref, str) and ref:
            return definitions.get(ref.removeprefix("#/definitions/"))
        kind = _TYPES.get(prop["type"]) if isinstance(prop.get("type"), str) else None
        if kind is None:
            return None
        properties = prop.get("properties")
        return Schema(
            kind,
            (
                {k: property_schema(v) for k, v in properties.items()}
                if isinstance(properties, dict)
                else {}
            ),
            property_schema(prop["items"]) if "items" in prop else None,
        )

    for name, schema in definitions.items():
        made = property_schema(written[name])
        if made is not None and made is not schema:
            schema.kind, schema.properties, schema.items = made.kind, made.properties, made.items
    properties = document.get("properties")
    return Schema(
        "object",
        {k: property_schema(v) for k, v in properties.items()}
        if isinstance(properties, dict)
        else {},
    )


def coerce(value: Any, schema: Schema | None) -> Any:
    """``value`` with each written scalar changed to its schema type (see the
    module docstring); objects and lists are copied where the schema says what
    they hold, left as they are otherwise."""
    if schema is None:
        return value
    if isinstance(value, list):
        if schema.kind != "array" or schema.items is None:
            return value
        return [coerce(item, schema.items) for item in value]
    if isinstance(value, dict):
        if schema.kind != "object":
            return value
        return {
            k: coerce(v, schema.properties[k]) if k in schema.properties else v
            for k, v in value.items()
        }
    if isinstance(value, str):
        return _from_text(value, schema.kind)
    if isinstance(value, bool) or schema.kind != "string":
        return value
    if isinstance(value, int):
        return str(value) if -_INT64 <= value < _INT64 else value
    if isinstance(value, float) and math.isfinite(value):
        return f"{value:.6f}"
    return value


def _from_text(text: str, kind: str) -> Any:
    """Text under a ``bool``, ``int`` or ``float`` schema, as Go's ``strconv`` reads it."""
    if kind == "bool":
        return text.lower() == "true"
    if kind == "int" and _GO_INT.fullmatch(text):
        if len(text.lstrip("+-").lstrip("0")) > 19:  # past int64; Python refuses ~4,300 digits
            return text
        number = int(text)
        return number if -_INT64 <= number < _INT64 else text
    if kind == "float":
        if _GO_DECIMAL_FLOAT.fullmatch(text):
            real = float(text)
        elif _GO_HEX_FLOAT.fullmatch(text):
            real = float.fromhex(text)
        else:
            return text
        return real if math.isfinite(real) else text
    return text
