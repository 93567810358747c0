"""The host side of the ``snyk`` API: the internal builtins behind ``rego/lib/snyk.rego``.

For each input, every resource type's array of resource objects is parsed
into Wasm memory once, beside the input, and stays there while the rules
run. ``__snyk_query`` then answers with the address of the array already in
memory (no copy, no re-parse), and records which types the current rule
asked for.
"""

from __future__ import annotations

from typing import Any

from engine import values
from engine.state import State
from engine.wasm_host import CustomHandler, PolicyInstance


class SnykApi:
    """Per-instance state of the API: the current input's resident values."""

    def __init__(self) -> None:
        self.state: State | None = None
        self._by_type: dict[str, int] = {}
        self._empty = 0
        self._input_type = 0
        self._resource_types = 0
        self.requested: set[str] = set()
        """Resource types the current rule asked for; cleared by :meth:`begin_rule`."""

    def handlers(self) -> dict[str, CustomHandler]:
        """The custom builtin handlers to give :class:`PolicyInstance`."""
        return {
            "__snyk_query": self._query,
            "__snyk_input_type": self._get_input_type,
            "__snyk_input_resource_types": self._get_resource_types,
        }

    def load(self, instance: PolicyInstance, state: State | None) -> None:
        """Make ``state`` the input of ``instance``: the State as ``input``, and
        every type's resource objects resident in memory."""
        self.state = state
        if state is None:
            addrs = instance.set_input(None, resident=[b"[]", b'""', b"set()"])
            self._by_type = {}
        else:
            types = state.resource_types
            docs = [values.dumps(state.resource_objects(t)) for t in types]
            docs += [
                b"[]",
                values.dumps(state.input_type),
                values.dumps(values.Set(types)) if types else b"set()",
            ]
            addrs = instance.set_input(values.dumps(state.document), resident=docs)
            self._by_type = dict(zip(types, addrs, strict=False))
        self._empty, self._input_type, self._resource_types = addrs[-3:]

    def begin_rule(self) -> None:
        """Start recording the resource types a new rule asks for."""
        self.requested = set()

    def _query(self, instance: PolicyInstance, query_addr: int) -> int:
        query: Any = instance.to_python(query_addr)
        if not isinstance(query, dict):
            return self._empty
        rtype = query.get("resource_type")
        if not isinstance(rtype, str):
            return self._empty
        self.requested.add(rtype)
        scope = query.get("scope") or {}
        state_scope = self.state.scope if self.state is not None else {}
        if isinstance(scope, dict) and any(state_scope.get(k) != v for k, v in scope.items()):
            return self._empty
        return self._by_type.get(rtype, self._empty)

    def _get_input_type(self, _instance: PolicyInstance) -> int:
        return self._input_type

    def _get_resource_types(self, _instance: PolicyInstance) -> int:
        return self._resource_types
