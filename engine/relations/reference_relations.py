"""Relations nobody writes: the references the loaders resolved, as relations.

Each :class:`~engine.inputs.loaders.loaded.ResolvedReference` of a State becomes an
edge (source resource → target resource) of:

- ``<source type>.<attribute path>``, the path's names joined by ``.`` with
  list indices left out (``AWS::IAM::Policy.Roles``,
  ``aws_cloudtrail.s3_bucket_name``), and the generic ``references``, for a
  reference written in an attribute;
- ``depends_on``, for an explicit dependency (Terraform ``depends_on``,
  CloudFormation ``DependsOn``, ARM ``dependsOn``);
- ``contains``, from a resource to one nested in it in the source (ARM child
  resources, Kubernetes objects to the objects they own).

Every edge is annotated ``{"attribute": [path...], "kind": ..., "target_attribute":
...}``. The relations are plain :class:`~engine.relations.index.Relation`
values with explicit pairs, so they join, merge with declared relations of the
same name and are indexed like any other. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.inputs.loaders.loaded import CONTAINS_KIND, DEPENDENCY_KINDS, ResolvedReference
from engine.relations.declarations import ResourceTable
from engine.relations.index import ExplicitPair, Relation

REFERENCES = "references"
DEPENDS_ON = "depends_on"
CONTAINS = "contains"
DERIVED_FILE = "<loader references>"
"""What ``rego-engine relations`` shows as where a derived relation is defined."""


def relation_names(reference: ResolvedReference) -> tuple[str, ...]:
    """The relations one reference is an edge of."""
    if reference.kind in DEPENDENCY_KINDS:
        return (DEPENDS_ON,)
    if reference.kind == CONTAINS_KIND:
        return (CONTAINS,)
    steps = [str(step) for step in reference.attribute if isinstance(step, str)]
    if not steps:
        return (REFERENCES,)
    return (f"{reference.source_type}.{'.'.join(steps)}", REFERENCES)


def annotation(reference: ResolvedReference) -> dict[str, object]:
    """The annotation of a reference's edges."""
    return {
        "attribute": list(reference.attribute),
        "kind": reference.kind,
        "target_attribute": reference.target_attribute,
    }


def reference_relations(
    references: Iterable[ResolvedReference],
    numbers: dict[tuple[str, str], int],
) -> list[Relation]:
    """The derived relations, sorted by name; ``numbers`` maps (type, key) to the
    resource's number in the index (references to unknown resources are dropped)."""
    by_name: dict[str, Relation] = {}
    for reference in references:
        left = numbers.get((reference.source_type, reference.source_key))
        right = numbers.get((reference.target_type, reference.target_key))
        if left is None or right is None:
            continue
        for name in relation_names(reference):
            relation = by_name.setdefault(name, Relation(name))
            relation.explicit.append(ExplicitPair(left, right, annotation(reference)))
            if name not in (REFERENCES, DEPENDS_ON, CONTAINS):
                relation.left_types.add(reference.source_type)
    return [by_name[name] for name in sorted(by_name)]


def merge(declared: list[Relation], derived: list[Relation]) -> list[Relation]:
    """``declared`` with ``derived`` added: relations of one name merge."""
    out = {r.name: r for r in declared}
    for relation in derived:
        into = out.get(relation.name)
        if into is None:
            out[relation.name] = relation
            continue
        merged = Relation(relation.name, list(into.left), list(into.right))
        merged.explicit = [*into.explicit, *relation.explicit]
        merged.left_types = into.left_types | relation.left_types
        out[relation.name] = merged
    return [out[name] for name in sorted(out)]


def derived_relations(table: ResourceTable, wanted: frozenset[str] | None = None) -> list[Relation]:
    """The derived relations of the table's State (only those in ``wanted``, when given)."""
    state = table.state
    references = [
        r
        for r in state.references
        if wanted is None or any(name in wanted for name in relation_names(r))
    ]
    if not references:
        return []
    numbers = {
        (rtype, state.resources[rtype][pos].key): n for n, (rtype, pos) in enumerate(table.places)
    }
    relations = reference_relations(references, numbers)
    return [r for r in relations if wanted is None or r.name in wanted]
