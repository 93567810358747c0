"""Source locations: where in its file a resource or one of its attributes is written.

Loaders attach a :class:`SourceMap` to each State they produce. Locations are
computed lazily: a scan asks only for the resources and attribute paths that
appear in results, so the position-tracking parse happens at most once per
file, and only when a result needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import yaml

AttributePath = tuple[str | int, ...]
"""A path into a resource's attributes: object keys and list indices."""

_Composer = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_NULL_TAG = "tag:yaml.org,2002:null"


@dataclass(frozen=True, order=True)
class SourceLocation:
    """A position in a file: ``line`` and ``column`` count from 1."""

    path: str
    line: int
    column: int

    def to_json(self) -> dict[str, Any]:
        """The location as results documents write it."""
        return {"filepath": self.path, "line": self.line, "column": self.column}


class SourceMap(Protocol):
    """Answers where a resource of a State, or an attribute of it, is written."""

    def resource_location(self, resource_type: str, key: str) -> SourceLocation | None:
        """Where the resource ``key`` of ``resource_type`` starts, if known."""
        ...

    def attribute_location(
        self, resource_type: str, key: str, path: AttributePath
    ) -> SourceLocation | None:
        """Where the attribute at ``path`` is written; the nearest written
        ancestor when the path itself is not (e.g. a default or computed value)."""
        ...


DocumentPath = tuple[str | int, ...]
"""A path into the parsed document of a JSON or YAML file (mapping keys, sequence indices)."""


class DocumentSourceMap:
    """A :class:`SourceMap` over one JSON or YAML file (any number of YAML documents).

    ``resource_paths`` maps ``(resource_type, key)`` to ``(document index,
    document path of the resource)``; ``attribute_path`` turns an attribute
    path into the document path below the resource (identity by default:
    formats that rename or nest attributes pass their own). The file is
    composed into position-tracking nodes on the first lookup.
    """

    def __init__(
        self,
        path: str,
        text: str | bytes,
        resource_paths: dict[tuple[str, str], tuple[int, DocumentPath]],
        attribute_path: Callable[[str, AttributePath], DocumentPath] | None = None,
    ) -> None:
        self.path = path
        self._text = text
        self._resource_paths = resource_paths
        self._attribute_path = attribute_path or (lambda _type, p: p)
        self._documents: list[yaml.Node] | None = None

    def _nodes(self) -> list[yaml.Node]:
        if self._documents is None:
            try:
                # Numbered as engine.loaders.documents.parse_yaml numbers them:
                # empty and null documents do not count.
                self._documents = [
                    d
                    for d in yaml.compose_all(self._text, Loader=_Composer)
                    if d is not None and d.tag != _NULL_TAG
                ]
            except yaml.YAMLError:
                self._documents = []
            self._text = b""
        return self._documents

    def _location(self, node: yaml.Node) -> SourceLocation:
        mark = node.start_mark
        return SourceLocation(self.path, mark.line + 1, mark.column + 1)

    def _deepest(self, doc: int, path: Sequence[str | int]) -> yaml.Node | None:
        """The node that marks the deepest written step of ``path``: the key of
        a mapping entry (where its line starts), or a sequence item."""
        nodes = self._nodes()
        if doc >= len(nodes):
            return None
        node = marker = nodes[doc]
        for step in path:
            found = _child(node, step)
            if found is None:
                break
            marker, node = found
        return marker

    def resource_location(self, resource_type: str, key: str) -> SourceLocation | None:
        found = self._resource_paths.get((resource_type, key))
        if found is None:
            return None
        node = self._deepest(*found)
        return self._location(node) if node is not None else None

    def attribute_location(
        self, resource_type: str, key: str, path: AttributePath
    ) -> SourceLocation | None:
        found = self._resource_paths.get((resource_type, key))
        if found is None:
            return None
        doc, base = found
        node = self._deepest(doc, (*base, *self._attribute_path(resource_type, path)))
        return self._location(node) if node is not None else None


def _child(node: yaml.Node, step: str | int) -> tuple[yaml.Node, yaml.Node] | None:
    """(marker, child) for one step down from ``node``."""
    if isinstance(node, yaml.MappingNode) and isinstance(step, str):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == step:
                return key_node, value_node
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(step, int):
        item = node.value[step] if 0 <= step < len(node.value) else None
        return (item, item) if item is not None else None
    return None
