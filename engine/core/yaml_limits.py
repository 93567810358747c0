"""Limits on a YAML stream before and after libyaml composes it: nesting depth
and aliasing.

A document nested thousands of levels deep overflows recursive code
(libyaml's composer overflows the C stack and kills the process), and a YAML
"billion laughs" (anchors referring to anchors) expands from a few hundred
bytes to billions of values. Before libyaml composes a stream that could nest
deeper than it handles (judged from bracket counts and indentation in
C-speed passes, about 1.5% of a load), its events are counted (6-15% of a
load, measured on a 10,000-resource CloudFormation template); when the
stream defines anchors, each composed document's node graph is measured:
depth through aliases, recursive aliases, and the size it expands to,
refused when aliases make up more of it than go-yaml v3 allows. Refusals are
:class:`~engine.core.document_error.DocumentError`.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import TYPE_CHECKING

from engine.core.document_error import DocumentError

if TYPE_CHECKING:
    import yaml

MAX_DEPTH = 254
"""Arrays and objects nested inside each other, at most (orjson's own limit)."""

_COMPOSER_SAFE = 4000
"""Nesting libyaml composes and PyYAML constructs without trouble on an 8 MiB
stack (measured: 20,000 levels compose; a 100,000-level stream crashes)."""
_COMPACT_DASHES = re.compile(rb"-(?=[ ]+-)")
_ANCHOR = re.compile(rb"(?:^|[\s\[{,])&\S", re.MULTILINE)


def too_deep_message() -> str:
    """The error of a document nested too deep."""
    return f"nested deeper than {MAX_DEPTH} levels (the limit on nesting depth)"


def _max_indent(data: bytes) -> int:
    """The deepest indentation of any line (a binary search of substring tests)."""
    low, high = 0, len(data)
    while low < high:
        middle = (low + high + 1) // 2
        if b"\n" + b" " * middle in data:
            low = middle
        else:
            high = middle - 1
    return low


def _yaml_depth_bound(data: bytes) -> int:
    """An upper bound on how deep a YAML stream can nest, from C-speed passes:
    flow brackets anywhere, block nesting (each level indents further, and a
    sequence may share its mapping's indentation), and compact ``- - -``
    entries (each after the first follows another dash on its line)."""
    flow = data.count(b"[") + data.count(b"{") + data.count(b"?")
    compact = len(_COMPACT_DASHES.findall(data))
    return flow + 2 * (_max_indent(data) + 1) + compact


def _count_events(data: bytes) -> None:
    """Refuse a stream nested deeper than :data:`MAX_DEPTH`, from its parse
    events (no recursion: libyaml's parser is iterative)."""
    import yaml

    depth = 0
    for event in yaml.parse(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise DocumentError(too_deep_message(), None if mark is None else mark.line + 1)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def check_yaml_stream(raw: bytes | str) -> None:
    """Make sure libyaml can compose ``raw`` (its composer recurses in C and
    crashes the process past some 20,000 levels): streams that cannot nest
    deeper than :data:`_COMPOSER_SAFE` pass at once, others are measured from
    their events and refused past :data:`MAX_DEPTH`."""
    data = raw.encode() if isinstance(raw, str) else raw
    if _yaml_depth_bound(data) > _COMPOSER_SAFE:
        _count_events(data)


def has_anchor(raw: bytes) -> bool:
    """Whether a YAML stream may define an anchor (and so hold aliases)."""
    return b"&" in raw and _ANCHOR.search(raw) is not None


def _children(pyyaml: ModuleType, node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, pyyaml.SequenceNode):
        return list(node.value)
    if isinstance(node, pyyaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def check_yaml_node(root: yaml.Node) -> None:
    """Refuse a composed YAML document that nests too deep through aliases,
    refers to itself, or expands through aliases beyond go-yaml v3's ratio."""
    import yaml

    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            children = _children(yaml, node)
            size[key] = 1 + sum(size[id(c)] for c in children)
            nested = max((depth[id(c)] for c in children), default=0)
            depth[key] = nested + (0 if isinstance(node, yaml.ScalarNode) else 1)
            if depth[key] > MAX_DEPTH:
                raise DocumentError(too_deep_message(), node.start_mark.line + 1)
            continue
        if key in size:
            continue
        if key in open_nodes:
            line = node.start_mark.line + 1
            raise DocumentError("the YAML document contains itself (through an alias)", line)
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(yaml, node) if id(c) not in size)
    expanded, written = size[id(root)], len(size)
    allowed = allowed_alias_ratio(expanded)
    if expanded > 100 and (expanded - written) / expanded > allowed:
        raise DocumentError(
            f"YAML aliases expand the document to {expanded:,} values from {written:,} "
            f"written (a 'billion laughs' document; aliases may make up {allowed:.0%} of "
            "a document this size, as in go-yaml v3); refused"
        )


def allowed_alias_ratio(count: int) -> float:
    """The share of aliases go-yaml v3 allows in a document of ``count`` decoded values."""
    if count <= 400_000:
        return 0.99
    if count >= 4_000_000:
        return 0.10
    return 0.99 - 0.89 * ((count - 400_000) / 3_600_000)
