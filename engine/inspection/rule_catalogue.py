"""``rego-engine rules``: the catalogue of rules in ``-d`` paths or a bundle.

For each rule: its package, metadata (id, title, severity), the input types it
runs on, its resource type, and whether it queries relations and which.
The static facts come from the rule itself (evaluated once in Wasm, or read
from a bundle); relation use is read from the Rego text: calls of
``snyk.relates``, ``snyk.back_relates``, ``snyk.relates_with`` and
``snyk.back_relates_with`` in the rule's files and in the user packages they
reference (transitively). A relation name written as a string literal, or as
a constant rule (``name := "..."``) of the calling package, is listed; any
other name expression makes the rule's names incomplete (``relations_dynamic``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.evaluation.evaluator import RuleEvaluator, RuleStatics
from engine.evaluation.prepared_rules import PreparedRules, compile_rules
from engine.inputs.state import INPUT_TYPES
from engine.rules.metadata import AGGREGATE_INPUT_TYPES, MULTIPLE, RuleMetadata
from engine.rules.rego_outline import data_references, outline
from engine.rules.relation_queries import query_calls
from engine.rules.rule_set import DISPATCH_FILE
from engine.rules.sources import RegoFile
from engine.wasm import values


@dataclass(frozen=True)
class RelationUse:
    """The relations a body of Rego queries: names known, and whether some are not."""

    names: frozenset[str] = frozenset()
    dynamic: bool = False

    @property
    def used(self) -> bool:
        """Whether any relation is queried."""
        return bool(self.names) or self.dynamic

    def __or__(self, other: RelationUse) -> RelationUse:
        return RelationUse(self.names | other.names, self.dynamic or other.dynamic)


@dataclass(frozen=True)
class CatalogueEntry:
    """One rule as the catalogue lists it."""

    package: str
    id: str
    title: str
    severity: str
    input_type: str | None
    """As the rule declares it (``tf``); None: every input type."""
    resource_type: str
    relations: RelationUse
    files: tuple[str, ...]
    errors: tuple[str, ...] = ()
    metadata: RuleMetadata = field(default_factory=RuleMetadata)
    """Every metadata field (description, remediation, references, ...)."""

    @property
    def input_types(self) -> list[str]:
        """The input types the rule runs on."""
        if self.input_type is None:
            return list(INPUT_TYPES)
        expanded = AGGREGATE_INPUT_TYPES.get(self.input_type, frozenset({self.input_type}))
        return sorted(expanded)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "package": self.package,
            "id": self.id,
            "title": self.title,
            "severity": self.severity,
            "input_type": self.input_type,
            "input_types": self.input_types,
            "resource_type": self.resource_type,
            "uses_relations": self.relations.used,
            "relations": sorted(self.relations.names),
            "relations_dynamic": self.relations.dynamic,
            "files": list(self.files),
            "errors": list(self.errors),
        }


@dataclass
class RuleCatalogue:
    """Every rule found, and the problems met finding them."""

    rules: list[CatalogueEntry] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def exit_code(self) -> int:
        """0 when every rule could be read, else 2."""
        return 2 if self.errors or any(r.errors for r in self.rules) else 0

    def to_json(self) -> bytes:
        """``{"rules": [...], "errors", "warnings"}`` as indented JSON with sorted keys."""
        doc = {
            "rules": [r.to_dict() for r in self.rules],
            "errors": self.errors,
            "warnings": self.warnings,
        }
        return values.dumps_json(doc, indent=True)

    def to_table(self) -> str:
        """One line per rule: id, severity, input types, resource type, relations, title."""
        header = ("ID", "SEVERITY", "INPUT", "RESOURCE TYPE", "RELATIONS", "PACKAGE", "TITLE")
        rows = [header]
        for rule in self.rules:
            relations = ", ".join(sorted(rule.relations.names))
            if rule.relations.dynamic:
                relations = f"{relations}, (computed)" if relations else "(computed)"
            rows.append(
                (
                    rule.id or "-",
                    rule.severity or "-",
                    rule.input_type or "any",
                    rule.resource_type,
                    relations or "-",
                    rule.package,
                    "ERROR: " + rule.errors[0] if rule.errors else rule.title,
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(header) - 1)]
        lines = [
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[-1]
            for row in rows
        ]
        return "\n".join(line.rstrip() for line in lines) + "\n"


def relation_use(files: list[RegoFile]) -> RelationUse:
    """The relations queried in ``files`` (one package's modules), not following references."""
    found = query_calls(files)
    names = frozenset(c.name for c in found if c.name is not None)
    return RelationUse(names, any(c.name is None for c in found))


class _PackageGraph:
    """User packages, the relations each queries, and the packages each references."""

    def __init__(self, files: list[RegoFile]) -> None:
        by_package: dict[str, list[RegoFile]] = {}
        for file in files:
            if file.display.startswith("<shipped>/") or file.display == DISPATCH_FILE:
                continue
            package = outline(file.text).package
            if package is not None:
                by_package.setdefault(package, []).append(file)
        self.packages = sorted(by_package, key=len, reverse=True)
        self.direct = {p: relation_use(fs) for p, fs in by_package.items()}
        self.references = {
            p: {self._package_of(r) for f in fs for r in data_references(f.text)} - {None, p}
            for p, fs in by_package.items()
        }

    def _package_of(self, ref: str) -> str | None:
        """The user package a ``data`` reference falls in (the longest prefix)."""
        for package in self.packages:
            if ref == package or ref.startswith(package + "."):
                return package
        return None

    def use(self, package: str) -> RelationUse:
        """Relations queried by ``package`` and every user package it references."""
        seen = {package}
        todo = [package]
        total = RelationUse()
        while todo:
            current = todo.pop()
            total = total | self.direct.get(current, RelationUse())
            for ref in self.references.get(current, set()):
                if ref is not None and ref not in seen:
                    seen.add(ref)
                    todo.append(ref)
        return total


def catalogue_of(prepared: PreparedRules) -> RuleCatalogue:
    """The catalogue of compiled (or bundled) rules."""
    rule_set = prepared.rule_set
    out = RuleCatalogue(warnings=prepared.warnings)
    out.errors += prepared.file_errors  # rules that did not compile are listed with theirs
    statics: list[RuleStatics] = []
    if prepared.statics is not None:
        statics = prepared.statics
    elif rule_set.policy is not None and rule_set.rules:
        statics = RuleEvaluator(rule_set).statics
    files = list(rule_set.policy.rego_files) if rule_set.policy is not None else []
    graph = _PackageGraph(files)
    entries = [
        CatalogueEntry(
            package=rule.ref,
            id=s.metadata.id,
            title=s.metadata.title,
            severity=s.metadata.severity,
            input_type=s.input_type,
            resource_type=s.resource_type,
            relations=graph.use(rule.package),
            files=rule.files,
            errors=(s.error,) if s.error else (),
            metadata=s.metadata,
        )
        for rule, s in zip(rule_set.rules, statics, strict=True)
    ]
    entries += [
        CatalogueEntry(
            package=failed.rule.ref,
            id="",
            title="",
            severity="",
            input_type=None,
            resource_type=MULTIPLE,
            relations=RelationUse(),
            files=failed.rule.files,
            errors=tuple(str(m) for m in failed.messages),
        )
        for failed in rule_set.failed
    ]
    out.rules = sorted(entries, key=lambda e: e.package)
    if not out.rules:
        out.errors.append(
            "no rules found: a rule is a package under rules. that defines deny "
            f"(searched {prepared.origin})"
        )
    return out


def rule_catalogue(rule_paths: list[Path]) -> RuleCatalogue:
    """The catalogue of the rules below ``rule_paths`` (compiled, or from the module cache)."""
    return catalogue_of(compile_rules(rule_paths))
