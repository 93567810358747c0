"""Small YAML settings files read node by node, so every mistake names its line.

Used by the configuration file and the ignore file: each is one YAML
document whose keys and values are checked one by one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.confined_files import read_confined

if TYPE_CHECKING:
    import yaml


class YamlFileError(ValueError):
    """A settings file that cannot be read or holds a bad value: file, line, what."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}")


def compose_file(path: Path, root: Path | None = None) -> yaml.Node | None:
    """The YAML document in ``path`` as a node tree (None for an empty file); with
    ``root``, a file whose real path leaves ``root`` is not read."""
    import yaml

    try:
        text = read_confined(path, root).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise YamlFileError(path, None, f"cannot read: {reason}") from None
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlFileError(path, line, f"invalid YAML: {problem}") from None


def line_of(node: yaml.Node) -> int:
    """The 1-based line a node starts on."""
    return int(node.start_mark.line) + 1


def mapping_items(node: yaml.Node, path: Path, what: str) -> list[tuple[str, int, yaml.Node]]:
    """The (key, key's line, value node) triples of a mapping node; keys must
    be distinct strings."""
    import yaml

    if not isinstance(node, yaml.MappingNode):
        raise YamlFileError(path, line_of(node), f"{what} must be a mapping")
    items: list[tuple[str, int, yaml.Node]] = []
    seen: set[str] = set()
    for key_node, value_node in node.value:
        key = plain_value(key_node, path)
        if not isinstance(key, str):
            raise YamlFileError(path, line_of(key_node), f"{what}: keys must be strings")
        if key in seen:
            raise YamlFileError(path, line_of(key_node), f"{what}: duplicate key {key!r}")
        seen.add(key)
        items.append((key, line_of(key_node), value_node))
    return items


def plain_value(node: yaml.Node, path: Path) -> Any:
    """The Python value of a node, as ``yaml.safe_load`` would give it."""
    import yaml

    try:
        return yaml.SafeLoader("").construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError) as exc:
        raise YamlFileError(path, line_of(node), f"invalid value: {exc}") from None
