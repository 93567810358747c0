"""Attribute paths inferred from what a rule read, for resources it named none of.

A resource of a result whose infos gave no ``attributes`` shows the paths the
rule read of it (:mod:`engine.evaluation.attribute_reads`), located as named
paths are, in the order they were given; one with named paths keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def add_inferred(
    rule_results: RuleResults,
    paths: Mapping[ResourceKey, list[tuple[Any, ...]]],
    index: ResourceIndex,
) -> None:
    """Give every resource of ``rule_results`` without attribute paths those in ``paths``."""
    for result in rule_results.results:
        for resource in result.resources:
            if resource.attributes:
                continue
            key = (resource.namespace, resource.type, resource.id)
            resource.attributes = [
                AttributeRef(path, attribute_location(index, key, path), inferred=True)
                for path in paths.get(key, ())
            ]
