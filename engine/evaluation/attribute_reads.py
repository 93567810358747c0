"""The attribute paths a rule read of each resource: a second, traced evaluation.

A rule that names no ``attributes`` for a resource of a result gets the paths
it read of that resource, as snyk's engine infers them. The normal
evaluation is untouched: a second instance of the rule set, compiled into an
instrumented module (:mod:`engine.wasm.read_tracing`), is loaded with the same
input (its relation index reused) and asked the rule's judgement again. Each
read it reports, ``opa_value_get(node, key)``, is kept when ``node`` lies in
one of the resources asked about: the addresses of every object and array in
the input's resources are mapped to their paths once per input, and only
reads in their address range reach the host, where a read is one dictionary
lookup.

The paths of a resource are reduced as snyk reduces them: only the longest
(a path that is the prefix of another read is dropped), none starting with a
reference field (``id``, ``_id``, ``_type``, ``_namespace``, ``_meta``, and
this engine's ``_provider`` and ``_filepath``), ordered as a trie lists them
(at each step, list indices in numeric order, then keys in byte order). A
multi-resource rule's read of a key the resource lacks counts (it shows
which attribute would have changed the outcome); a single-resource rule's
does not, as in snyk, whose tracer sees a single-resource rule's ``input``
only through the values it holds.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.inputs.source_map import AttributePath
from engine.relations.snyk_api import SnykApi
from engine.rules.compiler import CompiledPolicy
from engine.rules.rule_set import CompiledRuleSet
from engine.wasm.host import EvalError, Limits, PolicyInstance
from engine.wasm.memory import ARRAY, OBJECT
from engine.wasm.read_tracing import TRACE_FROM, TRACE_TO, traced_module

ResourceKey = tuple[str, str, str]
"""(namespace, type, id) of a resource."""

MASKED = frozenset({"id", "_id", "_type", "_namespace", "_meta", "_provider", "_filepath"})
"""First steps of paths never reported: a resource's reference fields."""


def reduce_paths(paths: Collection[AttributePath]) -> list[AttributePath]:
    """The longest of ``paths`` (none a prefix of another), in trie order,
    without those starting with a :data:`MASKED` field."""
    trie: dict[Any, Any] = {}
    for path in paths:
        node = trie
        for step in path:
            node = node.setdefault(step, {})
    out: list[AttributePath] = []

    def walk(node: dict[Any, Any], prefix: AttributePath) -> None:
        if not node:
            if prefix:
                out.append(prefix)
            return
        ints = sorted(k for k in node if isinstance(k, int))
        strs = sorted((k for k in node if isinstance(k, str)), key=lambda s: s.encode())
        for key in [*ints, *strs]:
            walk(node[key], (*prefix, key))

    walk(trie, ())
    return [p for p in out if not (isinstance(p[0], str) and p[0] in MASKED)]


def _step(key: Any) -> str | int | None:
    """A read key as a path step: a string, or an integral number as an index."""
    if isinstance(key, bool):
        return None
    if isinstance(key, str | int):
        return key
    try:
        if key == int(key):
            return int(key)
    except (TypeError, ValueError, OverflowError):
        pass
    return None


def _has(value: Any, step: str | int) -> bool:
    if isinstance(value, dict):
        return isinstance(step, str) and step in value
    if isinstance(value, list):
        return isinstance(step, int) and 0 <= step < len(value)
    return False


def traced_policy(policy: CompiledPolicy) -> CompiledPolicy:
    """The instrumented copy of ``policy`` (:func:`engine.wasm.read_tracing.traced_module`);
    raises :class:`~engine.wasm.binary.WasmFormatError` when it cannot be made."""
    return CompiledPolicy(
        traced_module(policy.wasm),
        policy.data,
        policy.entrypoints,
        policy.key + ":traced",
        policy.rego_files,
        policy.name,
    )


class AttributeReadError(Exception):
    """The traced evaluation failed (a limit, an evaluation error); the message says why."""


class AttributeReads:
    """The traced instance of one rule set, and the reads of its last evaluation."""

    def __init__(self, rule_set: CompiledRuleSet, limits: Limits, api: SnykApi) -> None:
        """``api`` is the normal evaluation's: its relation index is reused."""
        assert rule_set.policy is not None
        self._policy = traced_policy(rule_set.policy)
        self._rule_set = rule_set
        self._limits = limits
        self._main = api
        self._api: SnykApi | None = None
        self._instance: PolicyInstance | None = None
        self._loaded: object = None
        self._nodes: dict[int, tuple[ResourceKey, AttributePath, Any]] = {}
        """Address of every object and array in the loaded input's resources →
        (its resource, its path there, its value)."""
        self._wanted: set[ResourceKey] = set()
        self._reads: list[tuple[ResourceKey, AttributePath, bool]] = []

    def close(self) -> None:
        """Free the traced instance."""
        if self._instance is not None:
            self._instance.close()
            self._instance = None

    def _ready(self) -> PolicyInstance:
        """The traced instance with the main evaluation's current input loaded."""
        state = self._main.state
        if self._instance is not None and self._loaded is state:
            return self._instance
        if self._instance is None:
            self._api = SnykApi(self._main.relation_setup)
            self._instance = PolicyInstance(
                self._policy,
                limits=self._limits,
                custom=self._api.handlers(),
                read_hook=self._read,
            )
        assert self._api is not None
        self._nodes = {}  # nothing traced while the new input is loaded
        self._instance.set_global(TRACE_FROM, 0)
        self._instance.set_global(TRACE_TO, 0)
        self._api.input_document = self._main.input_document
        self._api.state = state
        self._api.relations = self._main.relations
        self._api.load(self._instance, state)
        self._map(self._instance, self._api)
        self._loaded = state
        return self._instance

    def reads(
        self, rule_index: int, single: bool, wanted: Collection[ResourceKey]
    ) -> dict[ResourceKey, list[AttributePath]]:
        """The attribute paths rule ``rule_index`` reads of each resource in
        ``wanted`` (only those it read anything of, masked fields included, are
        keys). :class:`AttributeReadError` when the traced evaluation fails."""
        if not wanted or self._main.state is None:
            return {}
        self._wanted = set(wanted)
        self._reads = []
        try:
            instance = self._ready()
            assert self._api is not None
            self._api.begin_rule()
            kind = "single" if single else "multi"
            self._api.handover.evaluate(instance, self._rule_set.entrypoint(rule_index, kind))
        except EvalError as exc:
            self.close()  # a failed evaluation may leave the instance unusable
            raise AttributeReadError(str(exc)) from exc
        finally:
            self._wanted = set()
        found: dict[ResourceKey, set[AttributePath]] = {}
        for key, path, present in self._reads:
            paths = found.setdefault(key, set())
            if present or not single:
                paths.add(path)
        self._reads = []
        return {key: reduce_paths(paths) for key, paths in found.items()}

    def _map(self, instance: PolicyInstance, api: SnykApi) -> None:
        """Map the address of every object and array in the input's resources to
        (resource, path, value), and trace the reads of that address range."""
        reader = instance.reader()
        nodes: dict[int, tuple[ResourceKey, AttributePath, Any]] = {}
        roots = [
            (addr, obj)
            for array, objects in api.resource_arrays()
            for addr, obj in zip(reader.array(array), objects, strict=True)
        ]
        for addr, obj in roots:
            key = (obj.get("_namespace"), obj.get("_type"), obj.get("_id"))
            stack: list[tuple[int, AttributePath, Any]] = [(addr, (), obj)]
            while stack:
                node, path, value = stack.pop()
                nodes[node] = (key, path, value)  # type: ignore[assignment]
                kind = reader.kind(node)
                if kind == OBJECT and isinstance(value, dict):
                    for key_addr, child in reader.object(node):
                        name = reader.read(key_addr)
                        sub = value.get(name) if isinstance(name, str) else None
                        if isinstance(sub, dict | list):
                            stack.append((child, (*path, name), sub))
                elif kind == ARRAY and isinstance(value, list):
                    for i, child in enumerate(reader.array(node)):
                        if i < len(value) and isinstance(value[i], dict | list):
                            stack.append((child, (*path, i), value[i]))
        self._nodes = nodes
        instance.set_global(TRACE_FROM, min(nodes, default=0))
        instance.set_global(TRACE_TO, max(nodes, default=-1) + 1)

    def _read(self, node: int, key: int) -> int:
        """A read the traced module reported: kept when ``node`` is in a wanted resource."""
        found = self._nodes.get(node)
        if found is not None and found[0] in self._wanted and self._instance is not None:
            owner, path, value = found
            step = _step(self._instance.to_python(key))
            if step is not None:
                self._reads.append((owner, (*path, step), _has(value, step)))
        return 0
