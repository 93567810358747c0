"""Attribute paths inferred from what a rule read, for resources it named none of.

A resource of a result whose infos gave no ``attributes`` shows the paths the
rule read of it (:mod:`engine.evaluation.attribute_reads`), located as named
paths are, in the order they were given; one with named paths keeps them.

Inferred paths are bounded before they are built: at most
:data:`MAX_PATHS_PER_RESOURCE` per resource of a result, :data:`MAX_PATHS_PER_INPUT`
per input and :data:`MAX_PATHS_PER_SCAN` per scan (per worker process with
``--jobs``, per input on a cluster). Past a bound the paths are cut, in the
order they were given, and the rule's results carry a warning saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.results.building import (
    AttributeRef,
    ResourceIndex,
    ResourceKey,
    RuleResults,
    attribute_location,
)


def without_attributes(rule_results: RuleResults) -> set[ResourceKey]:
    """The resources of ``rule_results`` that show no attribute path."""
    return {
        (r.namespace, r.type, r.id)
        for result in rule_results.results
        for r in result.resources
        if not r.attributes
    }


MAX_PATHS_PER_RESOURCE = 100
"""Inferred paths shown for one resource of one result."""
MAX_PATHS_PER_INPUT = 50_000
"""Inferred paths shown in all the results of one input."""
MAX_PATHS_PER_SCAN = 1_000_000
"""Inferred paths shown in all the results of a scan."""


@dataclass
class InferredBudget:
    """The inferred paths a scan and its current input may still show."""

    scan_left: int = MAX_PATHS_PER_SCAN
    input_left: int = MAX_PATHS_PER_INPUT

    def next_input(self) -> None:
        """A new input starts: its own bound, within what the scan has left."""
        self.input_left = MAX_PATHS_PER_INPUT

    def take(self, wanted: int) -> int:
        """How many of ``wanted`` paths may be shown, charged now."""
        granted = max(0, min(wanted, self.scan_left, self.input_left))
        self.scan_left -= granted
        self.input_left -= granted
        return granted


def add_inferred(
    rule_results: RuleResults,
    paths: Mapping[ResourceKey, list[tuple[Any, ...]]],
    index: ResourceIndex,
    budget: InferredBudget | None = None,
) -> str | None:
    """Give every resource of ``rule_results`` without attribute paths those in
    ``paths``, within the bounds (``budget``: the scan's and the input's); why
    some were cut, or None."""
    budget = budget if budget is not None else InferredBudget()
    located: dict[ResourceKey, list[AttributeRef]] = {}
    cut: list[str] = []
    for result in rule_results.results:
        for resource in result.resources:
            if resource.attributes:
                continue
            key = (resource.namespace, resource.type, resource.id)
            read = paths.get(key, ())
            wanted = min(len(read), MAX_PATHS_PER_RESOURCE)
            if len(read) > MAX_PATHS_PER_RESOURCE and "resource" not in cut:
                cut.append("resource")
            granted = budget.take(wanted)
            if granted < wanted and "input or scan" not in cut:
                cut.append("input or scan")
            if key not in located or len(located[key]) < granted:
                located[key] = [
                    AttributeRef(path, attribute_location(index, key, path), inferred=True)
                    for path in read[:granted]
                ]
            resource.attributes = located[key][:granted]
    if not cut:
        return None
    return (
        f"inferred attribute paths cut at {MAX_PATHS_PER_RESOURCE} per resource of a result, "
        f"{MAX_PATHS_PER_INPUT:,} per input and {MAX_PATHS_PER_SCAN:,} per scan"
    )
