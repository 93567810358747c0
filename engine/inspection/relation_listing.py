"""``rego-engine relations``: which relations exist, where they are defined, their edges.

The library API behind the command::

    listing = list_relations([Path("rules")], [Path("infra")], with_edges=True)
    sys.stdout.buffer.write(listing.to_json())

Relations are evaluated exactly as a scan evaluates them (phase 1 of the
index, once per input) and also over an empty State, so relations whose
existence does not depend on the input are listed without inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.evaluation.evaluator import RuleEvaluator
from engine.inputs.discovery import load_inputs
from engine.inputs.state import State, parse_state
from engine.relations.reference_relations import DERIVED_FILE
from engine.relations.snyk_api import InputRelations
from engine.rules.relation_modules import RelationFiles, follows_naming_convention
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import SourceError, load_sources
from engine.wasm import values
from engine.wasm.host import EvalError, Limits

_EMPTY_STATE = {"input_type": "", "resources": {}}


@dataclass(frozen=True)
class ListedEdge:
    """One edge of a relation on one input; ends are resources' ``_id``."""

    input: str
    left: str
    right: str
    annotation: Any = None


@dataclass
class ListedRelation:
    """One relation: where it is defined and its edges per input."""

    name: str
    defined_in: tuple[str, ...]
    shipped: bool
    edge_counts: dict[str, int] = field(default_factory=dict)
    edges: list[ListedEdge] = field(default_factory=list)
    left_types: set[str] = field(default_factory=set)


@dataclass
class RelationListing:
    """Every relation found, and the problems met finding them."""

    relations: list[ListedRelation] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def exit_code(self) -> int:
        """0 when every file, input and relation could be read, else 2."""
        return 2 if self.errors else 0

    def to_dict(self, with_edges: bool = False) -> dict[str, Any]:
        """``{"relations": [{name, defined_in, shipped, edge_counts[, edges]}], "warnings",
        "errors"}``."""
        out = []
        for relation in self.relations:
            entry: dict[str, Any] = {
                "name": relation.name,
                "defined_in": list(relation.defined_in),
                "shipped": relation.shipped,
                "edge_counts": relation.edge_counts,
            }
            if with_edges:
                entry["edges"] = [
                    {"input": e.input, "left": e.left, "right": e.right, "annotation": e.annotation}
                    for e in relation.edges
                ]
            out.append(entry)
        return {"relations": out, "warnings": self.warnings, "errors": self.errors}

    def to_json(self, with_edges: bool = False) -> bytes:
        """The listing as indented JSON with sorted keys."""
        return values.dumps_json(self.to_dict(with_edges), indent=True)

    def to_table(self, with_edges: bool = False) -> str:
        """The listing as text: one line per relation, then its edges when asked."""
        lines = []
        width = max((len(r.name) for r in self.relations), default=0)
        for relation in self.relations:
            counts = ", ".join(f"{name}: {n}" for name, n in relation.edge_counts.items())
            where = ", ".join(relation.defined_in)
            line = f"{relation.name.ljust(width)}  {where}"
            lines.append(f"{line}  [{counts}]" if counts else line)
            if with_edges:
                for edge in relation.edges:
                    note = (
                        ""
                        if edge.annotation is None
                        else " " + values.dumps_json(edge.annotation).decode("utf-8")
                    )
                    prefix = f"  {edge.input}: " if len(self.inputs) > 1 else "  "
                    lines.append(f"{prefix}{edge.left} --{relation.name}--> {edge.right}{note}")
        return "\n".join(lines) + ("\n" if lines else "")


def list_relations(
    rule_paths: list[Path],
    input_paths: list[Path],
    *,
    with_edges: bool = False,
    limits: Limits | None = None,
) -> RelationListing:
    """The relations defined below ``rule_paths`` (plus the shipped ones), with
    edge counts (and edges) on the inputs below ``input_paths``."""
    listing = RelationListing()
    source_errors: list[SourceError] = []
    sources = load_sources(rule_paths, on_error=source_errors.append)
    listing.errors += [f"{e} (skipped)" for e in source_errors]
    rule_set = compile_rule_set(sources)
    listing.errors += [f"{m} (file skipped)" for m in rule_set.library_errors]
    loaded = load_inputs(input_paths) if input_paths else None
    if loaded is not None:
        listing.errors += [str(p) for p in loaded.problems]
        listing.inputs = [i.name for i in loaded.inputs]
    evaluator = RuleEvaluator(rule_set, limits, all_relations=True)
    by_name: dict[str, ListedRelation] = {}
    runs: list[tuple[str | None, State]] = [(None, parse_state(_EMPTY_STATE))]
    runs += [(i.name, i.state) for i in loaded.inputs] if loaded is not None else []
    for input_name, state in runs:
        try:
            evaluator.load(state)
        except EvalError as exc:
            listing.errors.append(f"{input_name}: {exc}")
            continue
        relations = evaluator.api.relations
        assert relations is not None
        where = f"{input_name}: " if input_name is not None else ""
        # Over the empty State, problems are reported only when there are no inputs.
        problems = [] if input_name is None and len(runs) > 1 else relations.problems
        for problem in problems:
            message = f"{where}{problem}"
            if message not in listing.errors:
                listing.errors.append(message)
        _collect(by_name, relations, rule_set.relation_files, input_name, with_edges)
    evaluator.close()
    listing.relations = [by_name[n] for n in sorted(by_name)]
    for relation in listing.relations:
        if (
            not relation.shipped
            and DERIVED_FILE not in relation.defined_in
            and not follows_naming_convention(relation.name, relation.left_types)
        ):
            listing.warnings.append(
                f"relation {relation.name!r} ({', '.join(relation.defined_in)}) does not follow "
                "the naming convention: <left type>.<attribute>, or a resource type"
            )
    return listing


def _defined_in(relations: InputRelations, files: RelationFiles, name: str) -> tuple[str, ...]:
    """Files declaring ``name``, and :data:`DERIVED_FILE` when references make it."""
    declared = relations.declared
    derived = name in declared.derived_names
    declares = any(name in names for names in files.user.values()) or (
        name in declared.shipped_names
    )
    if derived and not declares:
        return (DERIVED_FILE,)
    found = files.defined_in(name, name in declared.shipped_names)
    return (*found, DERIVED_FILE) if derived else found


def _collect(
    by_name: dict[str, ListedRelation],
    relations: InputRelations,
    files: RelationFiles,
    input_name: str | None,
    with_edges: bool,
) -> None:
    table = relations.table
    for relation in relations.declared.relations:
        shipped = relation.name in relations.declared.shipped_names
        listed = by_name.setdefault(
            relation.name,
            ListedRelation(relation.name, _defined_in(relations, files, relation.name), shipped),
        )
        if relation.name in relations.declared.derived_names and DERIVED_FILE not in (
            listed.defined_in
        ):
            listed.defined_in = _defined_in(relations, files, relation.name)
        listed.left_types |= relation.left_types
        if input_name is None:
            continue
        edges = relations.index.edges.get(relation.name, [])
        listed.edge_counts[input_name] = len(edges)
        if with_edges:
            listed.edges += [
                ListedEdge(
                    input_name,
                    table.identity(e.left)[2],
                    table.identity(e.right)[2],
                    e.annotation,
                )
                for e in edges
            ]
