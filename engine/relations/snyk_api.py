"""The host side of the ``snyk`` API: resources and the relation index in Wasm memory.

For each input:

1. The State is parsed as ``input`` and every resource type's array of
   resource objects is parsed once beside it; ``__snyk_query`` answers with
   the address of an array already in memory and records which types the
   current rule asked for.
2. The relations are evaluated once in Wasm (the dispatch module's
   ``relations`` entrypoint), read back from memory as resource numbers and
   keys (:mod:`engine.relations.declarations`), and joined in Python
   (:mod:`engine.relations.index`).
3. The index is parsed into Wasm memory as ``data.__rego_engine_input.relations``,
   beside ``data.__rego_engine_input.resources`` (each type's resident array,
   linked, not copied), so ``snyk.relates`` and friends are Rego lookups that
   never leave Wasm.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.core.collector import collector_paused
from engine.inputs.state import State
from engine.relations import type_hierarchy
from engine.relations.declarations import (
    DeclaredRelations,
    RelationProblem,
    ResourceTable,
    read_declarations,
)
from engine.relations.index import RelationIndex, build_index
from engine.relations.reference_relations import derived_relations
from engine.relations.reference_relations import merge as merge_derived
from engine.rules.relation_modules import RelationFiles
from engine.rules.relation_queries import IndexPart
from engine.wasm import result_handover, values
from engine.wasm.host import CustomHandler, EvalError, PolicyInstance
from engine.wasm.memory import ARRAY, OBJECT, SET, ValueReader
from engine.wasm.result_handover import ResultHandover

ENGINE_DATA_KEY = "__rego_engine_input"


@dataclass(frozen=True)
class RelationSetup:
    """Where the compiled module's relations are, and the files declaring them."""

    entrypoint: str
    files: RelationFiles = field(default_factory=RelationFiles)
    shipped_wanted: frozenset[str] | None = None
    """Shipped relations to resolve (None: all); the others are skipped."""
    derived_wanted: frozenset[str] | None = None
    """Reference relations to derive (None: all); the others are skipped."""
    max_edges: int | None = None
    """The most edges one relation may have on one input (None: unbounded)."""
    index_parts: frozenset[IndexPart] | None = None
    """The parts of the index the rules can query (None: all); only those are injected."""


@dataclass
class InputRelations:
    """The relations of one input: declarations, their index, and problems."""

    table: ResourceTable
    declared: DeclaredRelations
    index: RelationIndex
    document: bytes = field(repr=False)
    """The index as the Rego library reads it (``data.__rego_engine_input.relations``)."""

    @property
    def problems(self) -> list[RelationProblem]:
        """Relations that could not be used on this input."""
        return self.declared.problems


class RelationsUnavailable(EvalError):
    """Evaluating the relations failed: rules run with no relations, and the
    instance must be rebuilt (the failed evaluation may have left it unusable)."""


def type_keys(state: State) -> dict[str, str]:
    """Each resource type's key in ``data.__rego_engine_input.resources``: its
    position among the State's types, as a string (short, unlike type names)."""
    return {rtype: str(i) for i, rtype in enumerate(state.resource_types)}


def index_document(
    index: RelationIndex, table: ResourceTable, parts: frozenset[IndexPart] | None = None
) -> bytes:
    """``{"r"|"a": {"fwd"|"back": {name: {ns: {type: {_id: [place, ...]}}}}}}``.

    A place is ``[type key, position]`` in the resident arrays (:func:`type_keys`).
    ``r`` lists each related resource once; ``a`` lists ``[type key, position,
    annotation]`` per edge, and only for resources with some non-null annotation
    (elsewhere it is ``r`` with nulls). Arrays, not objects, below ``_id``: they
    are what the Wasm runtime parses fastest. With ``parts``, only those trees
    are written (:func:`engine.rules.relation_queries.index_parts`).
    """
    keys = type_keys(table.state)
    places = [(keys[rtype], pos) for rtype, pos in table.places]
    identities = table.identities
    unique = len(table.by_identity) == len(places)
    plain: dict[str, Any] = {}
    annotated: dict[str, Any] = {}
    for direction, by_name in (("fwd", index.forward), ("back", index.backward)):
        plain_tree: dict[str, Any] = {}
        annotated_tree: dict[str, Any] = {}
        for name, by_resource in by_name.items():
            want_plain = parts is None or IndexPart("r", direction, name) in parts
            want_annotated = parts is None or IndexPart("a", direction, name) in parts
            if not (want_plain or want_annotated):
                continue
            # Resources sharing an identity (namespace, type, _id) share an entry.
            grouped: Iterable[tuple[tuple[str, str, str], list[tuple[int, Any]]]]
            if unique:
                grouped = ((identities[r], related) for r, related in by_resource.items())
            else:
                merged: dict[tuple[str, str, str], list[tuple[int, Any]]] = defaultdict(list)
                for resource, related in by_resource.items():
                    merged[identities[resource]] += related
                grouped = merged.items()
            plain_entries: dict[str, dict[str, dict[str, Any]]] = {}
            annotated_entries: dict[str, dict[str, dict[str, Any]]] = {}
            group: tuple[str, str] | None = None
            by_id: dict[str, Any] = {}
            for (namespace, rtype, rid), related in grouped:
                if group != (namespace, rtype):  # resources come grouped by type
                    group = (namespace, rtype)
                    by_id = plain_entries.setdefault(namespace, {}).setdefault(rtype, {})
                if len(related) == 1:
                    other, annotation = related[0]
                    by_id[rid] = [places[other]]
                    if annotation is not None:
                        annotated_entries.setdefault(namespace, {}).setdefault(rtype, {})[rid] = [
                            (*places[other], annotation)
                        ]
                    continue
                by_id[rid] = list(dict.fromkeys(places[o] for o, _ in related))
                if any(a is not None for _, a in related):
                    annotated_entries.setdefault(namespace, {}).setdefault(rtype, {})[rid] = [
                        (*places[o], a) for o, a in related
                    ]
            if want_plain:
                plain_tree[name] = plain_entries
            if annotated_entries and want_annotated:
                annotated_tree[name] = annotated_entries
        plain[direction] = plain_tree
        annotated[direction] = annotated_tree
    # Keys and annotations come from Rego or the State: finite numbers only.
    return values.dumps({"r": plain, "a": annotated}, finite=True)


def _members(reader: ValueReader, addr: int | None) -> list[int]:
    """Addresses of the members of a set, array or object (its values) at
    ``addr``, as ``some x in`` would visit them; none for anything else."""
    if addr is None:
        return []
    kind = reader.kind(addr)
    if kind == SET:
        return reader.set_members(addr)
    if kind == ARRAY:
        return reader.array(addr)
    if kind == OBJECT:
        return [value for _key, value in reader.object(addr)]
    return []


class SnykApi:
    """Per-instance state of the API: the current input's resident values."""

    def __init__(self, relations: RelationSetup) -> None:
        self.relation_setup = relations
        self.state: State | None = None
        self.relations: InputRelations | None = None
        """The current input's relations (None without a State or relations)."""
        self._by_type: dict[str, int] = {}
        self._groups: dict[str, list[str]] = {}
        """Types with subtypes in the State (:mod:`engine.relations.type_hierarchy`) → those
        types."""
        self._by_group: dict[str, int] = {}
        self.data_addr = 0
        """The current input's data document (static data, relation index, resources)."""
        self._empty = 0
        self._input_type = 0
        self._resource_types = 0
        self.requested: set[str] = set()
        """Resource types the current rule asked for; cleared by :meth:`begin_rule`."""
        self._objects: dict[str, list[dict[str, Any]]] = {}
        self._resident: dict[int, dict[str, Any]] | None = None
        """Address of every resident resource object → the object (made when first needed)."""
        self.handover = ResultHandover()
        """Where evaluations of the dispatch module hand their values over."""
        self.input_document = True
        """Whether ``input`` is the State document; when no rule can read it, it is
        ``{}`` and the State is resident only as resource objects."""

    def handlers(self) -> dict[str, CustomHandler]:
        """The custom builtin handlers to give :class:`PolicyInstance`."""
        return {
            "__snyk_query": self._query,
            "__snyk_input_type": self._get_input_type,
            "__snyk_input_resource_types": self._get_resource_types,
            result_handover.BUILTIN: self.handover.handler,
        }

    def load(self, instance: PolicyInstance, state: State | None) -> None:
        """Make ``state`` the input of ``instance``: the State as ``input`` (when
        :attr:`input_document`), every type's resource objects resident in
        memory, and its relation index in data.

        Raises :class:`RelationsUnavailable` when the relations fail to
        evaluate; loading again (on a fresh instance) then goes on without them.
        """
        if state is not self.state:
            self.relations = None
        self.state = state
        self._resident = None
        if state is None:
            self._objects = {}
            addrs = instance.set_input(None, resident=[b"[]", b'""', b"set()"])
            self._by_type, self._groups, self._by_group = {}, {}, {}
            self._empty, self._input_type, self._resource_types = addrs
            return
        types = state.resource_types
        objects = (
            self.relations.table.objects
            if self.relations is not None
            else {t: state.resource_objects(t) for t in types}
        )
        self._objects = objects
        # A loaded State holds no infinite or NaN number (engine.inputs.discovery refuses them).
        docs = [values.dumps(objects[t], finite=True) for t in types]
        groups = self._type_groups(state)
        docs += [
            values.dumps([o for t in group for o in objects[t]], finite=True)
            for group in groups.values()
        ]
        docs += [
            b"[]",
            values.dumps(state.input_type),
            values.dumps(values.Set(types)) if types else b"set()",
        ]
        document = values.dumps(state.document, finite=True) if self.input_document else b"{}"
        addrs = instance.set_input(document, resident=docs)
        self._by_type = dict(zip(types, addrs, strict=False))
        self._groups = groups
        self._by_group = dict(zip(groups, addrs[len(types) :], strict=False))
        self._empty, self._input_type, self._resource_types = addrs[-3:]
        if self.relations is None:
            with collector_paused():
                self.relations = self._evaluate_relations(instance, state, objects)
        self._inject(instance)

    def _type_groups(self, state: State) -> dict[str, list[str]]:
        """The State's types grouped under the supertypes rules may ask for (the
        names they write literally; all when relations are listed)."""
        direct = type_hierarchy.supertypes_for(type_hierarchy.load(), state.input_type)
        groups = type_hierarchy.members(direct, state.resource_types)
        wanted = self.relation_setup.derived_wanted
        return {n: g for n, g in groups.items() if wanted is None or n in wanted}

    def _evaluate_relations(
        self, instance: PolicyInstance, state: State, objects: dict[str, list[dict[str, Any]]]
    ) -> InputRelations:
        table = ResourceTable(state, objects)
        setup = self.relation_setup
        try:
            result = self.handover.evaluate(instance, setup.entrypoint)
        except EvalError as exc:
            problem = RelationProblem(
                f"the relations could not be evaluated: {exc}",
                files=tuple(sorted(setup.files.user) + sorted(setup.files.shipped)),
            )
            empty = build_index([])
            self.relations = InputRelations(
                table,
                DeclaredRelations([], frozenset(), [problem]),
                empty,
                index_document(empty, table),
            )
            raise RelationsUnavailable(str(problem)) from None
        reader = instance.reader()
        table.learn_addresses(reader, self._by_type)
        sides = reader.fields(result) if result is not None else {}
        declared = read_declarations(
            reader,
            _members(reader, sides.get("user")),
            _members(reader, sides.get("shipped")),
            table,
            setup.files,
            setup.shipped_wanted,
        )
        derived = derived_relations(table, setup.derived_wanted)
        if derived:
            declared.relations = merge_derived(declared.relations, derived)
            declared.derived_names = frozenset(r.name for r in derived)
        index = build_index(declared.relations, setup.max_edges)
        declared.problems.extend(
            RelationProblem(
                f"{why} on this input (one edge per KiB of --max-memory); left empty "
                "(a key every resource shares? raise --max-memory)",
                name,
            )
            for name, why in index.refused.items()
        )
        return InputRelations(
            table, declared, index, index_document(index, table, setup.index_parts)
        )

    def _inject(self, instance: PolicyInstance) -> None:
        assert self.relations is not None
        (data,) = instance.extend_input(
            [
                b'{"%s": {"relations": %s, "resources": {}}}'
                % (ENGINE_DATA_KEY.encode(), self.relations.document)
            ]
        )
        keys = type_keys(self.state) if self.state is not None else {}
        grafts: dict[tuple[str, ...], int] = {
            (ENGINE_DATA_KEY, "resources", keys[rtype]): addr
            for rtype, addr in self._by_type.items()
        }
        static = instance.reader().fields(instance.data_addr)
        grafts.update({(key,): addr for key, addr in static.items() if key != ENGINE_DATA_KEY})
        instance.set_data(data, grafts)
        self.data_addr = data

    def resident_objects(self, reader: ValueReader) -> dict[int, dict[str, Any]]:
        """Address of every resident resource object → the object (made once per input)."""
        if self._resident is None:
            self._resident = {
                addr: obj
                for rtype, array in self._by_type.items()
                for addr, obj in zip(reader.array(array), self._objects[rtype], strict=True)
            }
        return self._resident

    def resource_arrays(self) -> list[tuple[int, list[dict[str, Any]]]]:
        """Every resident array of resource objects with the objects it holds:
        each type's, then each supertype's (a copy of its types' objects)."""
        arrays = [(addr, self._objects[rtype]) for rtype, addr in self._by_type.items()]
        arrays += [
            (addr, [o for t in self._groups[name] for o in self._objects[t]])
            for name, addr in self._by_group.items()
        ]
        return arrays

    def begin_rule(self) -> None:
        """Start recording the resource types a new rule asks for."""
        self.requested = set()

    def note_requested(self, resource_type: str) -> None:
        """Record that the current rule asks for ``resource_type`` (a supertype:
        the State's types it covers)."""
        self.requested.update(self._groups.get(resource_type, (resource_type,)))

    def _query(self, instance: PolicyInstance, query_addr: int) -> int:
        query: Any = instance.to_python(query_addr)
        if not isinstance(query, dict):
            return self._empty
        rtype = query.get("resource_type")
        if not isinstance(rtype, str):
            return self._empty
        self.note_requested(rtype)
        scope = query.get("scope") or {}
        state_scope = self.state.scope if self.state is not None else {}
        if isinstance(scope, dict) and any(state_scope.get(k) != v for k, v in scope.items()):
            return self._empty
        return self._by_group.get(rtype) or self._by_type.get(rtype, self._empty)

    def _get_input_type(self, _instance: PolicyInstance) -> int:
        return self._input_type

    def _get_resource_types(self, _instance: PolicyInstance) -> int:
        return self._resource_types
