"""Reading rule judgements straight from Wasm memory, resources as references.

A judgement's infos name whole resource objects (``resource``,
``primary_resource``, a ``graph`` edge's ``source`` and ``target``); results
need only their references (``_id``, ``id``, ``_type``, ``_namespace``). The
reader walks the judgement in memory (:mod:`engine.wasm.memory`) and reads
only those four fields of such objects. A resource object the host loaded is
recognised by its address and never read at all. The values are those
``object.filter(resource, ["_id", "id", "_type", "_namespace"])`` would give,
applied to each member of a set of infos (any other judgement is read whole).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import orjson

from engine.wasm import values
from engine.wasm.memory import ARRAY, OBJECT, SET, STRING, ValueReader

REF_KEYS = ("_id", "id", "_type", "_namespace")
"""The fields of a resource object that results keep."""

_RESOURCE_KEYS = frozenset({"resource", "primary_resource"})
_EDGE_KEYS = frozenset({"source", "target"})


_OTHER, _RESOURCE, _EDGES = 0, 1, 2
"""What an info's field holds, by its key: anything, a resource object, edges."""


class JudgementReader:
    """Reads judgements from one evaluation's result; valid until the next call
    into Wasm that may allocate.

    ``resident`` maps the address of every resource object the host loaded
    to the object itself (as the host holds it).
    """

    def __init__(
        self,
        reader: ValueReader,
        resident: Mapping[int, dict[str, Any]],
        budget: int | None = None,
        over_budget: Callable[[], Exception] | None = None,
        references: dict[int, dict[str, Any]] | None = None,
    ) -> None:
        """``budget`` bounds the text size of what is read (as ``opa_value_dump``
        would write it, infos counted one by one); ``over_budget`` makes the
        error raised past it. ``references`` caches the references of resident
        objects by address: pass the same dict for every evaluation over one
        ``resident`` mapping to share them (and their identity) between rules."""
        self.reader = reader
        self.resident = resident
        self._budget = budget
        self._over_budget = over_budget
        self._references: dict[int, dict[str, Any]] = {} if references is None else references
        self._keys: dict[int, Any] = {}
        """Object keys by address: a rule's constant keys are one value in memory."""
        self._info_keys: dict[int, tuple[Any, int]] = {}
        """An info's keys by address, with what their field holds."""

    def _key(self, addr: int) -> Any:
        key = self._keys.get(addr)
        if key is None:
            key = self._keys[addr] = values.hashable_key(self.reader.read(addr))
        return key

    def results(self, result_set: int) -> list[Any]:
        """The ``result`` value of every entry of an evaluation's result set, read whole."""
        reader = self.reader
        found = []
        for entry in reader.set_members(result_set):
            addr = reader.fields(entry).get("result")
            if addr is not None:
                found.append(addr)
        return found

    def judgements(self, addr: int) -> dict[str, Any]:
        """An object of judgements (``{"deny": ..., "resources": ...}``), each slimmed."""
        return {key: self.judgement(value) for key, value in self.reader.fields(addr).items()}

    def judgement(self, addr: int) -> Any:
        """A judgement: a set of infos becomes the list of its slimmed members
        (in the set's order); anything else is read whole."""
        if self.reader.kind(addr) != SET:
            return self._spend(self.reader.read(addr))
        info = self.info
        if self._budget is None:
            return [info(member) for member in self.reader.set_members(addr)]
        out = []
        for member in self.reader.set_members(addr):
            value = info(member)
            self._spend(value)
            out.append(value)
        return out

    def _spend(self, value: Any) -> Any:
        if self._budget is not None:
            try:
                size = len(orjson.dumps(value))  # values.dumps' fast path, without its call
            except TypeError:
                size = len(values.dumps(value, finite=True))
            self._budget -= size + 1
            if self._budget < 0:
                raise (self._over_budget or OverflowError)()
        return value

    def info(self, addr: int) -> Any:
        """One info, with its resource objects cut down to references."""
        reader = self.reader
        if reader.kind(addr) != OBJECT:
            return reader.read(addr)
        roles, references = self._info_keys, self._references
        out: dict[Any, Any] = {}
        for key_addr, value_addr in reader.object(addr):
            known = roles.get(key_addr)
            if known is None:
                key = self._key(key_addr)
                role = _RESOURCE if key in _RESOURCE_KEYS else _EDGES if key == "graph" else _OTHER
                known = roles[key_addr] = (key, role)
            key, role = known
            if role == _OTHER:
                out[key] = reader.read(value_addr)
            elif role == _RESOURCE and value_addr in references:  # an object already met
                out[key] = references[value_addr]
            elif role == _RESOURCE and reader.kind(value_addr) == OBJECT:
                out[key] = self.reference(value_addr)
            elif role == _EDGES and reader.kind(value_addr) == ARRAY:
                out[key] = [self._cut(e, _EDGE_KEYS) for e in reader.array(value_addr)]
            else:
                out[key] = reader.read(value_addr)
        return out

    def _cut(self, addr: int, resource_keys: frozenset[str]) -> Any:
        """The object at ``addr`` with the objects under ``resource_keys`` cut
        down to references; anything else is read whole."""
        reader = self.reader
        if reader.kind(addr) != OBJECT:
            return reader.read(addr)
        out: dict[Any, Any] = {}
        for key_addr, value_addr in reader.object(addr):
            key = self._key(key_addr)
            if key in resource_keys and reader.kind(value_addr) == OBJECT:
                out[key] = self.reference(value_addr)
            else:
                out[key] = reader.read(value_addr)
        return out

    def reference(self, addr: int) -> dict[str, Any]:
        """The reference fields of the object at ``addr`` (those it has)."""
        known = self._references.get(addr)
        if known is not None:
            return known
        obj = self.resident.get(addr)
        if obj is not None:
            known = self._references[addr] = {
                "_id": obj["_id"],
                "id": obj["id"],
                "_type": obj["_type"],
                "_namespace": obj["_namespace"],
            }
            return known
        reader = self.reader
        out = {}
        for key_addr, value_addr in reader.object(addr):
            if reader.kind(key_addr) == STRING:
                key = reader.string(key_addr)
                if key in REF_KEYS:
                    out[key] = reader.read(value_addr)
        return out
