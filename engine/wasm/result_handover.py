"""Entrypoint values handed to the host by address.

When an evaluation ends, OPA's Wasm runtime adds ``{"result": value}`` to the
result set, which hashes the value whole: for a rule, every info and every
resource object in it; for the relations phase, every item of every
relation. The scan's dispatch module (:func:`engine.rules.rule_set.dispatch_module`)
instead passes the value to ``__rego_engine_result``, whose handler records
its address and answers ``true``; the host then reads the value where it was
built (the generated code never frees, so it stays valid until the next
evaluation resets the heap).

A module without the hand-over (a bundle from an earlier engine, or any other
entrypoint) is read from its result set as before.
"""

from __future__ import annotations

from engine.wasm.host import PolicyInstance
from engine.wasm.memory import BOOLEAN

BUILTIN = "__rego_engine_result"


class ResultHandover:
    """Receives the values entrypoints hand over; one per instance's API."""

    def __init__(self) -> None:
        self._addr: int | None = None

    def handler(self, instance: PolicyInstance, addr: int) -> int:
        """The ``__rego_engine_result`` builtin: remember ``addr``, answer ``true``."""
        self._addr = addr
        return instance.parse_json(b"true")

    def evaluate(
        self, instance: PolicyInstance, entrypoint: str, *, timeout_seconds: float | None = None
    ) -> int | None:
        """Evaluate ``entrypoint``: the address of its value, None when undefined.

        The handed-over address counts only when the entrypoint's value is the
        handler's ``true``: a rule calling the builtin itself cannot stand in
        for the dispatch module's value (whose call comes last).
        """
        self._addr = None
        result_set = instance.eval_addr(entrypoint, timeout_seconds=timeout_seconds)
        reader = instance.reader()
        members = reader.set_members(result_set)
        if not members:
            return None
        value = reader.fields(members[0]).get("result")
        handed = self._addr
        if handed is not None and value is not None and reader.kind(value) == BOOLEAN:
            return handed
        return value
