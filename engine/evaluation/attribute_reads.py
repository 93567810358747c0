"""The attribute paths a rule read of each resource: a second, traced evaluation.

A rule that names no ``attributes`` for a resource of a result gets the paths
it read of that resource, as snyk's engine infers them. The normal
evaluation is untouched: a second instance of the rule set, compiled into an
instrumented module (:mod:`engine.wasm.read_tracing`), is loaded with the same
input (its relation index reused) and asked the rule's judgement again. The
module records each read, ``opa_value_get(node, key)``, whose ``node`` lies in
the address range of the resources asked about, as a pair of addresses in a
buffer in Wasm memory; the host collects the distinct pairs and, once the
evaluation returns, turns those of the resources asked about into paths.
The addresses of every object and array of a resource are mapped to their
paths the first time a rule asks about it on an input; a key is decoded once
per evaluation (by its address).

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
from engine.wasm.memory import ARRAY, NUMBER, OBJECT, STRING, ValueReader
from engine.wasm.read_tracing import PAIR, TRACE_FROM, TRACE_TO, traced_module

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
        self._roots: dict[ResourceKey, list[tuple[int, dict[str, Any]]]] = {}
        """Each resource of the loaded input → the address of every resident copy
        of its object (one per resource array holding it), with the object."""
        self._nodes: dict[int, tuple[ResourceKey, AttributePath, Any]] = {}
        """Address of every object and array of the resources mapped so far →
        (its resource, its path there, its value)."""
        self._spans: dict[ResourceKey, tuple[int, int] | None] = {}
        """Each mapped resource → the lowest and highest address of its nodes
        (None: it has no resident object)."""
        self._pairs: set[tuple[int, int]] = set()
        """The distinct (node, key) addresses the running evaluation read."""

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
                read_hook=self._take,
            )
        assert self._api is not None
        self._loaded = None
        self._roots, self._nodes, self._spans = {}, {}, {}
        self._trace(self._instance, 0, 0)  # nothing traced while the new input is loaded
        self._api.input_document = self._main.input_document
        self._api.state = state
        self._api.relations = self._main.relations
        self._api.load(self._instance, state)
        reader = self._instance.reader()
        for array, objects in self._api.resource_arrays():
            for addr, obj in zip(reader.array(array), objects, strict=True):
                key = (obj.get("_namespace"), obj.get("_type"), obj.get("_id"))
                self._roots.setdefault(key, []).append((addr, obj))  # type: ignore[arg-type]
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
        wanted = set(wanted)
        self._pairs = set()
        try:
            instance = self._ready()
            assert self._api is not None
            low, high = self._map(instance, wanted)
            self._trace(instance, low, high)
            self._api.begin_rule()
            kind = "single" if single else "multi"
            self._api.handover.evaluate(instance, self._rule_set.entrypoint(rule_index, kind))
            # Before anything else runs in the instance: the keys are values of this evaluation.
            found = self._paths(instance, wanted, single)
        except EvalError as exc:
            self.close()  # a failed evaluation may leave the instance unusable
            raise AttributeReadError(str(exc)) from exc
        finally:
            self._pairs = set()
        reduced: dict[frozenset[AttributePath], list[AttributePath]] = {}
        out: dict[ResourceKey, list[AttributePath]] = {}
        for key, paths in found.items():  # resources alike are read alike: reduce once
            frozen = frozenset(paths)
            if frozen not in reduced:
                reduced[frozen] = reduce_paths(frozen)
            out[key] = list(reduced[frozen])
        return out

    def _take(self, pairs: bytes) -> None:
        """The read hook: keep the distinct (node, key) pairs of the buffer."""
        self._pairs.update(PAIR.iter_unpack(pairs))

    @staticmethod
    def _trace(instance: PolicyInstance, low: int, high: int) -> None:
        """Record the reads of nodes in ``[low, high)`` from now on."""
        instance.set_global(TRACE_FROM, low)
        instance.set_global(TRACE_TO, high)

    def _map(self, instance: PolicyInstance, wanted: set[ResourceKey]) -> tuple[int, int]:
        """Map the nodes of the ``wanted`` resources not mapped yet; returns the
        address range holding every node of the ``wanted`` resources."""
        reader = instance.reader()
        kind = reader.kind
        nodes = self._nodes
        spans = self._spans
        for owner in wanted:
            if owner in spans:
                continue
            own: list[int] = []
            for addr, obj in self._roots.get(owner, ()):
                stack: list[tuple[int, AttributePath, Any]] = [(addr, (), obj)]
                while stack:
                    node, path, value = stack.pop()
                    nodes[node] = (owner, path, value)
                    own.append(node)
                    if isinstance(value, dict):
                        if kind(node) != OBJECT or not any(
                            isinstance(v, dict | list) for v in value.values()
                        ):
                            continue
                        # Only entries holding an object or array: their keys are decoded.
                        for key_addr, child in reader.object(node):
                            if kind(child) in (OBJECT, ARRAY) and kind(key_addr) == STRING:
                                name = reader.string(key_addr)
                                sub = value.get(name)
                                if isinstance(sub, dict | list):
                                    stack.append((child, (*path, name), sub))
                    elif isinstance(value, list) and kind(node) == ARRAY:
                        for i, child in enumerate(reader.array(node)):
                            if i < len(value) and isinstance(value[i], dict | list):
                                stack.append((child, (*path, i), value[i]))
            spans[owner] = (min(own), max(own)) if own else None
        found = [span for owner in wanted if (span := spans[owner]) is not None]
        if not found:
            return 0, 0
        return min(low for low, _ in found), max(high for _, high in found) + 1

    def _paths(
        self, instance: PolicyInstance, wanted: set[ResourceKey], single: bool
    ) -> dict[ResourceKey, set[AttributePath]]:
        """The paths the evaluation's reads name of each ``wanted`` resource.

        A key is decoded once by its address: within one evaluation OPA's
        runtime frees no value a rule or builtin could have passed to
        ``opa_value_get`` (the compiled plan never frees; the runtime frees
        only a builtin's own temporaries before it returns, the element
        buffers and bucket tables objects and arrays outgrow, and, in
        ``opa_value_add_path`` and ``opa_value_remove_path``, which only the
        host calls, values it replaces), so an address keeps its value until
        the heap is reset for the next evaluation."""
        reader = instance.reader()
        nodes = self._nodes
        steps: dict[int, str | int | None] = {}
        found: dict[ResourceKey, set[AttributePath]] = {}
        for node, key in self._pairs:
            entry = nodes.get(node)
            if entry is None or entry[0] not in wanted:
                continue
            owner, path, value = entry
            step = steps[key] if key in steps else steps.setdefault(key, _key_step(reader, key))
            if step is None:
                continue
            paths = found.setdefault(owner, set())
            if not single or _has(value, step):
                paths.add((*path, step))
        return found


def _key_step(reader: ValueReader, addr: int) -> str | int | None:
    """The key at ``addr`` as a path step: a string, or an integral number as an
    index (None for any other key, and for a string that is not UTF-8, which
    no input document's key can be)."""
    kind = reader.kind(addr)
    if kind == STRING:
        try:
            return reader.string(addr)
        except UnicodeDecodeError:
            return None
    if kind == NUMBER:
        return _step(reader.read(addr))
    return None
