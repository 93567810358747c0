"""Terraform's encoding functions: ``base64gzip``, ``csvdecode``,
``textencodebase64``, ``textdecodebase64``, ``urlencode``, ``yamldecode`` and
``yamlencode``.

``yamldecode`` reads YAML with the YAML 1.2 core schema (as Terraform's
``go-cty-yaml``), through :mod:`engine.core.go_yaml` and its limits;
``yamlencode`` writes block style with every string double-quoted and keys
sorted, as ``go-cty-yaml`` does. ``base64gzip`` writes the gzip stream as Go's
``compress/gzip`` frames it (no name, no time, OS byte 255, a sync flush and an
empty final stored block); the compressed bytes are zlib's, which equal Go's
for short texts and decompress to the same text for all.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import csv
import functools
import io
import struct
import urllib.parse
import zlib
from collections.abc import Callable, Mapping
from typing import Any

from engine.inputs.loaders.evaluation_budget import spend_for_json
from engine.inputs.loaders.hcl_conversions import FunctionError, as_string, is_number, to_string
from engine.inputs.loaders.loaded import LoaderError

_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
_GO_FINAL_BLOCK = b"\x01\x00\x00\xff\xff"


def _base64gzip(text: Any) -> str:
    data = as_string(text).encode()
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH) + _GO_FINAL_BLOCK
    trailer = struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)
    return base64.b64encode(_GZIP_HEADER + body + trailer).decode()


def _csvdecode(text: Any) -> list[dict[str, str]]:
    rows = list(csv.reader(io.StringIO(as_string(text), newline=""), strict=True))
    if not rows:
        raise FunctionError("missing header line")
    header, records = rows[0], rows[1:]
    decoded = []
    for number, record in enumerate(records, start=2):
        if len(record) != len(header):
            raise FunctionError(f"record on line {number}: wrong number of fields")
        decoded.append(dict(zip(header, record, strict=True)))
    return decoded


def _codec(encoding: Any) -> str:
    name = as_string(encoding)
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise FunctionError(f"{name!r} is not a supported IANA encoding name or alias") from None


def _textencodebase64(text: Any, encoding: Any) -> str:
    try:
        return base64.b64encode(as_string(text).encode(_codec(encoding))).decode()
    except UnicodeEncodeError:
        raise FunctionError(f"the text cannot be encoded as {encoding!r}") from None


def _textdecodebase64(text: Any, encoding: Any) -> str:
    try:
        data = base64.b64decode(as_string(text), validate=True)
        return data.decode(_codec(encoding))
    except binascii.Error:
        raise FunctionError("the string is not valid base64") from None
    except UnicodeDecodeError:
        raise FunctionError(f"the bytes are not valid {encoding!r}") from None


def _urlencode(text: Any) -> str:
    """Go's ``url.QueryEscape``: a space is ``+``, all but ``A-Za-z0-9-_.~`` escaped."""
    return urllib.parse.quote_plus(as_string(text), safe="")


def _yamldecode(text: Any) -> Any:
    import yaml  # imported on first use: most configurations call no YAML function

    from engine.core.go_yaml import load_yaml_document

    source = as_string(text)
    try:
        documents = sum(
            1 for event in yaml.parse(source) if isinstance(event, yaml.DocumentStartEvent)
        )
        if documents > 1:
            raise FunctionError("unexpected extra content after value")
        return load_yaml_document(source)
    except (yaml.YAMLError, LoaderError) as exc:
        raise FunctionError(f"invalid YAML: {exc}") from None


@functools.cache
def _terraform_yaml_dumper() -> type:
    """PyYAML's safe dumper writing block style, strings double-quoted, as
    ``go-cty-yaml`` writes (made on first use, as :mod:`yaml` is imported)."""
    import yaml

    class TerraformYamlDumper(yaml.SafeDumper):
        pass

    def represent_string(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')

    def represent_number(dumper: yaml.SafeDumper, value: float) -> yaml.Node:
        return dumper.represent_scalar("tag:yaml.org,2002:float", to_string(value))

    TerraformYamlDumper.add_representer(str, represent_string)
    TerraformYamlDumper.add_representer(float, represent_number)
    return TerraformYamlDumper


def _yamlencode(value: Any) -> str:
    spend_for_json(value)
    if (
        value is not None
        and not isinstance(value, bool | str | list | dict)
        and not is_number(value)
    ):
        raise FunctionError(f"cannot encode {type(value).__name__} as YAML")
    import yaml

    return yaml.dump(
        value,
        Dumper=_terraform_yaml_dumper(),
        default_flow_style=False,
        sort_keys=True,
        allow_unicode=True,
        width=float("inf"),
    )


ENCODING_FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "base64gzip": _base64gzip,
    "csvdecode": _csvdecode,
    "textdecodebase64": _textdecodebase64,
    "textencodebase64": _textencodebase64,
    "urlencode": _urlencode,
    "yamldecode": _yamldecode,
    "yamlencode": _yamlencode,
}
"""The encoding functions."""
