"""The attribute paths a rule read of each resource, recorded as it is evaluated.

A rule that names no ``attributes`` for a resource of a result gets the paths
it read of that resource, as snyk's engine infers them. A scan's evaluator
runs an instrumented copy of the rule set's module
(:mod:`engine.wasm.read_tracing`), which records each read,
``opa_value_get(node, key)``, whose ``node`` lies among the values the input
was loaded as, as a pair of addresses in a buffer in Wasm memory. The reads
of a rule's own evaluation are drained from the buffer (when it fills and
when the evaluation returns) and kept, deduplicated once they grow past
:data:`COMPACT_BYTES`, until its results are built; only those of the
resources its results name no attributes for are then turned into paths,
and the rest dropped with the next rule. The addresses of every object and array of a resource are
mapped to their paths once per input, the first time a rule asks about it;
a key is decoded once per evaluation (by its address).

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

import sys
from collections.abc import Collection
from typing import Any

from engine.inputs.source_map import AttributePath
from engine.relations.snyk_api import SnykApi
from engine.rules.compiler import CompiledPolicy
from engine.wasm.host import PolicyInstance
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
        keys: list[int | str] = [*ints, *strs]
        for key in keys:
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
    """A rule's reads are not known (no traced copy of its module); the message says why."""


_NODE = 0xFFFFFFFF
"""The node's address in a read taken as one little-endian u64 (the key's is above it)."""

COMPACT_BYTES = 4 << 20
"""Pairs drained and not yet deduplicated are deduplicated once they reach this
many bytes, so a rule reading the same values over and over holds its distinct
reads only."""


MAX_DISTINCT_READS = 500_000
"""Distinct reads of the input's values recorded for one rule's evaluation: past
it, the rule's reads are dropped (at once, before they are mapped to paths) and
its results get no inferred paths, with a warning naming the bound."""


class AttributeReads:
    """The reads of the input's resources by the last rule evaluated in a traced
    instance, and the map of their addresses to paths.

    The evaluator running the instance calls :meth:`take` as the read hook,
    :meth:`stop` before loading an input and :meth:`start` after,
    :meth:`discard` before each rule and :meth:`keep` when it succeeded."""

    def __init__(self) -> None:
        self._roots: dict[ResourceKey, list[tuple[int, dict[str, Any]]]] = {}
        """Each resource of the loaded input → the address of every resident copy
        of its object (one per resource array holding it), with the object."""
        self._nodes: dict[int, tuple[ResourceKey, AttributePath, Any]] = {}
        """Address of every object and array of the resources mapped so far →
        (its resource, its path there, its value)."""
        self._mapped: set[ResourceKey] = set()
        """The resources whose nodes are in :attr:`_nodes`."""
        self._chunks: list[bytes] = []
        """Pairs drained from the buffer since :meth:`discard`, not yet deduplicated."""
        self._chunk_bytes = 0
        self._pairs: set[int] = set()
        """The distinct pairs drained since :meth:`discard` (:func:`_distinct`)."""
        self._kept: int | None = None
        """The rule whose evaluation drained the pairs."""
        self._too_many = False
        """Whether the rule read more than :data:`MAX_DISTINCT_READS` distinct values."""

    def take(self, pairs: bytes) -> None:
        """The read hook: pairs drained from the instance's buffer."""
        if self._too_many:
            return
        self._chunks.append(pairs)
        self._chunk_bytes += len(pairs)
        if self._chunk_bytes >= COMPACT_BYTES:
            self._compact()

    def _compact(self) -> None:
        """Add the chunks drained to the distinct pairs."""
        for chunk in self._chunks:
            _add_distinct(self._pairs, chunk)
            if len(self._pairs) > MAX_DISTINCT_READS:
                self._too_many = True
                self._pairs = set()
                break
        self._chunks = []
        self._chunk_bytes = 0

    @staticmethod
    def stop(instance: PolicyInstance) -> None:
        """Record no read in ``instance`` (while an input is loaded, relations included)."""
        _trace(instance, 0, 0)

    def start(self, instance: PolicyInstance, api: SnykApi) -> None:
        """``api`` has loaded an input into ``instance``: forget the last input's
        addresses and record the reads of every value loaded with this one."""
        self.discard()
        self._nodes, self._mapped = {}, set()
        roots: dict[ResourceKey, list[tuple[int, dict[str, Any]]]] = {}
        reader = instance.reader()
        for array, objects in api.resource_arrays():
            for addr, obj in zip(reader.array(array), objects, strict=True):
                key = (obj["_namespace"], obj["_type"], obj["_id"])  # set by resource_object()
                roots.setdefault(key, []).append((addr, obj))
        self._roots = roots
        _trace(instance, *instance.input_span)

    def discard(self) -> None:
        """Drop the reads drained and kept so far (a new rule starts, or one failed)."""
        self._chunks = []
        self._chunk_bytes = 0
        self._pairs = set()
        self._kept = None
        self._too_many = False

    def keep(self, rule_index: int) -> None:
        """The reads drained since :meth:`discard` are rule ``rule_index``'s."""
        self._kept = rule_index

    def paths(
        self,
        instance: PolicyInstance,
        rule_index: int,
        single: bool,
        wanted: Collection[ResourceKey],
    ) -> dict[ResourceKey, list[AttributePath]]:
        """The attribute paths rule ``rule_index``, the last rule evaluated in
        ``instance``, read of each resource in ``wanted`` (only those it read
        anything of, masked fields included, are keys)."""
        if self._kept != rule_index:
            raise AttributeReadError("the rule's reads were not kept (it was not the last run)")
        if not wanted:
            return {}
        self._compact()
        if self._too_many:
            raise AttributeReadError(
                f"the rule read more than {MAX_DISTINCT_READS:,} distinct values of the input "
                "(the bound on recorded reads)"
            )
        wanted = set(wanted)
        self._map(instance, wanted)
        found = self._found(instance, wanted, single)
        reduced: dict[frozenset[AttributePath], list[AttributePath]] = {}
        out: dict[ResourceKey, list[AttributePath]] = {}
        for key, paths in found.items():  # resources alike are read alike: reduce once
            frozen = frozenset(paths)
            if frozen not in reduced:
                reduced[frozen] = reduce_paths(frozen)
            out[key] = list(reduced[frozen])
        return out

    def _map(self, instance: PolicyInstance, wanted: set[ResourceKey]) -> None:
        """Map the nodes of the ``wanted`` resources not mapped yet (not those
        below a :data:`MASKED` field: no path through them is reported)."""
        reader = instance.reader()
        kind = reader.kind
        nodes = self._nodes
        for owner in wanted - self._mapped:
            self._mapped.add(owner)
            for addr, obj in self._roots.get(owner, ()):
                stack: list[tuple[int, AttributePath, Any]] = [(addr, (), obj)]
                while stack:
                    node, path, value = stack.pop()
                    nodes[node] = (owner, path, value)
                    if isinstance(value, dict):
                        if kind(node) != OBJECT or not any(
                            isinstance(v, dict | list) for v in value.values()
                        ):
                            continue
                        # Only entries holding an object or array: their keys are decoded.
                        for key_addr, child in reader.object(node):
                            if kind(child) in (OBJECT, ARRAY) and kind(key_addr) == STRING:
                                name = reader.string(key_addr)
                                if not path and name in MASKED:
                                    continue
                                sub = value.get(name)
                                if isinstance(sub, dict | list):
                                    stack.append((child, (*path, name), sub))
                    elif isinstance(value, list) and kind(node) == ARRAY:
                        for i, child in enumerate(reader.array(node)):
                            if i < len(value) and isinstance(value[i], dict | list):
                                stack.append((child, (*path, i), value[i]))

    def _found(
        self, instance: PolicyInstance, wanted: set[ResourceKey], single: bool
    ) -> dict[ResourceKey, set[AttributePath]]:
        """The paths the distinct pairs name of each ``wanted`` resource.

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
        for pair in self._pairs:
            entry = nodes.get(pair & _NODE)
            if entry is None or entry[0] not in wanted:
                continue
            owner, path, value = entry
            key = pair >> 32
            step = steps[key] if key in steps else steps.setdefault(key, _key_step(reader, key))
            if step is None:
                continue
            paths = found.setdefault(owner, set())
            if not single or _has(value, step):
                paths.add((*path, step))
        return found


def _add_distinct(distinct: set[int], pairs: bytes) -> None:
    """Add the pairs of ``pairs`` (:data:`~engine.wasm.read_tracing.PAIR` each) to
    ``distinct``, each as one integer: the node's address, plus the key's times 2**32."""
    if sys.byteorder == "little":
        distinct.update(memoryview(pairs).cast("Q"))
    else:
        distinct.update(node | key << 32 for node, key in PAIR.iter_unpack(pairs))


def _trace(instance: PolicyInstance, low: int, high: int) -> None:
    """Record the reads of nodes in ``[low, high)`` from now on."""
    instance.set_global(TRACE_FROM, low)
    instance.set_global(TRACE_TO, high)


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
