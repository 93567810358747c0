"""Kubernetes manifests → a State: one resource per object, of type ``kind``.

A manifest is an object with a string ``apiVersion``, a string ``kind`` and an
object ``metadata``; ``List`` (and ``*List``) documents stand for their
``items``. YAML files are read as kubectl reads them
(:mod:`engine.inputs.kubectl_yaml`: YAML 1.1 booleans, go-yaml v2's merge
order). An object that cannot be placed (no name, a name or namespace that
is not a string), a document kubectl's YAML library refuses, and a second
definition of the same kind, namespace and name are errors of that object
only: the rest of the files are loaded. Of two definitions of one object the
later is kept, as ``kubectl apply`` leaves the object it applied last.

The manifests of all the files given form one State, so references cross
files. A resource's key is ``<namespace>.<name>`` (namespace
``default`` when unset), or just the name for cluster-scoped kinds; its
attributes are the manifest as written, made JSON (timestamps become ISO 8601
strings, map keys strings, anything else that JSON cannot hold null).

References are recorded only where a manifest names another object of the
State explicitly: the ConfigMaps, Secrets, PersistentVolumeClaims and
ServiceAccount of a pod template, a binding's role and ServiceAccount
subjects, an Ingress's backend Services and TLS Secrets, an autoscaler's
target, and each owner in ``metadata.ownerReferences`` (the owner then also
``contains`` the object). Label selectors are not references.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.inputs.kubectl_yaml import KubectlYamlError, kubectl_documents
from engine.inputs.loaders.loaded import (
    CONTAINS_KIND,
    LoadedState,
    LoaderError,
    ResolvedReference,
    resource_entry,
    state_document,
)
from engine.inputs.source_map import AttributePath, DocumentPath, DocumentSourceMap, SourceLocation
from engine.inputs.suppressions import find_suppressions

INPUT_TYPE = "k8s"

DEFAULT_NAMESPACE = "default"

CLUSTER_SCOPED_KINDS = frozenset(
    {
        *("APIService", "CertificateSigningRequest", "ClusterRole", "ClusterRoleBinding"),
        *("ClusterTrustBundle", "ComponentStatus", "CSIDriver", "CSINode"),
        *("CustomResourceDefinition", "DeviceClass", "FlowSchema", "IngressClass"),
        *("IPAddress", "MutatingWebhookConfiguration", "Namespace", "Node"),
        *("PersistentVolume", "PodSecurityPolicy", "PriorityClass"),
        *("PriorityLevelConfiguration", "RuntimeClass", "SelfSubjectAccessReview"),
        *("SelfSubjectReview", "SelfSubjectRulesReview", "ServiceCIDR", "StorageClass"),
        *("StorageVersion", "StorageVersionMigration", "SubjectAccessReview", "TokenReview"),
        *("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"),
        *("ValidatingWebhookConfiguration", "VolumeAttachment", "VolumeAttributesClass"),
        *("MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding", "ResourceSlice"),
    }
)
"""Built-in kinds whose objects live outside any namespace."""

BUILT_IN_GROUPS = frozenset(
    {
        *("", "apps", "batch", "autoscaling", "policy", "extensions"),
        *("admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io"),
        *("authentication.k8s.io", "authorization.k8s.io", "certificates.k8s.io"),
        *("coordination.k8s.io", "discovery.k8s.io", "events.k8s.io"),
        *("flowcontrol.apiserver.k8s.io", "internal.apiserver.k8s.io", "networking.k8s.io"),
        *("node.k8s.io", "rbac.authorization.k8s.io", "resource.k8s.io"),
        *("scheduling.k8s.io", "storage.k8s.io", "storagemigration.k8s.io"),
    }
)
"""API groups the API server serves itself: a CustomResourceDefinition cannot
change the scope of their kinds."""

POD_SPEC_PATHS: dict[str, tuple[str, ...]] = {
    "Pod": ("spec",),
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "ReplicationController": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
"""Where each pod-bearing kind keeps its pod spec."""

_ANY = "*"
"""In a reference pattern: every item of a list."""

_CONTAINER_REFERENCES = tuple(
    ((group, _ANY, *path), target)
    for group in ("initContainers", "containers", "ephemeralContainers")
    for path, target in (
        (("envFrom", _ANY, "configMapRef", "name"), "ConfigMap"),
        (("envFrom", _ANY, "secretRef", "name"), "Secret"),
        (("env", _ANY, "valueFrom", "configMapKeyRef", "name"), "ConfigMap"),
        (("env", _ANY, "valueFrom", "secretKeyRef", "name"), "Secret"),
    )
)

POD_SPEC_REFERENCES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("serviceAccountName",), "ServiceAccount"),
    (("serviceAccount",), "ServiceAccount"),
    (("imagePullSecrets", _ANY, "name"), "Secret"),
    (("volumes", _ANY, "configMap", "name"), "ConfigMap"),
    (("volumes", _ANY, "secret", "secretName"), "Secret"),
    (("volumes", _ANY, "persistentVolumeClaim", "claimName"), "PersistentVolumeClaim"),
    (("volumes", _ANY, "projected", "sources", _ANY, "configMap", "name"), "ConfigMap"),
    (("volumes", _ANY, "projected", "sources", _ANY, "secret", "name"), "Secret"),
    *_CONTAINER_REFERENCES,
)
"""Names in a pod spec of objects in the pod's namespace, and their kinds."""

INGRESS_REFERENCES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("spec", "defaultBackend", "service", "name"), "Service"),
    (("spec", "rules", _ANY, "http", "paths", _ANY, "backend", "service", "name"), "Service"),
    (("spec", "backend", "serviceName"), "Service"),
    (("spec", "rules", _ANY, "http", "paths", _ANY, "backend", "serviceName"), "Service"),
    (("spec", "tls", _ANY, "secretName"), "Secret"),
)
"""Names in an Ingress (``networking.k8s.io/v1`` and the older beta forms)."""


@dataclass(frozen=True)
class ManifestFile:
    """One file of manifests: its display path, bytes and every parsed document."""

    path: str
    raw: bytes
    documents: list[Any]


@dataclass(frozen=True)
class _Manifest:
    """One Kubernetes object found in a file, and where: its document and the
    path inside the document (``()``, or ``("items", i)`` within a List)."""

    file: ManifestFile
    document_index: int
    path: DocumentPath
    manifest: dict[str, Any]

    @property
    def kind(self) -> str:
        return self.manifest["kind"]

    @property
    def metadata(self) -> dict[str, Any]:
        return self.manifest["metadata"]


@dataclass(frozen=True)
class _Placed:
    """A manifest with its State identity."""

    found: _Manifest
    kind: str
    key: str
    name: str
    namespace: str


def _is_object(doc: Any) -> bool:
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("apiVersion"), str)
        and isinstance(doc.get("kind"), str)
        and doc["kind"] != "List"
        and isinstance(doc.get("metadata"), dict)
    )


def _is_list(doc: Any) -> bool:
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("apiVersion"), str)
        and isinstance(doc.get("kind"), str)
        and doc["kind"].endswith("List")
        and isinstance(doc.get("items"), list)
    )


def recognises(doc: Any) -> bool:
    """Whether one parsed document is a Kubernetes manifest (or a List of them)."""
    return _is_list(doc) or _is_object(doc)


def _json_key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, datetime.date):
        return key.isoformat()
    return str(key)


def _json_value(value: Any) -> Any:
    """``value`` as JSON: what JSON cannot hold becomes null."""
    if isinstance(value, dict):
        return {_json_key(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime.date):
        return value.isoformat()
    return None


def _is_json(file: ManifestFile) -> bool:
    return file.path.endswith(".json") or file.raw.lstrip()[:1] in (b"{", b"[")


def _as_kubectl_reads(file: ManifestFile, errors: list[LoaderError]) -> ManifestFile:
    """``file`` with its YAML documents read as kubectl reads them; a document
    kubectl refuses is an error and no document (JSON files are read as they are)."""
    if _is_json(file):
        return file
    documents: list[Any] = []
    for document in kubectl_documents(file.raw):
        if isinstance(document, KubectlYamlError):
            where = f"{file.path}:{document.line}" if document.line else file.path
            errors.append(LoaderError(f"{where}: {document.message}", document.line))
            document = None
        documents.append(document)
    return ManifestFile(file.path, file.raw, documents)


def _manifests(file: ManifestFile, errors: list[LoaderError]) -> Iterator[_Manifest]:
    """The objects of a file in document order, Lists expanded into their items;
    a document nested too deeply is an error in ``errors``."""
    for index, doc in enumerate(file.documents):
        if not recognises(doc):
            continue
        try:
            doc = _json_value(doc)
        except RecursionError:
            errors.append(
                LoaderError(
                    f"{file.path}: document {index + 1} is nested too deeply (or contains itself)"
                )
            )
            continue
        pending: list[tuple[DocumentPath, Any]] = [((), doc)]
        while pending:
            path, value = pending.pop()
            if _is_list(value):
                items = value["items"]
                pending += [((*path, "items", i), items[i]) for i in reversed(range(len(items)))]
            elif _is_object(value):
                yield _Manifest(file, index, path, value)


def _location(found: _Manifest) -> SourceLocation | None:
    where = {("", ""): (found.document_index, found.path)}
    return DocumentSourceMap(found.file.path, found.file.raw, where).resource_location("", "")


def _error(found: _Manifest, message: str) -> LoaderError:
    at = _location(found)
    where = f"{found.file.path}:{at.line}" if at else found.file.path
    return LoaderError(f"{where}: {found.kind} {message}", at.line if at else None)


def _group(api_version: str) -> str:
    return api_version.rpartition("/")[0]


def _custom_cluster_kinds(found: Sequence[_Manifest]) -> frozenset[tuple[str, str]]:
    """(API group, kind) of the cluster-scoped custom resources that the
    CustomResourceDefinitions among ``found`` declare."""
    kinds: set[tuple[str, str]] = set()
    for m in found:
        spec = m.manifest.get("spec")
        if m.kind != "CustomResourceDefinition" or not isinstance(spec, dict):
            continue
        names = spec.get("names")
        kind = names.get("kind") if isinstance(names, dict) else None
        group = spec.get("group")
        if (
            spec.get("scope") == "Cluster"
            and isinstance(kind, str)
            and isinstance(group, str)
            and group not in BUILT_IN_GROUPS
        ):
            kinds.add((group, kind))
    return frozenset(kinds)


def _placed(found: _Manifest, cluster_kinds: frozenset[tuple[str, str]]) -> _Placed:
    """The kind, key, name and namespace of one manifest."""
    metadata = found.metadata
    name = metadata.get("name")
    if name is None or name == "":
        name = metadata.get("generateName")
        if name is None or name == "":
            raise _error(found, "has no metadata.name (nor metadata.generateName)")
    if not isinstance(name, str):
        raise _error(found, "has a metadata.name that is not a string")
    kind = found.kind
    group = _group(found.manifest["apiVersion"])
    if kind in CLUSTER_SCOPED_KINDS or (group, kind) in cluster_kinds:
        return _Placed(found, kind, name, name, "")
    namespace = metadata.get("namespace")
    if namespace is None or namespace == "":
        namespace = DEFAULT_NAMESPACE
    if not isinstance(namespace, str):
        raise _error(found, "has a metadata.namespace that is not a string")
    return _Placed(found, kind, f"{namespace}.{name}", name, namespace)


def _matches(value: Any, pattern: Sequence[str]) -> Iterator[tuple[AttributePath, str]]:
    """Every non-empty string at ``pattern`` below ``value`` (``*``: any list
    item), with its path."""
    found: list[tuple[AttributePath, Any]] = [((), value)]
    for step in pattern:
        below: list[tuple[AttributePath, Any]] = []
        for path, node in found:
            if step == _ANY and isinstance(node, list):
                below += [((*path, i), item) for i, item in enumerate(node)]
            elif step != _ANY and isinstance(node, dict) and step in node:
                below.append(((*path, step), node[step]))
        found = below
    for path, node in found:
        if isinstance(node, str) and node:
            yield path, node


def _named_objects(placed: _Placed) -> Iterator[tuple[AttributePath, str, str]]:
    """(attribute path, target kind, target key) of every object ``placed`` names."""
    manifest, kind, namespace = placed.found.manifest, placed.kind, placed.namespace
    if kind in POD_SPEC_PATHS:
        base = POD_SPEC_PATHS[kind]
        for pattern, target in POD_SPEC_REFERENCES:
            for path, name in _matches(manifest, (*base, *pattern)):
                yield path, target, f"{namespace}.{name}"
    elif kind == "Ingress":
        for pattern, target in INGRESS_REFERENCES:
            for path, name in _matches(manifest, pattern):
                yield path, target, f"{namespace}.{name}"
    elif kind in ("RoleBinding", "ClusterRoleBinding"):
        yield from _binding_references(manifest, kind, namespace)
    elif kind == "HorizontalPodAutoscaler":
        for _, target in _matches(manifest, ("spec", "scaleTargetRef", "kind")):
            for path, name in _matches(manifest, ("spec", "scaleTargetRef", "name")):
                yield path, target, f"{namespace}.{name}"


def _binding_references(
    manifest: dict[str, Any], kind: str, namespace: str
) -> Iterator[tuple[AttributePath, str, str]]:
    """A binding's role (a Role in its namespace, or a ClusterRole) and its
    ServiceAccount subjects."""
    role = manifest.get("roleRef")
    if isinstance(role, dict):
        for path, name in _matches(role, ("name",)):
            if role.get("kind") == "ClusterRole":
                yield ("roleRef", *path), "ClusterRole", name
            elif role.get("kind") == "Role" and kind == "RoleBinding":
                yield ("roleRef", *path), "Role", f"{namespace}.{name}"
    subjects = manifest.get("subjects")
    for i, subject in enumerate(subjects if isinstance(subjects, list) else []):
        if not isinstance(subject, dict) or subject.get("kind") != "ServiceAccount":
            continue
        home = subject.get("namespace") or (namespace if kind == "RoleBinding" else None)
        for path, name in _matches(subject, ("name",)):
            if isinstance(home, str):
                yield ("subjects", i, *path), "ServiceAccount", f"{home}.{name}"


def _owners(placed: _Placed) -> Iterator[tuple[AttributePath, str, str]]:
    """(attribute path, owner kind, owner key) of each of ``metadata.ownerReferences``;
    owners live in the object's namespace, or are cluster-scoped."""
    owners = placed.found.metadata.get("ownerReferences")
    for i, owner in enumerate(owners if isinstance(owners, list) else []):
        if not isinstance(owner, dict) or not isinstance(owner.get("kind"), str):
            continue
        for path, name in _matches(owner, ("name",)):
            key = name if owner["kind"] in CLUSTER_SCOPED_KINDS else f"{placed.namespace}.{name}"
            yield ("metadata", "ownerReferences", i, *path), owner["kind"], key


def _references(placed: Sequence[_Placed]) -> list[ResolvedReference]:
    present = {(p.kind, p.key) for p in placed}
    references = {
        ResolvedReference(p.kind, p.key, path, target, target_key, None, "name")
        for p in placed
        for path, target, target_key in _named_objects(p)
        if (target, target_key) in present
    }
    for p in placed:
        for path, owner, owner_key in _owners(p):
            if (owner, owner_key) in present:
                references.add(
                    ResolvedReference(p.kind, p.key, path, owner, owner_key, None, "ownerReference")
                )
                references.add(
                    ResolvedReference(owner, owner_key, (), p.kind, p.key, None, CONTAINS_KIND)
                )
    return sorted(references)


class ManifestSourceMap:
    """A :class:`~engine.inputs.source_map.SourceMap` over the files of one State:
    each resource is looked up in its own file's :class:`DocumentSourceMap`."""

    def __init__(self, files: dict[tuple[str, str], DocumentSourceMap]) -> None:
        self._files = files

    def resource_location(self, resource_type: str, key: str) -> SourceLocation | None:
        file = self._files.get((resource_type, key))
        return file.resource_location(resource_type, key) if file else None

    def attribute_location(
        self, resource_type: str, key: str, path: AttributePath
    ) -> SourceLocation | None:
        file = self._files.get((resource_type, key))
        return file.attribute_location(resource_type, key, path) if file else None


def _source_map(placed: Sequence[_Placed]) -> ManifestSourceMap:
    paths: dict[str, dict[tuple[str, str], tuple[int, DocumentPath]]] = {}
    for p in placed:
        paths.setdefault(p.found.file.path, {})[(p.kind, p.key)] = (
            p.found.document_index,
            p.found.path,
        )
    files = {p.found.file.path: p.found.file for p in placed}
    maps = {path: DocumentSourceMap(path, files[path].raw, paths[path]) for path in paths}
    return ManifestSourceMap({(p.kind, p.key): maps[p.found.file.path] for p in placed})


def load(files: Sequence[ManifestFile], display: str) -> LoadedState:
    """One State of every manifest in ``files``; ``display`` is its ``meta.filepath``.
    Objects that cannot be loaded are the State's ``errors``."""
    errors: list[LoaderError] = []
    found = [m for file in files for m in _manifests(_as_kubectl_reads(file, errors), errors)]
    cluster_kinds = _custom_cluster_kinds(found)
    placed: dict[tuple[str, str], _Placed] = {}
    resources: dict[str, dict[str, dict[str, Any]]] = {}
    for m in found:
        try:
            p = _placed(m, cluster_kinds)
        except LoaderError as exc:
            errors.append(exc)
            continue
        first = placed.get((p.kind, p.key))
        if first is not None:
            at = _location(first.found)
            where = f"{first.found.file.path}:{at.line}" if at else first.found.file.path
            errors.append(
                _error(
                    m,
                    f"{p.key!r} is defined twice (first at {where}); this later definition "
                    "is the one loaded, as kubectl apply leaves it",
                )
            )
        placed[(p.kind, p.key)] = p
        labels = m.metadata.get("labels")
        resources.setdefault(p.kind, {})[p.key] = resource_entry(
            p.kind,
            p.name,
            p.namespace,
            m.manifest,
            meta={
                "filepath": m.file.path,
                "document_index": m.document_index,
                "api_version": m.manifest["apiVersion"],
            },
            tags=labels if isinstance(labels, dict) else None,
        )
    every = list(placed.values())
    return LoadedState(
        state_document(INPUT_TYPE, resources, filepath=display),
        _source_map(every),
        _references(every),
        sorted({file.path for file in files}),
        suppressions=[
            found
            for file in sorted(files, key=lambda f: f.path)
            for found in find_suppressions(file.raw, file.path, "yaml")
        ],
        errors=errors,
    )
