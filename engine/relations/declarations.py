"""Relation declarations: reading ``data.relations.relations`` back from Wasm.

Phase 1 of the relation index (see ``docs/relations.md``): the rules'
relations are evaluated in Wasm once per input, and their infos are read here
straight from memory (:mod:`engine.wasm.memory`). A resource in an item is
recognised by its address (it is the object the host parsed), so only keys
and annotations are ever read. ``relation_from_fields`` infos are declarative
(``{"name", "fields": {"left": {type: [paths]}, "right": ...}}``) and resolved
here from the host's own resource objects. Entries with one name merge; a
name the user defines replaces the shipped relation of that name. A
malformed info is reported, naming the relation and its files, and dropped.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.inputs.state import State
from engine.relations.field_paths import FieldPathError, parse_field_path, values_at
from engine.relations.index import ExplicitPair, KeyItem, Relation
from engine.rules.relation_modules import RelationFiles
from engine.wasm import values
from engine.wasm.memory import ARRAY, OBJECT, STRING, MemoryReadError, ValueReader

_MAX_ITEM_PROBLEMS = 3


@dataclass(frozen=True)
class RelationProblem:
    """A relation that could not be used, and why."""

    message: str
    name: str | None = None
    files: tuple[str, ...] = ()

    def __str__(self) -> str:
        what = f"relation {self.name!r}" if self.name is not None else "a relation"
        where = f" (defined in {', '.join(self.files)})" if self.files else ""
        return f"{what}{where}: {self.message}"


@dataclass
class ResourceTable:
    """The input's resources as the relation index numbers them.

    Numbers follow (type, ``_id``, namespace, key), the order of query results.
    """

    state: State
    objects: dict[str, list[dict[str, Any]]]
    """type → resource objects in key order (as resident in Wasm)."""
    places: list[tuple[str, int]] = field(init=False)
    """number → (type, position in the type's array)."""
    identities: list[tuple[str, str, str]] = field(init=False)
    """number → (namespace, type, ``_id``)."""
    number_at: dict[tuple[str, int], int] = field(init=False)
    by_identity: dict[tuple[str, str, str], int] = field(init=False)
    by_address: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        order = sorted(
            (r.type, r.id, r.namespace, r.key, pos)
            for rtype in self.state.resource_types
            for pos, r in enumerate(self.state.resources[rtype])
        )
        self.places = [(rtype, pos) for rtype, _, _, _, pos in order]
        self.identities = [(namespace, rtype, rid) for rtype, rid, namespace, _, _ in order]
        self.number_at = {place: n for n, place in enumerate(self.places)}
        self.by_identity = {}
        for n, identity in enumerate(self.identities):
            self.by_identity.setdefault(identity, n)

    def learn_addresses(self, reader: ValueReader, arrays: dict[str, int]) -> None:
        """Record where each resource object lives in Wasm memory."""
        self.by_address = {
            addr: self.number_at[rtype, pos]
            for rtype, array in arrays.items()
            for pos, addr in enumerate(reader.array(array))
        }

    def identity(self, number: int) -> tuple[str, str, str]:
        """(namespace, type, ``_id``) of resource ``number``."""
        return self.identities[number]


class _Malformed(Exception):
    pass


@dataclass
class DeclaredRelations:
    """The relations of one input, merged, and the problems met reading them."""

    relations: list[Relation]
    shipped_names: frozenset[str]
    problems: list[RelationProblem]
    derived_names: frozenset[str] = frozenset()
    """Relations (also) derived from the loaders' references
    (:mod:`engine.relations.reference_relations`)."""


class _Decoder:
    def __init__(self, reader: ValueReader, table: ResourceTable) -> None:
        self.reader = reader
        self.table = table

    def describe(self, addr: int) -> str:
        try:
            text = values.dumps(self.reader.read(addr)).decode("utf-8")
        except (MemoryReadError, values.ValueError_):
            return "a value"
        return text if len(text) <= 80 else text[:77] + "..."

    def resource(self, addr: int, where: str) -> int:
        number = self.table.by_address.get(addr)
        if number is not None:
            return number
        # Not an object the host parsed (a rule built or changed it): go by identity.
        if self.reader.kind(addr) == OBJECT:
            fields = self.reader.fields(addr)
            parts = [fields.get(k) for k in ("_namespace", "_type", "_id")]
            strings = [p for p in parts if p is not None and self.reader.kind(p) == STRING]
            if len(strings) == 3:
                namespace, rtype, rid = (self.reader.string(p) for p in strings)
                found = self.table.by_identity.get((namespace, rtype, rid))
                if found is not None:
                    return found
        raise _Malformed(f"{where}: {self.describe(addr)} is not a resource of this input")

    def tuple_items(self, addr: int, where: str, shape: str) -> list[list[int]]:
        if self.reader.kind(addr) != ARRAY:
            raise _Malformed(f"{where} must be an array of {shape}, found {self.describe(addr)}")
        out: list[list[int]] = []
        bad: list[str] = []
        for i, item in enumerate(self.reader.array(addr)):
            parts = self.reader.array(item) if self.reader.kind(item) == ARRAY else []
            if len(parts) in (2, 3):
                out.append(parts)
            elif len(bad) < _MAX_ITEM_PROBLEMS:
                bad.append(f"{where}[{i}] must be {shape}, found {self.describe(item)}")
        if bad:
            raise _Malformed("; ".join(bad))
        return out

    def key_items(self, addr: int, where: str) -> list[KeyItem]:
        items = self.reader.pairs_and_triples(addr)
        if items is None:  # malformed: tuple_items names the bad items
            shape = "[resource, key] or [resource, key, annotation]"
            items = [tuple(p) for p in self.tuple_items(addr, where, shape)]
        by_address = self.table.by_address
        numbers: list[int] = []
        for i, parts in enumerate(items):
            number = by_address.get(parts[0])
            numbers.append(
                self.resource(parts[0], f"{where}[{i}][0]") if number is None else number
            )
        keys = self.reader.read_all([parts[1] for parts in items])
        triples = [i for i, parts in enumerate(items) if len(parts) == 3]
        if not triples:
            return [KeyItem(n, k) for n, k in zip(numbers, keys, strict=True)]
        out = [KeyItem(n, k) for n, k in zip(numbers, keys, strict=True)]
        annotations = self.reader.read_all([items[i][2] for i in triples])
        for i, annotation in zip(triples, annotations, strict=True):
            out[i] = KeyItem(numbers[i], keys[i], annotation, True)
        return out

    def explicit_pairs(self, addr: int) -> list[ExplicitPair]:
        shape = "[left, right] or [left, right, annotation]"
        pairs = []
        for i, parts in enumerate(self.tuple_items(addr, "explicit", shape)):
            left = self.resource(parts[0], f"explicit[{i}][0]")
            right = self.resource(parts[1], f"explicit[{i}][1]")
            annotation = self.reader.read(parts[2]) if len(parts) == 3 else None
            pairs.append(ExplicitPair(left, right, annotation))
        return pairs

    def has_resources(self, spec: Any) -> bool:
        return isinstance(spec, dict) and any(self.table.objects.get(t) for t in spec)

    def field_items(self, spec: Any, where: str, resolve: bool = True) -> list[KeyItem]:
        if not isinstance(spec, dict):
            raise _Malformed(f"{where} must be an object of resource type to field paths")
        items = []
        for rtype, paths in sorted(spec.items()):
            if not isinstance(rtype, str) or not isinstance(paths, list):
                raise _Malformed(f"{where}: {rtype!r} must map to an array of field paths")
            parsed = []
            for path in paths:
                if not isinstance(path, str):
                    raise _Malformed(f"{where}.{rtype}: a field path must be a string")
                try:
                    parsed.append(parse_field_path(path))
                except FieldPathError as exc:
                    raise _Malformed(f"{where}.{rtype}: {exc}") from None
            if not resolve:
                continue
            number_at = self.table.number_at
            objects = self.table.objects.get(rtype, ())
            if len(parsed) == 1 and len(parsed[0].steps) == 1:
                # One plain name (the usual case): a key lookup per object.
                (name,) = parsed[0].steps
                for pos, obj in enumerate(objects):
                    if name in obj:
                        items.append(KeyItem(number_at[rtype, pos], obj[name]))
                continue
            for pos, obj in enumerate(objects):
                number = number_at[rtype, pos]
                items.extend(KeyItem(number, v) for path in parsed for v in values_at(obj, path))
        return items

    def name(self, addr: int) -> str | None:
        """The name of the info at ``addr``, when it has one."""
        if self.reader.kind(addr) != OBJECT:
            return None
        name_addr = self.reader.fields(addr).get("name")
        if name_addr is None or self.reader.kind(name_addr) != STRING:
            return None
        return self.reader.string(name_addr)

    def info(self, addr: int) -> Relation:
        if self.reader.kind(addr) != OBJECT:
            raise _Malformed(f"a relation must be an object, found {self.describe(addr)}")
        fields = self.reader.fields(addr)
        name_addr = fields.get("name")
        if name_addr is None or self.reader.kind(name_addr) != STRING:
            raise _Malformed("it has no name (a non-empty string)")
        name = self.reader.string(name_addr)
        if not name:
            raise _Malformed("it has no name (a non-empty string)")
        relation = Relation(name)
        try:
            if not any(k in fields for k in ("keys", "explicit", "fields")):
                raise _Malformed("it has neither keys nor explicit")
            if "keys" in fields:
                keys = fields["keys"]
                sides = self.reader.fields(keys) if self.reader.kind(keys) == OBJECT else {}
                if "left" not in sides or "right" not in sides:
                    raise _Malformed("keys must be an object with left and right")
                relation.left += self.key_items(sides["left"], "keys.left")
                relation.left_types |= {self.table.places[i.resource][0] for i in relation.left}
                relation.right += self.key_items(sides["right"], "keys.right")
            if "explicit" in fields:
                relation.explicit += self.explicit_pairs(fields["explicit"])
                relation.left_types |= {self.table.places[p.left][0] for p in relation.explicit}
            if "fields" in fields:
                spec = self.reader.read(fields["fields"])
                if not isinstance(spec, dict) or set(spec) != {"left", "right"}:
                    raise _Malformed("fields must be an object with left and right")
                if isinstance(spec["left"], dict):
                    relation.left_types |= set(spec["left"])
                # A side without resources means no edges: then the other side's
                # resources are not read (the specs are still checked).
                both = self.has_resources(spec["left"]) and self.has_resources(spec["right"])
                right = self.field_items(spec["right"], "fields.right", resolve=both)
                left = self.field_items(spec["left"], "fields.left", resolve=both)
                relation.left += left
                relation.right += right
        except _Malformed as exc:
            raise _Named(name, str(exc)) from None
        return relation


class _Named(Exception):
    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def read_declarations(
    reader: ValueReader,
    user_infos: Sequence[int],
    shipped_infos: Sequence[int],
    table: ResourceTable,
    files: RelationFiles,
    shipped_wanted: frozenset[str] | None = None,
) -> DeclaredRelations:
    """Decode the infos at the given addresses into merged relations.

    Shipped relations whose names are not in ``shipped_wanted`` (when given),
    or that a user relation replaces, are not read: no rule can ask for them.
    """
    decoder = _Decoder(reader, table)
    problems: list[RelationProblem] = []

    def decode(
        infos: Sequence[int], shipped: bool, replaced: Collection[str] = ()
    ) -> dict[str, Relation]:
        merged: dict[str, Relation] = {}
        for addr in infos:
            if shipped:
                name = decoder.name(addr)
                if name is not None and (
                    name in replaced or (shipped_wanted is not None and name not in shipped_wanted)
                ):
                    continue
            try:
                relation = decoder.info(addr)
            except _Named as exc:
                problems.append(
                    RelationProblem(str(exc), exc.name, files.defined_in(exc.name, shipped))
                )
                continue
            except _Malformed as exc:
                where = tuple(sorted(files.shipped if shipped else files.user))
                problems.append(RelationProblem(str(exc), None, where))
                continue
            into = merged.setdefault(relation.name, Relation(relation.name))
            into.left += relation.left
            into.right += relation.right
            into.explicit += relation.explicit
            into.left_types |= relation.left_types
        return merged

    user = decode(user_infos, shipped=False)
    shipped = decode(shipped_infos, shipped=True, replaced=user.keys())
    shipped_names = frozenset(shipped)
    relations = [*user.values(), *(shipped[n] for n in shipped_names)]
    relations.sort(key=lambda r: r.name)
    return DeclaredRelations(relations, shipped_names, problems)
