"""``print()`` in a module compiled with ``opa build --wasm-include-print``.

The compiler turns ``print(a, b)`` into a call of the builtin
``internal.print`` with one set per operand (its values; empty when the
operand is undefined). As ``opa eval`` and ``opa test`` do, one line is
written per combination of the operands' values, in sorted order: a string
as it is, any other value as Rego writes it, and ``<undefined>`` for an
operand without values.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from engine.wasm import values
from engine.wasm.host import PolicyInstance

PRINT_BUILTIN = "internal.print"


def rego_text(value: Any) -> str:
    """A value as OPA's ``Value.String`` writes it (``{"a": [1, 2]}``, ``set()``)."""
    if isinstance(value, values.BoolKey):
        value = value.value
    if isinstance(value, values.ObjectKey):
        value = value.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float, Decimal)):
        return values.dumps(value).decode()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(rego_text(v) for v in value) + "]"
    if isinstance(value, dict):
        items = values.sorted_items(value)
        return "{" + ", ".join(f"{rego_text(k)}: {rego_text(v)}" for k, v in items) + "}"
    if isinstance(value, values.Set):
        members = list(value)
        return "{" + ", ".join(rego_text(v) for v in members) + "}" if members else "set()"
    return str(value)


def _operand_texts(operand: Any) -> list[str]:
    if isinstance(operand, str):
        return [operand]
    if not isinstance(operand, values.Set):
        return [rego_text(operand)]
    members = list(operand)
    if not members:
        return ["<undefined>"]
    return [v if isinstance(v, str) else rego_text(v) for v in members]


def print_lines(operands: Any) -> list[str]:
    """The lines one ``internal.print`` call writes, from its array of operand sets."""
    if not isinstance(operands, list):
        return []
    return [" ".join(combo) for combo in itertools.product(*map(_operand_texts, operands))]


def print_to_stderr(line: str) -> None:
    """Write one print line to stderr, as ``opa eval`` does."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def print_handler(
    write: Callable[[str], None],
) -> Callable[[PolicyInstance, int], int]:
    """A custom builtin handler for ``internal.print`` writing each line to ``write``."""

    def handle(instance: PolicyInstance, operands_addr: int) -> int:
        for line in print_lines(instance.to_python(operands_addr)):
            write(line)
        return instance.from_python(True)

    return handle
