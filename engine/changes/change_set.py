"""The changes between two versions of an input (seed 004's model diffing).

Resources of the old and new States are matched by identity (type and key:
the CloudFormation logical id, the Terraform address, the Kubernetes
``namespace.name``, the ARM ``type/name``). Resources left over on both sides
are paired as renames when their attributes are similar enough
(:func:`similarity` at or above ``rename_threshold``). Matched resources are
compared property by property:

- ``insert`` / ``remove``: a resource only in the new / old input;
- ``update``: a property path whose value changed (``old``/``new``; a value
  that appears or disappears has ``null`` on the other side);
- ``move``: an array element matched to an element at another index (only
  elements whose order changed, not those shifted by an insertion);
- ``rename``: a resource whose identity changed (its attributes are similar);
- ``replace``: a resource the change recreates: a rename of a CloudFormation
  logical id or a Terraform address (without a ``moved`` block), an update of a
  property :mod:`engine.changes.cfn_replacement` lists, or a Terraform plan's
  delete-and-create actions.

Replacement propagates (seed 004): every property that refers to a replaced
resource (the new input's resolved references) gets an ``update`` marked
``possible``: the value it reads may change. Everything here is pure.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.changes.cfn_replacement import replacement_properties
from engine.changes.rename_threshold import RENAME_THRESHOLD
from engine.inputs.loaders.loaded import CONTAINS_KIND, DEPENDENCY_KINDS, ResolvedReference
from engine.inputs.state import State
from engine.wasm import values

OPERATIONS = ("remove", "insert", "rename", "replace", "update", "move")
"""Every operation, in the order changes of one resource are listed."""
_MAX_PAIRINGS = 40_000
_ABSENT = object()
"""Above this many element pairs, arrays are compared index by index."""

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Change:
    """One operation on one resource (or one of its properties)."""

    operation: str
    resource_type: str
    resource_id: str
    """The resource's key in the new input (in the old one for ``remove``)."""
    path: Path | None = None
    """The property path of an ``update`` or ``move`` (a ``move``'s new index last)."""
    old: Any = None
    new: Any = None
    old_id: str | None = None
    """A ``rename``'s key in the old input."""
    reason: str | None = None
    possible: bool = False
    """An ``update`` that propagation inferred: the value may change."""

    @property
    def id(self) -> str:
        """A stable identifier: operation, type, key and path."""
        where = "" if self.path is None else ":" + values.dumps_json(list(self.path)).decode()
        return f"{self.operation}:{self.resource_type}:{self.resource_id}{where}"

    def sort_key(self) -> tuple[Any, ...]:
        """Changes are listed by resource, its own operations first, then by path."""
        path = [(0, p) if isinstance(p, int) else (1, p) for p in self.path or ()]
        return (
            self.resource_type,
            self.resource_id,
            self.path is not None,
            path,
            OPERATIONS.index(self.operation),
            self.possible,
        )

    def to_dict(self) -> dict[str, Any]:
        """The change as policies see it (``input.changes[_]``) and JSON shows it."""
        return {
            "id": self.id,
            "operation": self.operation,
            "resource_type": self.resource_type,
            "resource_id": self.resource_id,
            "old_id": self.old_id,
            "path": None if self.path is None else list(self.path),
            "old": self.old,
            "new": self.new,
            "reason": self.reason,
            "possible": self.possible,
        }


# ---------------------------------------------------------------- similarity


def weight(value: Any) -> int:
    """The number of primitive values in ``value`` (an object's keys count too); at least 1."""
    if isinstance(value, dict):
        return max(1, sum(1 + weight(v) for v in value.values()))
    if isinstance(value, list):
        return max(1, sum(weight(v) for v in value))
    return 1


@dataclass
class _Diff:
    similarity: float
    weight: int
    changes: list[tuple[str, Path, Any, Any]] = field(default_factory=list)
    """(operation, path, old, new): ``update`` and ``move`` operations."""


def _primitive_similarity(old: Any, new: Any) -> float:
    if values.freeze(old) == values.freeze(new) and type(old) is type(new):
        return 1.0
    if isinstance(old, str) and isinstance(new, str):
        return difflib.SequenceMatcher(None, old, new, autojunk=False).ratio()
    return 0.0


def compare(old: Any, new: Any, path: Path = ()) -> _Diff:
    """The similarity of two values (weighted by primitive values, seed 004) and
    the operations turning ``old`` into ``new``."""
    if isinstance(old, dict) and isinstance(new, dict):
        return _compare_objects(old, new, path)
    if isinstance(old, list) and isinstance(new, list):
        return _compare_arrays(old, new, path)
    similarity = _primitive_similarity(old, new)
    diff = _Diff(similarity, max(weight(old), weight(new)))
    if similarity < 1.0:
        diff.changes.append(("update", path, old, new))
    return diff


def _compare_objects(old: dict[str, Any], new: dict[str, Any], path: Path) -> _Diff:
    # Seed 004: the similarity is the average of the values' similarities, each
    # weighted by its number of primitive values; the object's own weight also
    # counts its keys.
    total = score = 0.0
    keys = 0
    changes: list[tuple[str, Path, Any, Any]] = []
    for key in sorted(old.keys() | new.keys()):
        keys += 1
        if key in old and key in new:
            sub = compare(old[key], new[key], (*path, key))
            total += sub.weight
            score += sub.similarity * sub.weight
            changes += sub.changes
        else:
            total += weight(old[key] if key in old else new[key])
            changes.append(("update", (*path, key), old.get(key), new.get(key)))
    if not total:
        return _Diff(1.0, 1)
    return _Diff(score / total, int(total) + keys, changes)


def _unmoved(pairs: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The pairs (old index, new index) in a longest run keeping their order:
    the others are the ones that moved."""
    ordered = sorted(pairs)
    tails: list[int] = []
    tail_at: list[int] = []
    previous: list[int] = [-1] * len(ordered)
    for n, (_, j) in enumerate(ordered):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[k] = j
            tail_at[k] = n
        previous[n] = tail_at[k - 1] if k else -1
    kept: set[tuple[int, int]] = set()
    n = tail_at[-1] if tail_at else -1
    while n >= 0:
        kept.add(ordered[n])
        n = previous[n]
    return kept


def _compare_arrays(old: list[Any], new: list[Any], path: Path) -> _Diff:
    if len(old) * len(new) > _MAX_PAIRINGS:
        pairs = [(i, i) for i in range(min(len(old), len(new)))]
        diffs = {(i, i): compare(old[i], new[i], (*path, i)) for i, _ in pairs}
    else:
        candidates = []
        for i, a in enumerate(old):
            for j, b in enumerate(new):
                diff = compare(a, b, (*path, j))
                if diff.similarity >= 0.5:
                    candidates.append((-diff.similarity, i, j, diff))
        candidates.sort(key=lambda c: (c[0], c[1], c[2]))
        used_old: set[int] = set()
        used_new: set[int] = set()
        diffs = {}
        for _, i, j, diff in candidates:
            if i not in used_old and j not in used_new:
                used_old.add(i)
                used_new.add(j)
                diffs[(i, j)] = diff
        pairs = sorted(diffs)
    total = score = 0.0
    changes: list[tuple[str, Path, Any, Any]] = []
    kept = _unmoved(pairs)
    for i, j in pairs:
        diff = diffs[(i, j)]
        total += diff.weight
        score += diff.similarity * diff.weight
        if (i, j) not in kept:
            changes.append(("move", (*path, j), i, j))
        changes += diff.changes
    # Unmatched elements: gone (old index), new (new index), or, at one index
    # on both sides, one element changed beyond recognition.
    matched_old = {i for i, _ in pairs}
    matched_new = {j for _, j in pairs}
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) and i not in matched_old else _ABSENT
        b = new[i] if i < len(new) and i not in matched_new else _ABSENT
        if a is _ABSENT and b is _ABSENT:
            continue
        total += max(weight(a), weight(b))
        changes.append(
            ("update", (*path, i), None if a is _ABSENT else a, None if b is _ABSENT else b)
        )
    if not total:
        return _Diff(1.0, 1)
    return _Diff(score / total, int(total), changes)


def similarity(old: Any, new: Any) -> float:
    """How alike two values are, from 0 to 1 (seed 004's weighted average)."""
    return compare(old, new).similarity


# ---------------------------------------------------------------- resources


@dataclass(frozen=True)
class Side:
    """One input's resources by identity, and the references among them."""

    input_type: str
    resources: Mapping[tuple[str, str], dict[str, Any]]
    """(type, key) → attributes."""
    references: tuple[ResolvedReference, ...] = ()


def side_of(state: State) -> Side:
    """The resources of a State, by (type, key)."""
    return Side(
        state.input_type,
        {(r.type, r.key): r.attributes for r in state.all_resources()},
        state.references,
    )


@dataclass(frozen=True)
class PlannedChange:
    """One resource change of a Terraform plan."""

    resource_type: str
    address: str
    actions: tuple[str, ...]
    before: Any
    after: Any
    previous_address: str | None = None
    replace_paths: tuple[Path, ...] = ()
    after_unknown: Any = None
    """Terraform's ``after_unknown``: ``true`` where a value is known only after apply."""


def _property_changes(resource_type: str, key: str, old: Any, new: Any) -> list[Change]:
    return [
        Change(operation, resource_type, key, path, a, b)
        for operation, path, a, b in compare(old or {}, new or {}).changes
    ]


def _pair_renames(
    removed: list[tuple[str, str]],
    inserted: list[tuple[str, str]],
    old: Side,
    new: Side,
    threshold: float,
) -> list[tuple[tuple[str, str], tuple[str, str], float]]:
    """Greedy pairs of a removed and an inserted resource of one type, most
    similar first. Types with more than ``_MAX_PAIRINGS`` candidate pairs pair
    only resources with equal attributes."""
    candidates = []
    for rtype in sorted({t for t, _ in removed}):
        olds = [o for o in removed if o[0] == rtype]
        news = [n for n in inserted if n[0] == rtype]
        if len(olds) * len(news) > _MAX_PAIRINGS:
            by_value: dict[Any, list[tuple[str, str]]] = {}
            for n in news:
                by_value.setdefault(values.freeze(new.resources[n]), []).append(n)
            for o in olds:
                for n in by_value.get(values.freeze(old.resources[o]), ()):
                    candidates.append((-1.0, o, n))
            continue
        for o in olds:
            for n in news:
                score = similarity(old.resources[o], new.resources[n])
                if score >= threshold:
                    candidates.append((-score, o, n))
    candidates.sort()
    taken_old: set[tuple[str, str]] = set()
    taken_new: set[tuple[str, str]] = set()
    pairs = []
    for score, o, n in candidates:
        if o not in taken_old and n not in taken_new:
            taken_old.add(o)
            taken_new.add(n)
            pairs.append((o, n, -score))
    return pairs


def _renamed(
    renames: list[tuple[tuple[str, str], tuple[str, str], float]],
    old: Mapping[tuple[str, str], Any],
    new: Mapping[tuple[str, str], Any],
) -> list[Change]:
    """Each rename, the replacement it makes, and its property changes."""
    changes = []
    for (rtype, old_key), (_, new_key), score in renames:
        changes.append(
            Change(
                "rename",
                rtype,
                new_key,
                old_id=old_key,
                reason=f"attributes {score:.0%} similar",
            )
        )
        changes.append(
            Change("replace", rtype, new_key, reason=f"renamed from {old_key}: a new resource")
        )
        changes += _property_changes(rtype, new_key, old[(rtype, old_key)], new[(rtype, new_key)])
    return changes


def diff_sides(old: Side, new: Side, *, rename_threshold: float = RENAME_THRESHOLD) -> list[Change]:
    """The changes from ``old`` to ``new`` (two versions of a template, a
    configuration or a set of manifests), propagated and sorted."""
    changes: list[Change] = []
    removed = sorted(k for k in old.resources if k not in new.resources)
    inserted = sorted(k for k in new.resources if k not in old.resources)
    renames = _pair_renames(removed, inserted, old, new, rename_threshold)
    renamed_old = {o for o, _, _ in renames}
    renamed_new = {n for _, n, _ in renames}
    changes += [
        Change("remove", t, k, old=old.resources[(t, k)])
        for t, k in removed
        if (t, k) not in renamed_old
    ]
    changes += [
        Change("insert", t, k, new=new.resources[(t, k)])
        for t, k in inserted
        if (t, k) not in renamed_new
    ]
    changes += _renamed(renames, old.resources, new.resources)
    for key in sorted(k for k in old.resources if k in new.resources):
        rtype, rkey = key
        updates = _property_changes(rtype, rkey, old.resources[key], new.resources[key])
        changes += updates
        if new.input_type == "cfn":
            needs = replacement_properties(rtype)
            recreating = sorted({str(c.path[0]) for c in updates if c.path and c.path[0] in needs})
            if recreating:
                changes.append(
                    Change(
                        "replace",
                        rtype,
                        rkey,
                        reason="updating " + ", ".join(recreating) + " requires replacement",
                    )
                )
    return finish(changes, new)


def diff_plan(
    planned: list[PlannedChange], new: Side, *, rename_threshold: float = RENAME_THRESHOLD
) -> list[Change]:
    """The changes a Terraform plan's ``resource_changes`` describe, propagated
    over the planned values' references (``new``)."""
    changes: list[Change] = []
    # A delete and a create of one type with similar attributes: a rename
    # without a moved block, which Terraform carries out as a replacement.
    deleted = {(p.resource_type, p.address): p.before for p in planned if p.actions == ("delete",)}
    created = {(p.resource_type, p.address): p.after for p in planned if p.actions == ("create",)}
    renames = _pair_renames(
        sorted(deleted),
        sorted(created),
        Side("tf_plan", deleted),
        Side("tf_plan", created),
        rename_threshold,
    )
    paired = {o for o, _, _ in renames} | {n for _, n, _ in renames}
    changes += _renamed(renames, deleted, created)
    for p in planned:
        actions = set(p.actions)
        if p.actions == ("read",) or not actions or (p.resource_type, p.address) in paired:
            continue
        if p.previous_address and p.previous_address != p.address:
            changes.append(
                Change("rename", p.resource_type, p.address, old_id=p.previous_address,
                       reason="moved")
            )  # fmt: skip
        if actions == {"create"}:
            changes.append(Change("insert", p.resource_type, p.address, new=p.after))
        elif actions == {"delete"}:
            changes.append(Change("remove", p.resource_type, p.address, old=p.before))
        elif actions >= {"create", "delete"} or actions == {"update"}:
            changes += [
                replace(c, reason="known after apply")
                if c.path is not None and _unknown_at(p.after_unknown, c.path)
                else c
                for c in _property_changes(p.resource_type, p.address, p.before, p.after)
            ]
            if actions >= {"create", "delete"}:
                paths = ", ".join(".".join(str(s) for s in path) for path in p.replace_paths)
                order = (
                    "create before destroy" if p.actions[0] == "create" else "destroy and create"
                )
                reason = f"{order}" + (f" (changing {paths} forces it)" if paths else "")
                changes.append(Change("replace", p.resource_type, p.address, reason=reason))
    return finish(changes, new)


def _unknown_at(unknown: Any, path: Path) -> bool:
    """Whether ``after_unknown`` marks ``path`` (or a value containing it) unknown."""
    for step in path:
        if unknown is True:
            return True
        unknown = _child(unknown, step)
    return unknown is True


def finish(changes: list[Change], new: Side) -> list[Change]:
    """``changes`` with replacement propagated (seed 004), sorted."""
    replaced = {(c.resource_type, c.resource_id) for c in changes if c.operation == "replace"}
    gone = {
        (c.resource_type, c.resource_id) for c in changes if c.operation in ("insert", "remove")
    }
    updated = {(c.resource_type, c.resource_id, c.path) for c in changes if c.operation == "update"}
    propagated: dict[tuple[str, str, Path], Change] = {}
    for ref in new.references:
        target = (ref.target_type, ref.target_key)
        source = (ref.source_type, ref.source_key)
        if target not in replaced or source in gone or source == target:
            continue
        if ref.kind in DEPENDENCY_KINDS or ref.kind == CONTAINS_KIND or not ref.attribute:
            continue  # no property reads the target's value
        if (*source, ref.attribute) in updated:
            continue
        attributes = new.resources.get(source)
        if attributes is None:
            continue
        value = _value_at(attributes, ref.attribute)
        propagated.setdefault(
            (*source, ref.attribute),
            Change(
                "update",
                ref.source_type,
                ref.source_key,
                ref.attribute,
                value,
                value,
                reason=f"refers to {ref.target_key}, which is replaced",
                possible=True,
            ),
        )
    return sorted(changes + list(propagated.values()), key=Change.sort_key)


def _child(value: Any, step: str | int) -> Any:
    """The member or element ``step`` of ``value``; None when it has none."""
    if isinstance(step, str) and isinstance(value, dict):
        return value.get(step)
    if isinstance(step, int) and isinstance(value, list) and 0 <= step < len(value):
        return value[step]
    return None


def _value_at(value: Any, path: Path) -> Any:
    for step in path:
        value = _child(value, step)
    return value
