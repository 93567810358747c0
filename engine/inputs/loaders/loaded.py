"""What every loader returns: a State document, its source map and the
references it resolved; and the error a loader raises for a bad file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core.document_error import DocumentError

if TYPE_CHECKING:
    from engine.inputs.source_map import AttributePath, SourceMap
    from engine.inputs.suppressions import InlineSuppression

STATE_FORMAT = "rego-engine-state"
STATE_FORMAT_VERSION = "1.0"


LoaderError = DocumentError
"""A file cannot be loaded; ``line`` (1-based) when known (the error the shared
YAML reader, :mod:`engine.core.go_yaml`, raises too)."""


@dataclass(frozen=True, order=True)
class ResolvedReference:
    """An attribute of one resource that the loader resolved to another resource.

    E.g. ``aws_s3_bucket_policy.p`` attribute ``("bucket",)`` referring to
    ``aws_s3_bucket.b`` (its ``id`` attribute): ``target_attribute="id"``.

    ``kind`` says how the source wrote it: ``reference`` (a Terraform
    expression), ``Ref``/``GetAtt``/``Sub`` (CloudFormation intrinsics),
    ``resourceId`` (ARM), ``name``/``ownerReference`` (Kubernetes), one of
    :data:`DEPENDENCY_KINDS` (an explicit dependency, no attribute value), or
    ``contains`` (the target is nested in the source, e.g. an ARM child resource).
    """

    source_type: str
    source_key: str
    attribute: AttributePath
    target_type: str
    target_key: str
    target_attribute: str | None = None
    kind: str = "reference"


DEPENDENCY_KINDS = frozenset({"depends_on", "DependsOn", "dependsOn"})
"""Reference kinds of explicit dependencies (Terraform, CloudFormation, ARM)."""
CONTAINS_KIND = "contains"


@dataclass
class LoadedState:
    """One State a loader produced from one file (or one directory)."""

    document: dict[str, Any]
    source_map: SourceMap | None = None
    references: list[ResolvedReference] = field(default_factory=list)
    source_files: list[str] = field(default_factory=list)
    """Display paths of every file read (e.g. a root module's child modules)."""
    errors: list[LoaderError] = field(default_factory=list)
    """What was left out of the State and why (e.g. a module past the depth
    limit): the State is still scanned, and each error reported."""
    suppressions: list[InlineSuppression] = field(default_factory=list)
    """The inline suppression comments of the files read, in file and line order."""
    warnings: list[str] = field(default_factory=list)
    """What the State may lack and why (``file:line: message``, e.g. a module whose
    source is not available): reported, the exit code unchanged."""


def state_document(
    input_type: str,
    resources: dict[str, dict[str, dict[str, Any]]],
    *,
    filepath: str,
    environment_provider: str = "iac",
    meta: dict[str, Any] | None = None,
    scope: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A State document; ``meta.filepath`` is the file or directory loaded."""
    return {
        "format": STATE_FORMAT,
        "format_version": STATE_FORMAT_VERSION,
        "input_type": input_type,
        "environment_provider": environment_provider,
        "meta": {"filepath": filepath, **(meta or {})},
        "scope": {"filepath": filepath, **(scope or {})},
        "resources": resources,
    }


def resource_entry(
    resource_type: str,
    resource_id: str,
    namespace: str,
    attributes: dict[str, Any],
    *,
    meta: dict[str, Any] | None = None,
    tags: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One resource of a State document."""
    return {
        "id": resource_id,
        "resource_type": resource_type,
        "namespace": namespace,
        "meta": meta or {},
        "tags": tags or {},
        "attributes": attributes,
    }
