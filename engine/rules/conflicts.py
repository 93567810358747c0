"""Conflicts named as ``opa eval`` names them.

OPA's Wasm runtime aborts a conflicting rule with the location of the
definition that conflicted and no name (``c.rego:3:1: var assignment
conflict``). The rule's full path and where each of its definitions starts
come from the rule heads of the compiled sources (:mod:`engine.rules.rule_heads`):
the abort row falls inside exactly one top-level definition, and every
non-default definition of the same package and head reference is a candidate
for the conflicting values. The values themselves are not reported: the Wasm
runtime does not keep them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules.rule_heads import module_outline, ref_string, rule_at
from engine.rules.sources import RegoFile

CONFLICT_CODE = "eval_conflict_error"
"""OPA's error code of a conflict."""

_ABORT = re.compile(
    r"^(?P<file>.+?):(?P<row>\d+):(?P<col>\d+): "
    r"(?P<what>var assignment conflict|object insert conflict)$"
)


@dataclass(frozen=True)
class Conflict:
    """A conflict at ``file:row``, in OPA's words, with the rule's definitions."""

    file: str
    row: int
    col: int
    message: str
    """``rule data.c.p produced conflicting values`` or ``object keys must be unique``."""
    definitions: tuple[str, ...] = ()
    """``file:row`` of each definition of the conflicting rule, in source order."""

    def __str__(self) -> str:
        """One line: ``c.rego:3: eval_conflict_error: rule data.c.p produced
        conflicting values (definitions at c.rego:2, c.rego:3)``."""
        text = f"{self.file}:{self.row}: {CONFLICT_CODE}: {self.message}"
        if self.definitions:
            text += f" (definitions at {', '.join(self.definitions)})"
        return text

    def listing(self) -> str:
        """The message with one indented line per definition, as ``opa test``
        lists the conflicting values."""
        return self.message + "".join(
            f"{':' if i == 0 else ''}\n  defined at {d}" for i, d in enumerate(self.definitions)
        )


def find_conflict(abort: str, rego_files: Sequence[RegoFile]) -> Conflict | None:
    """The conflict a Wasm abort message reports (its paths already the display
    paths of ``rego_files``), or None when the message is not a conflict."""
    match = _ABORT.match(abort)
    if match is None:
        return None
    file, row, col = match["file"], int(match["row"]), int(match["col"])
    if match["what"] == "object insert conflict":
        return Conflict(file, row, col, "object keys must be unique")
    by_display = {f.display: f for f in rego_files}
    source = by_display.get(file)
    shape = module_outline(source.text, source.rego_version) if source else None
    head = rule_at(shape, row) if shape else None
    if shape is None or head is None or shape.package is None or None in head.ref:
        return Conflict(file, row, col, "conflicting values")
    parts = [*shape.package.split("."), *(p for p in head.ref if p is not None)]
    kind = "function" if head.is_function else "rule"
    message = f"{kind} data.{ref_string(parts)} produced conflicting values"
    if head.is_function:
        message += " for the same inputs"
    return Conflict(file, row, col, message, _definitions(shape.package, head.ref, rego_files))


def _definitions(
    package: str, ref: tuple[str | None, ...], rego_files: Sequence[RegoFile]
) -> tuple[str, ...]:
    """``file:row`` of every non-default definition of ``package``'s rule ``ref``."""
    found: list[str] = []
    for source in rego_files:
        shape = module_outline(source.text, source.rego_version)
        if shape.package != package:
            continue
        found += [
            f"{source.display}:{h.row}" for h in shape.heads if h.ref == ref and not h.is_default
        ]
    return tuple(found)
