"""What a file is: its kind by name, its text, its documents, and which loader
they belong to.

Detection is by content. A file's name only says how to parse it (``.json``
as JSON, ``.yaml``/``.yml`` as YAML, ``.template`` as either, ``.tf`` and
``.tf.json`` as Terraform configuration); the parsed documents are then
offered, in order, to: existing State documents, Terraform plan, Terraform
state, CloudFormation, ARM, and Kubernetes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.inputs.loaders.documents import parse_json, parse_yaml
from engine.inputs.loaders.input_types import loader_module
from engine.inputs.loaders.limits import check_depth
from engine.inputs.loaders.loaded import LoadedState, LoaderError
from engine.inputs.state import states_in_document

DOCUMENT_INPUT_TYPES = ("tf_plan", "tf_state", "cfn", "arm")
"""Single-document formats, in the order they are tried."""

IAC_SUFFIXES = (".json", ".yaml", ".yml", ".template", ".tf", ".tfstate")
"""File name endings of IaC files (``.tf.json`` ends with ``.json``; a raw
Terraform state is ``terraform.tfstate``)."""


class DocumentLoader(Protocol):
    """A loader of one parsed JSON or YAML document (a format module)."""

    INPUT_TYPE: str

    def recognises(self, doc: Any) -> bool: ...

    def load(self, doc: Any, raw: bytes, path: str) -> LoadedState: ...


def is_hcl_file(name: str) -> bool:
    """Whether a file name is Terraform configuration (``.tf`` or ``.tf.json``)."""
    return name.endswith((".tf", ".tf.json"))


def has_iac_suffix(name: str) -> bool:
    """Whether a file name ends like an IaC file (a parse failure is then an error)."""
    return name.endswith(IAC_SUFFIXES)


_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _line_column(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, offset - line_start + 1


def utf8_text(raw: bytes) -> bytes:
    """The file's text as UTF-8 bytes: a byte-order mark (UTF-8, UTF-16 or
    UTF-32) is honoured and dropped; binary data, UTF-16 without a mark and
    bytes that are not UTF-8 (e.g. latin-1) raise :class:`LoaderError`."""
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            try:
                return raw[len(bom) :].decode(encoding).encode()
            except UnicodeDecodeError as exc:
                raise LoaderError(f"not valid {encoding.upper()} ({exc.reason})") from None
    nul = raw.find(b"\x00")
    if nul >= 0:
        sample = raw[:4096]
        if sample.count(b"\x00") * 3 >= len(sample):
            raise LoaderError("looks like UTF-16 text without a byte-order mark; save it as UTF-8")
        line, column = _line_column(raw, nul)
        raise LoaderError(f"binary data, not text (a NUL byte at column {column})", line)
    if not raw.isascii():
        try:
            raw.decode()
        except UnicodeDecodeError as exc:
            line, column = _line_column(raw, exc.start)
            raise LoaderError(
                f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {column}); "
                "save it as UTF-8",
                line,
            ) from None
    return raw


def parse_documents(name: str, text: bytes) -> list[Any]:
    """Every document of a file: JSON for ``.json``, YAML for ``.yaml``/``.yml``,
    and for other names JSON when the text starts with ``{`` or ``[``, else YAML;
    none nested deeper than :data:`engine.inputs.loaders.limits.MAX_DEPTH`."""
    if name.endswith(".json") or (
        not name.endswith((".yaml", ".yml")) and text.lstrip()[:1] in (b"{", b"[")
    ):
        documents = [parse_json(text)]
    else:
        documents = parse_yaml(text)
    for document in documents:
        check_depth(document)
    return documents


@dataclass(frozen=True)
class Detected:
    """What a file's documents are: ``states`` (State documents, ``listed``
    when the file holds a list of them), a ``loader`` for its one document,
    or Kubernetes ``manifests``."""

    states: Sequence[dict[str, Any]] = ()
    listed: bool = False
    loader: DocumentLoader | None = None
    manifests: bool = False


def detect(documents: Sequence[Any], input_type: str | None = None) -> Detected | None:
    """Which loader ``documents`` (one file's) belong to; None when no format
    recognises them. ``input_type`` restricts detection to that one format."""
    if len(documents) == 1:
        doc = documents[0]
        states = states_in_document(doc)
        if states is not None and (
            input_type is None or any(s.get("input_type") == input_type for s in states)
        ):
            return Detected(states=states, listed=isinstance(doc, list))
        for candidate in DOCUMENT_INPUT_TYPES:
            if input_type in (None, candidate):
                loader: DocumentLoader = loader_module(candidate)
                if loader.recognises(doc):
                    return Detected(loader=loader)
    if input_type in (None, "k8s") and any(loader_module("k8s").recognises(d) for d in documents):
        return Detected(manifests=True)
    return None
