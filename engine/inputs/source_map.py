"""Source locations: where in its file a resource or one of its attributes is written.

Loaders attach a :class:`SourceMap` to each State they produce. Locations are
computed lazily: a scan asks only for the resources and attribute paths that
appear in results, so the position-tracking parse happens at most once per
file, and only when a result needs it.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine.inputs.yaml_positions import YamlPositions

AttributePath = tuple[str | int, ...]
"""A path into a resource's attributes: object keys and list indices."""


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
    formats that rename or nest attributes pass their own).

    JSON text is walked lazily: a lookup reads only the members that come
    before its target in each container it descends through, and remembers
    their offsets. YAML is composed into position-tracking nodes on the
    first lookup. Either way a location marks the key of a mapping entry
    (where its line starts) or a sequence item.
    """

    def __init__(
        self,
        path: str,
        text: str | bytes,
        resource_paths: dict[tuple[str, str], tuple[int, DocumentPath]],
        attribute_path: Callable[[str, AttributePath], DocumentPath] | None = None,
    ) -> None:
        self.path = path
        self._resource_paths = resource_paths
        self._attribute_path = attribute_path or (lambda _type, p: p)
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        self._text = text.removeprefix("\ufeff")
        self._json: _JsonPositions | None = None
        if self._text.lstrip()[:1] in ("{", "["):
            self._json = _JsonPositions(self._text)
        self._yaml: YamlPositions | None = None

    def _find(self, doc: int, path: Sequence[str | int]) -> SourceLocation | None:
        if self._json is not None:
            try:
                if doc != 0:
                    return None
                line, column = self._json.locate(path)
                return SourceLocation(self.path, line, column)
            except (ValueError, IndexError):
                self._json = None  # not JSON after all (YAML flow style): compose it
        if self._yaml is None:
            from engine.inputs.yaml_positions import YamlPositions

            self._yaml = YamlPositions(self._text)
        found = self._yaml.locate(doc, path)
        return SourceLocation(self.path, *found) if found is not None else None

    def resource_location(self, resource_type: str, key: str) -> SourceLocation | None:
        found = self._resource_paths.get((resource_type, key))
        return self._find(*found) if found is not None else None

    def attribute_location(
        self, resource_type: str, key: str, path: AttributePath
    ) -> SourceLocation | None:
        found = self._resource_paths.get((resource_type, key))
        if found is None:
            return None
        doc, base = found
        return self._find(doc, (*base, *self._attribute_path(resource_type, path)))


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
# JSONDecoder.__init__ sets scan_once; typeshed leaves it out.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_SCALAR = r"(?:" + _STRING + r"|-?[0-9][-+.0-9eE]*|true|false|null|NaN|-?Infinity)"
_KEY = r'[ \t\n\r]*("([^"\\]*(?:\\.[^"\\]*)*)")[ \t\n\r]*:[ \t\n\r]*'
_MEMBER = re.compile(r"[ \t\n\r]*,?" + _KEY)
"""An object's next member up to its value: the comma before it (none before
the first), its key (group 1 quoted, group 2 as written) and the colon."""
_PAST_SCALAR = re.compile(_SCALAR + r"[ \t\n\r]*," + _KEY)
"""A value that is no object or array, then the next member up to its value."""
_SCALAR_VALUE = re.compile(_SCALAR)
"""A value that is no object or array (an object or array is skipped by the C
scanner of :mod:`json`)."""


@dataclass
class _Members:
    """What has been read of one JSON container: entries by key (objects) or
    item offsets (arrays), and where reading resumes (-1: at the end)."""

    keys: dict[str, tuple[int, int]]
    items: list[int]
    resume: int
    pending: bool = False
    """Whether ``resume`` is at a value not yet skipped (the last one found)."""


class _JsonPositions:
    """Offsets of JSON values, found by reading only what lookups need."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._read: dict[int, _Members] = {}
        self._newlines: list[int] | None = None
        self._reached: dict[tuple[str | int, ...], tuple[int, int]] = {}
        """(marker, offset) of every value a lookup has reached, by its path: a
        lookup starts from the deepest of its prefixes found there."""

    def locate(self, path: Sequence[str | int]) -> tuple[int, int]:
        """(line, column) of the deepest written step of ``path``."""
        path = tuple(path)
        reached = self._reached
        depth = len(path)
        while depth and path[:depth] not in reached:
            depth -= 1
        if depth:
            marker, node = reached[path[:depth]]
        else:
            node = marker = self._space(0)
        for at in range(depth, len(path)):
            found = self._child(node, path[at])
            if found is None:
                break
            marker, node = reached[path[: at + 1]] = found
        return self._line_column(marker)

    def _line_column(self, offset: int) -> tuple[int, int]:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_left(self._newlines, offset)
        start = self._newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1

    def _space(self, pos: int) -> int:
        # '[ \t\n\r]*' matches at every position: the match is never None
        return _SPACE.match(self.text, pos).end()  # type: ignore[union-attr]

    def _child(self, offset: int, step: str | int) -> tuple[int, int] | None:
        opener = self.text[offset]
        if opener == "{" and isinstance(step, str):
            return self._member(offset, step)
        if opener == "[" and isinstance(step, int) and step >= 0:
            return self._item(offset, step)
        return None

    def _past_value(self, pos: int) -> int:
        """The offset just past the value at ``pos``."""
        text = self.text
        if text[pos] in "{[":
            try:
                return _SCAN(text, pos)[1]
            except StopIteration:
                raise ValueError(f"expected a value at offset {pos}") from None
        found = _SCALAR_VALUE.match(text, pos)
        if found is None:
            raise ValueError(f"expected a value at offset {pos}")
        return found.end()

    def _next(self, members: _Members, closer: str) -> int | None:
        """Move past the pending value and its comma: the next entry's offset."""
        text = self.text
        pos = members.resume
        if members.pending:
            pos = self._space(self._past_value(pos))
            members.pending = False
        if text[pos] == ",":
            pos = self._space(pos + 1)
        if text[pos] == closer:
            members.resume = -1
            return None
        return pos

    def _member(self, offset: int, key: str) -> tuple[int, int] | None:
        members = self._read.get(offset)
        if members is None:
            members = self._read[offset] = _Members({}, [], self._space(offset + 1))
        text = self.text
        keys = members.keys
        while key not in keys and members.resume >= 0:
            pos = members.resume
            found = None
            if members.pending:
                found = _PAST_SCALAR.match(text, pos)
                if found is None:
                    pos = self._past_value(pos)
                members.pending = False
            if found is None:
                found = _MEMBER.match(text, pos)
            if found is None:
                if text[self._space(pos)] != "}":
                    raise ValueError(f"expected a member or '}}' at offset {pos}")
                members.resume = -1
                break
            name = found.group(2)
            if "\\" in name:
                name = json.loads(found.group(1))
            value = found.end()
            keys.setdefault(name, (found.start(1), value))
            members.resume, members.pending = value, True
        return keys.get(key)

    def _item(self, offset: int, index: int) -> tuple[int, int] | None:
        members = self._read.get(offset)
        if members is None:
            members = self._read[offset] = _Members({}, [], self._space(offset + 1))
        while len(members.items) <= index and members.resume >= 0:
            start = self._next(members, "]")
            if start is None:
                break
            members.items.append(start)
            members.resume, members.pending = start, True
        if index < len(members.items):
            return members.items[index], members.items[index]
        return None
