"""Inline suppressions applied to results: a comment on or above a resource's
declaration marks that rule's failing results for that resource as ignored.

A result is covered when its primary resource is written at the line a
comment applies to (the loaders' source maps give the line) and the comment
names its rule: ``rego-engine:ignore`` by metadata id or package, the peers'
spellings (``checkov:skip=``, ``tfsec:ignore:``) by one of the rule's
``aliases``. The result is marked as an ignore-file entry marks it, with
the reason ``inline: REASON (FILE:LINE)``. Comments written wrongly, naming
no rule of the scan, or giving no reason are warnings naming file and line.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.inputs.suppressions import InlineSuppression
from engine.results.building import Result
from engine.results.ignores import mark_ignored
from engine.results.report import ScanReport
from engine.rules.metadata import RuleMetadata
from engine.rules.selection import names_rule

OURS = "rego-engine"


def names(comment: InlineSuppression, package_ref: str, metadata: RuleMetadata) -> bool:
    """Whether ``comment`` names the rule ``package_ref`` with ``metadata``."""
    if comment.spelling == OURS:
        return names_rule(comment.rule, package_ref, metadata.id)
    return comment.rule in metadata.aliases


def reason(comment: InlineSuppression) -> str:
    """The reason a result covered by ``comment`` is reported with."""
    text = comment.reason or "no reason given"
    return f"inline: {text} ({comment.where})"


def apply_inline_suppressions(report: ScanReport, rules: Iterable[tuple[str, RuleMetadata]]) -> int:
    """Mark the failing results the inputs' suppression comments cover as
    ignored and warn about comments that cannot apply as written; ``rules``
    are the scan's rules (package reference, metadata). Returns how many
    results were marked."""
    catalogue = list(rules)
    comments = sorted({c for entry in report.inputs for c in entry.input.suppressions})
    report.warnings += [w for c in comments if (w := _warning(c, catalogue))]
    marked = 0
    for entry in report.inputs:
        by_line: dict[tuple[str, int], list[InlineSuppression]] = {}
        for comment in entry.input.suppressions:
            if comment.target_line is not None and not comment.problem:
                by_line.setdefault((comment.file, comment.target_line), []).append(comment)
        if not by_line:
            continue
        for rule in entry.rule_results:
            for result in rule.results:
                if result.passed or result.ignored:
                    continue
                written = _primary_line(result)
                if written is None:
                    continue  # no line to match a comment with
                found = next(
                    (c for c in by_line.get(written, ()) if names(c, rule.package, rule.metadata)),
                    None,
                )
                if found is not None:
                    mark_ignored(result, reason(found))
                    marked += 1
    return marked


def _warning(comment: InlineSuppression, catalogue: list[tuple[str, RuleMetadata]]) -> str:
    """Why ``comment`` is worth a warning; empty when it is not."""
    where = f"{comment.where}: inline suppression"
    if comment.problem:
        return f"{where} {comment.problem}; it does not apply"
    if not any(names(comment, ref, metadata) for ref, metadata in catalogue):
        what = "rule" if comment.spelling == OURS else f"{comment.spelling} check"
        return f"{where} names {what} {comment.rule!r}, which no rule of the scan declares"
    if not comment.reason:
        return f"{where} of {comment.rule} gives no reason"
    return ""


def _primary_line(result: Result) -> tuple[str, int] | None:
    """(file, line) where the result's primary resource is written, when known."""
    for resource in result.resources:
        if (resource.namespace, resource.type, resource.id) != (
            result.resource_namespace,
            result.resource_type,
            result.resource_id,
        ):
            continue
        location = resource.location
        if isinstance(location, dict):
            file, line = location.get("filepath"), location.get("line")
            if isinstance(file, str) and isinstance(line, int):
                return file, line
    return None
