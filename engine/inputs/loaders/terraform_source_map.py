"""Where each resource of a Terraform State, and each of its arguments, is written."""

from __future__ import annotations

from dataclasses import dataclass

from engine.inputs.loaders.terraform_blocks import Block, Body
from engine.inputs.source_map import AttributePath, DocumentSourceMap, SourceLocation


@dataclass(frozen=True)
class Placement:
    block: Block
    document_path: tuple[str, ...]


class TerraformSourceMap:
    """Where each resource of a Terraform State, and its arguments, are written."""

    def __init__(self, placements: dict[tuple[str, str], Placement], json_files: dict[str, bytes]):
        self._placements = placements
        self._json_files = json_files
        self._json_maps: dict[str, DocumentSourceMap] = {}

    def _json_map(self, placement: Placement) -> DocumentSourceMap | None:
        file = placement.block.file
        if file not in self._json_files:
            return None
        if file not in self._json_maps:
            paths: dict[tuple[str, str], tuple[int, AttributePath]] = {
                key: (0, p.document_path)
                for key, p in self._placements.items()
                if p.block.file == file
            }
            self._json_maps[file] = DocumentSourceMap(file, self._json_files[file], paths)
        return self._json_maps[file]

    def resource_location(self, resource_type: str, key: str) -> SourceLocation | None:
        placement = self._placements.get((resource_type, key))
        if placement is None:
            return None
        json_map = self._json_map(placement)
        if json_map is not None:
            return json_map.resource_location(resource_type, key)
        block = placement.block
        return SourceLocation(block.file, block.line, block.column)

    def attribute_location(
        self, resource_type: str, key: str, path: AttributePath
    ) -> SourceLocation | None:
        placement = self._placements.get((resource_type, key))
        if placement is None:
            return None
        json_map = self._json_map(placement)
        if json_map is not None:
            return json_map.attribute_location(resource_type, key, path)
        return SourceLocation(*_locate(placement.block, path))


def _locate(block: Block, path: AttributePath) -> tuple[str, int, int]:
    """File, line and column of the deepest written step of ``path`` below ``block``."""
    best = (block.file, block.line, block.column)
    body: Body | None = block.body
    steps = list(path)
    while steps and body is not None:
        name = steps.pop(0)
        if not isinstance(name, str):
            break
        if name in body.attributes:
            found = body.attributes[name]
            return found.file or best[0], found.line, found.column
        matches = [
            b
            for b in body.blocks
            if b.type == name or (b.type == "dynamic" and b.labels[:1] == (name,))
        ]
        if not matches:
            break
        position = 0
        if steps and isinstance(head := steps[0], int):
            position = head
            del steps[0]
        chosen = matches[min(position, len(matches) - 1)]
        best = (chosen.file, chosen.line, chosen.column)
        if chosen.type == "dynamic":
            content = next((b for b in chosen.body.blocks if b.type == "content"), None)
            body = content.body if content is not None else None
        else:
            body = chosen.body
    return best
