"""Which scanned resources no rule looked at: nothing passes silently.

A resource is *covered* on its input when some rule that ran there asked for
its type (``snyk.resources``, a single-resource rule's ``resource_type``, a
supertype of it) or named it in a result. Every other resource is
*uncovered*: no rule of the scan could have failed it, so a scan reporting
"0 failed" says nothing about it. Pure functions over a report.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.relations.type_hierarchy import covered_types
from engine.results.report import InputReport, ScanReport


@dataclass(frozen=True)
class Coverage:
    """How many of a scan's resources some rule covered, and the rest by type."""

    resources: int
    uncovered_by_type: tuple[tuple[str, int], ...]
    """(resource type, resources of it no rule covered), sorted by type."""

    @property
    def uncovered(self) -> int:
        """Resources no rule covered."""
        return sum(n for _, n in self.uncovered_by_type)

    @property
    def none_applied(self) -> bool:
        """Whether the scan had resources and no rule covered any of them."""
        return self.resources > 0 and self.uncovered == self.resources

    def line(self, most: int = 8) -> str:
        """The summary of the uncovered resources (empty when every one is covered):
        ``3 resources of 2 types no rule checks: azurerm_a (2), azurerm_b (1)``; at
        most ``most`` types are named, the count of the rest is given."""
        if not self.uncovered:
            return ""
        named = ", ".join(f"{t} ({n})" for t, n in self.uncovered_by_type[:most])
        rest = len(self.uncovered_by_type) - most
        if rest > 0:
            named += f", and {rest} more type{'s' if rest > 1 else ''}"
        types = len(self.uncovered_by_type)
        if self.none_applied:
            lead = (
                "No rule applied to the one resource"
                if self.resources == 1
                else f"No rule applied to any of the {self.resources} resources"
            )
        else:
            lead = f"{_plural(self.uncovered, 'resource')} no rule checks"
        return f"{lead} ({_plural(types, 'type')}): {named}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _input_uncovered(report: InputReport) -> Counter[str]:
    state = report.input.state
    present = state.resource_types
    types: set[str] = set()
    named: set[tuple[str, str, str]] = set()
    for rule in report.rule_results:
        for asked in rule.resource_types:
            types.update(covered_types(state.input_type, present, asked))
        for result in rule.results:
            named.add((result.resource_namespace, result.resource_type, result.resource_id))
            named.update((r.namespace, r.type, r.id) for r in result.resources)
    return Counter(
        r.type
        for r in state.all_resources()
        if r.type not in types and (r.namespace, r.type, r.id) not in named
    )


def scan_coverage(report: ScanReport) -> Coverage:
    """The coverage of every input of ``report`` together."""
    total = 0
    uncovered: Counter[str] = Counter()
    for input_report in report.inputs:
        total += sum(1 for _ in input_report.input.state.all_resources())
        uncovered.update(_input_uncovered(input_report))
    return Coverage(total, tuple(sorted(uncovered.items())))
