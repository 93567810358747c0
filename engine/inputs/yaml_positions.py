"""Positions in a YAML file: the composed node trees a source map locates
attribute paths in when the file is not JSON."""

from __future__ import annotations

from collections.abc import Sequence

import yaml

_Composer = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_NULL_TAG = "tag:yaml.org,2002:null"


class YamlPositions:
    """Position-tracking YAML nodes, numbered as ``parse_yaml`` numbers documents
    (empty and null documents do not count), with mapping keys indexed."""

    def __init__(self, text: str) -> None:
        try:
            self._documents = [
                d
                for d in yaml.compose_all(text, Loader=_Composer)
                if d is not None and d.tag != _NULL_TAG
            ]
        except yaml.YAMLError:
            self._documents = []
        self._keys: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}

    def locate(self, doc: int, path: Sequence[str | int]) -> tuple[int, int] | None:
        """(line, column) of the deepest written step of ``path`` in document ``doc``."""
        if doc >= len(self._documents):
            return None
        node = marker = self._documents[doc]
        for step in path:
            found = self._child(node, step)
            if found is None:
                break
            marker, node = found
        return marker.start_mark.line + 1, marker.start_mark.column + 1

    def _child(self, node: yaml.Node, step: str | int) -> tuple[yaml.Node, yaml.Node] | None:
        if isinstance(node, yaml.MappingNode) and isinstance(step, str):
            keys = self._keys.get(id(node))
            if keys is None:
                keys = self._keys[id(node)] = {}
                for key_node, value_node in node.value:
                    if isinstance(key_node, yaml.ScalarNode):
                        keys.setdefault(key_node.value, (key_node, value_node))
            return keys.get(step)
        if isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            item = node.value[step] if 0 <= step < len(node.value) else None
            return (item, item) if item is not None else None
        return None
