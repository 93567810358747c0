"""Limits on what a parsed document may hold: nesting depth and YAML aliasing.

Inputs and data documents come from people the operator may not trust. A
document nested thousands of levels deep overflows recursive code (libyaml's
composer overflows the C stack and kills the process), and a YAML "billion
laughs" (anchors referring to anchors) expands from a few hundred bytes to
billions of values. These checks refuse both with a :class:`LoaderError`
before anything walks the document.

- Nesting: at most :data:`MAX_DEPTH` arrays/objects inside each other, the
  depth the engine's JSON serialiser (orjson) handles. Checked by that
  serialiser itself (a C pass, about 4% of a load) on every JSON and YAML
  document, and on the States of Terraform modules.
- YAML (inputs, ``-d`` data documents, ``eval`` inputs): before libyaml
  composes a stream that could nest deeper than it handles (judged from
  bracket counts and indentation in C-speed passes, about 1.5% of a load),
  its events are counted (6-15% of a load, measured on a 10,000-resource
  CloudFormation template); when the stream defines anchors, each composed
  document's node graph is measured: depth through aliases, recursive
  aliases, and the size it expands to, refused when aliases make up more of
  it than go-yaml v3 allows.
"""

from __future__ import annotations

from typing import Any

import orjson

from engine.core.address_space import ORJSON_WRITE_ROOM, room_for
from engine.core.yaml_limits import MAX_DEPTH, too_deep_message
from engine.inputs.loaders.loaded import LoaderError


def depth_of(value: Any) -> int:
    """How many arrays/objects nest inside each other in ``value`` (iterative)."""
    depth = 0
    level = [value] if isinstance(value, (dict, list)) else []
    while level:
        depth += 1
        below: list[Any] = []
        for item in level:
            children = item.values() if isinstance(item, dict) else item
            below += [c for c in children if isinstance(c, (dict, list))]
        level = below
    return depth


def check_depth(document: Any) -> None:
    """Raise :class:`LoaderError` when ``document`` nests deeper than :data:`MAX_DEPTH`."""
    if room_for(ORJSON_WRITE_ROOM):  # orjson crashes when an allocation fails
        try:
            orjson.dumps(document)
            return
        except TypeError as exc:
            if "Recursion limit" in str(exc):
                raise LoaderError(too_deep_message()) from None
    # Values orjson does not serialise (big integers): measure the slow way.
    if depth_of(document) > MAX_DEPTH:
        raise LoaderError(too_deep_message())
