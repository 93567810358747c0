"""Which relation queries user modules make, read from their Rego text.

Rules name relations literally (seed 000): ``snyk.relates(b, "aws_s3_bucket.logging")``.
Reading those calls tells the catalogue which relations a rule uses
(:mod:`engine.inspection.rule_catalogue`) and tells the scan which parts of the relation
index to put into Wasm memory (:func:`index_parts`): ``relates`` reads the
forward lookups, ``back_relates`` the backward ones, and the ``_with``
variants those plus the annotated trees. A part no call can reach is not
built or parsed.

A name written as a string literal, or as a constant rule (``name := "..."``)
of the calling module's files, is known; any other name expression is not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import NamedTuple

from engine.rules.rego_outline import calls, name_counts
from engine.rules.sources import RegoFile

RELATION_QUERIES: dict[str, int] = {
    "relates": 1,
    "back_relates": 0,
    "relates_with": 1,
    "back_relates_with": 0,
}
"""The ``snyk`` relation queries and the position of their relation-name argument."""

INDEX_KEY = "__rego_engine_input"
"""The data key the relation index is injected under (:mod:`engine.relations.snyk_api`)."""

INDEX_READERS = ("_places", "_annotated")
"""The shipped ``snyk`` library's helpers that read the index for the queries."""

_CONSTANT = r'^[ \t]*{name}[ \t]*:?=[ \t]*("(?:[^"\\\n]|\\.)*")[ \t]*(?:#.*)?$'

_PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "relates": (("r", "fwd"),),
    "back_relates": (("r", "back"),),
    # Resources without an annotated entry fall back to the plain one.
    "relates_with": (("r", "fwd"), ("a", "fwd")),
    "back_relates_with": (("r", "back"), ("a", "back")),
}


class QueryCall(NamedTuple):
    """One call of a ``snyk`` relation query; ``name`` is None when not written literally."""

    query: str
    name: str | None


class IndexPart(NamedTuple):
    """One tree of the injected index: ``r`` or ``a``, ``fwd`` or ``back``, of one relation."""

    tree: str
    direction: str
    name: str


def query_calls(files: list[RegoFile]) -> list[QueryCall]:
    """The relation query calls in ``files`` (one package's modules)."""
    text = "\n".join(f.text for f in files)
    found = []
    for call in (c for f in files for c in calls(f.text)):
        parts = call.name.split(".")
        if len(parts) < 2 or parts[-2] != "snyk" or parts[-1] not in RELATION_QUERIES:
            continue
        position = RELATION_QUERIES[parts[-1]]
        arg = call.args[position].strip() if position < len(call.args) else ""
        literal = string_literal(arg)
        if literal is None and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", arg):
            constants = re.findall(_CONSTANT.format(name=re.escape(arg)), text, re.MULTILINE)
            literal = string_literal(constants[0]) if len(set(constants)) == 1 else None
        found.append(QueryCall(parts[-1], literal))
    return found


def string_literal(text: str) -> str | None:
    """The value of a Rego string literal (quoted or raw), else None."""
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        try:
            return str(json.loads(text))
        except json.JSONDecodeError:
            return None
    if text.startswith("`") and text.endswith("`") and len(text) >= 2:
        return text[1:-1]
    return None


def index_parts(user_files: Iterable[RegoFile]) -> frozenset[IndexPart] | None:
    """The index parts the user modules can reach, or None when that is not
    known from their text (then every part is injected).

    Known means: every mention of a query name is a ``snyk.`` query call with
    its relation name written literally, and nothing names the index or the
    library's helpers reading it. Anything else (a name computed at run time,
    an import alias, a user function of the same name, reading the index
    directly) makes it unknown.
    """
    parts: set[IndexPart] = set()
    for file in user_files:
        mentions = name_counts(file.text)
        if any(mentions[name] for name in (INDEX_KEY, *INDEX_READERS)):
            return None
        found = query_calls([file])
        if sum(mentions[q] for q in RELATION_QUERIES) != len(found):
            return None
        for query, name in found:
            if name is None:
                return None
            parts.update(IndexPart(tree, direction, name) for tree, direction in _PARTS[query])
    return frozenset(parts)
