"""Limits on what a parsed document may hold: nesting depth and YAML aliasing.

Inputs and data documents come from people the operator may not trust. A
document nested thousands of levels deep overflows recursive code (libyaml's
composer overflows the C stack and kills the process), and a YAML "billion
laughs" (anchors referring to anchors) expands from a few hundred bytes to
billions of values. These checks refuse both with a :class:`LoaderError`
before anything walks the document.

- Nesting: at most :data:`MAX_DEPTH` arrays/objects inside each other, the
  depth the engine's JSON serialiser (orjson) handles. Checked by that
  serialiser itself (a C pass, about 4% of a load) on every loaded State,
  whatever its format.
- YAML: before libyaml composes a stream that could be deep (more indicator
  characters than :data:`MAX_DEPTH`), its events are counted (about 15% of a
  YAML load); after composing, each document's node graph is measured:
  depth through aliases, recursive aliases, and the size it expands to,
  refused when aliases make up more of it than go-yaml v3 allows.
"""

from __future__ import annotations

from typing import Any

import orjson
import yaml

from engine.host_builtins.yaml_json import allowed_alias_ratio
from engine.loaders.loaded import LoaderError

MAX_DEPTH = 254
"""Arrays and objects nested inside each other, at most (orjson's own limit)."""

_YAML_INDICATORS = (b"[", b"{", b"-", b"?", b":")
"""Every YAML nesting level costs at least one of these characters."""


def too_deep_message() -> str:
    return f"nested deeper than {MAX_DEPTH} levels (the limit on nesting depth)"


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
    try:
        orjson.dumps(document)
        return
    except TypeError as exc:
        if "Recursion limit" in str(exc):
            raise LoaderError(too_deep_message()) from None
    # Values orjson does not serialise (big integers): measure the slow way.
    if depth_of(document) > MAX_DEPTH:
        raise LoaderError(too_deep_message())


def check_yaml_stream(raw: bytes | str) -> None:
    """Refuse a YAML stream nested deeper than :data:`MAX_DEPTH` before libyaml
    composes it (its composer recurses in C). Cheap when the text is too short
    to nest that deep."""
    data = raw.encode() if isinstance(raw, str) else raw
    if sum(data.count(c) for c in _YAML_INDICATORS) <= MAX_DEPTH:
        return
    depth = 0
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for event in yaml.parse(data, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise LoaderError(too_deep_message(), event.start_mark.line + 1)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def check_yaml_node(root: yaml.Node) -> None:
    """Refuse a composed YAML document that nests too deep through aliases,
    refers to itself, or expands through aliases beyond go-yaml v3's ratio."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            children = _children(node)
            size[key] = 1 + sum(size[id(c)] for c in children)
            nested = max((depth[id(c)] for c in children), default=0)
            depth[key] = nested + (0 if isinstance(node, yaml.ScalarNode) else 1)
            if depth[key] > MAX_DEPTH:
                raise LoaderError(too_deep_message(), node.start_mark.line + 1)
            continue
        if key in size:
            continue
        if key in open_nodes:
            line = node.start_mark.line + 1
            raise LoaderError("the YAML document contains itself (through an alias)", line)
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in size)
    expanded, written = size[id(root)], len(size)
    if expanded > 100 and (expanded - written) / expanded > allowed_alias_ratio(expanded):
        raise LoaderError(
            f"YAML aliases expand the document to {expanded:,} values from {written:,} "
            "written (a 'billion laughs' document); refused"
        )
