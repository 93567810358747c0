"""The Kubernetes manifest loader: golden States, recognition, errors, source map.

Each case under ``tests/loaders/k8s`` holds its manifests (a directory
``input/`` or a single file ``input.yaml``/``input.json``), the expected State
(``expected.json``) and the expected references (``expected_references.json``).
``REGO_ENGINE_UPDATE_GOLDEN=1`` rewrites both from the loader's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loader_goldens import UPDATE, reference_rows, write_golden

from engine.inputs.loaders.documents import parse_json, parse_yaml
from engine.inputs.loaders.kubernetes import INPUT_TYPE, ManifestFile, load, recognises
from engine.inputs.loaders.loaded import LoadedState, LoaderError
from engine.inputs.source_map import SourceLocation
from engine.inputs.state import parse_state

CASES = Path(__file__).parent.parent / "loaders" / "k8s"


def manifest_file(path: str, raw: bytes) -> ManifestFile:
    """A file as the integrator hands it over: JSON or a YAML stream."""
    documents = [parse_json(raw)] if path.endswith(".json") else parse_yaml(raw)
    return ManifestFile(path, raw, documents)


def load_case(case: Path) -> LoadedState:
    """The State of one case; display paths are relative to the case directory."""
    if (case / "input").is_dir():
        paths = sorted(p for p in (case / "input").iterdir() if p.is_file())
        display = "input"
    else:
        paths = [next(p for p in case.iterdir() if p.stem == "input")]
        display = paths[0].name
    files = [manifest_file(p.relative_to(case).as_posix(), p.read_bytes()) for p in paths]
    return load(files, display)


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_golden(case: str) -> None:
    loaded = load_case(CASES / case)
    document = json.loads(json.dumps(loaded.document))  # JSON through and through
    references = reference_rows(loaded)
    if UPDATE:
        write_golden(CASES / case / "expected.json", document)
        write_golden(CASES / case / "expected_references.json", references)
    expected = json.loads((CASES / case / "expected.json").read_text())
    expected_references = json.loads((CASES / case / "expected_references.json").read_text())
    assert document == expected
    assert sorted(references, key=json.dumps) == sorted(expected_references, key=json.dumps)
    assert parse_state(document).input_type == INPUT_TYPE
    inputs = CASES / case / "input"
    shown = sorted(p.name for p in inputs.iterdir()) if inputs.is_dir() else []
    assert loaded.source_files == (
        [f"input/{name}" for name in shown] if shown else [document["meta"]["filepath"]]
    )


DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web"},
    "spec": {},
}


@pytest.mark.parametrize(
    "doc",
    [
        DEPLOYMENT,
        {"apiVersion": "v1", "kind": "List", "items": []},
        {"apiVersion": "v1", "kind": "PodList", "metadata": {}, "items": [DEPLOYMENT]},
        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {}},
    ],
)
def test_recognises_manifests(doc: Any) -> None:
    assert recognises(doc)


@pytest.mark.parametrize(
    "doc",
    [
        {  # CloudFormation
            "AWSTemplateFormatVersion": "2010-09-09",
            "Resources": {"B": {"Type": "AWS::S3::Bucket", "Properties": {}}},
        },
        {  # Terraform plan
            "format_version": "1.2",
            "terraform_version": "1.8.5",
            "planned_values": {"root_module": {"resources": []}},
            "resource_changes": [],
        },
        {  # a State
            "format": "rego-engine-state",
            "input_type": "k8s",
            "resources": {"Deployment": {"default.web": {"attributes": DEPLOYMENT}}},
        },
        {"apiVersion": "v1", "kind": "Config", "clusters": []},  # a kubeconfig: no metadata
        {"apiVersion": 1, "kind": "Pod", "metadata": {}},
        {"apiVersion": "v1", "kind": "List", "metadata": {}},  # a List without items
        [DEPLOYMENT],
        "kind: Pod",
        None,
    ],
)
def test_does_not_recognise_other_documents(doc: Any) -> None:
    assert not recognises(doc)


def yaml_state(text: str, path: str = "app.yaml") -> LoadedState:
    return load([manifest_file(path, text.encode())], path)


def test_duplicates_across_files_name_both_locations() -> None:
    first = manifest_file("a.yaml", b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    second = manifest_file(
        "b.yaml",
        b"apiVersion: v1\nkind: Secret\nmetadata: {name: c}\n---\n"
        b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n",
    )
    loaded = load([first, second], "dir")
    [error] = loaded.errors
    assert "b.yaml:5" in error.message
    assert "a.yaml:1" in error.message
    assert "'default.c'" in error.message
    assert error.line == 5
    # the later definition is loaded, as kubectl apply leaves it, and the rest too
    config_map = loaded.document["resources"]["ConfigMap"]["default.c"]
    assert config_map["meta"]["filepath"] == "b.yaml"
    assert sorted(loaded.document["resources"]["Secret"]) == ["default.c"]


def test_same_name_in_other_namespace_or_kind_is_no_duplicate() -> None:
    loaded = yaml_state(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n"
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: other}\n---\n"
        "apiVersion: v1\nkind: Secret\nmetadata: {name: c}\n"
    )
    resources = loaded.document["resources"]
    assert sorted(resources["ConfigMap"]) == ["default.c", "other.c"]
    assert sorted(resources["Secret"]) == ["default.c"]


def test_missing_name_names_file_and_line() -> None:
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n"
        "---\n\n"
        "apiVersion: v1\nkind: Secret\nmetadata:\n  labels: {a: b}\n"
    )
    loaded = yaml_state(text, "secrets.yaml")
    [error] = loaded.errors
    assert error.message.startswith("secrets.yaml:6: Secret has no metadata.name")
    assert error.line == 6
    assert sorted(loaded.document["resources"]) == ["ConfigMap"]


def test_missing_name_inside_a_list_names_the_item() -> None:
    text = "apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Pod\n    metadata: {}"
    [error] = yaml_state(text).errors
    assert error.line == 4


@pytest.mark.parametrize("metadata", ["{name: 12}", "{name: a, namespace: [x]}"])
def test_names_that_are_not_strings_are_errors(metadata: str) -> None:
    loaded = yaml_state(f"apiVersion: v1\nkind: Pod\nmetadata: {metadata}\n")
    assert len(loaded.errors) == 1
    assert loaded.document["resources"] == {}


def test_values_read_as_kubectl_reads_them_and_keys_strings() -> None:
    loaded = yaml_state(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {7: a, 2024-01-01: b}}\n"
        "data: {binary: !!binary aGVsbG8=, when: 2024-06-01 10:30:00, on: y}\n"
    )
    resource = loaded.document["resources"]["ConfigMap"]["default.c"]
    assert resource["tags"] == {"7": "a", "2024-01-01": "b"}
    assert resource["attributes"]["data"] == {
        "binary": "hello",
        "when": "2024-06-01 10:30:00",
        "true": True,
    }


def test_a_document_json_cannot_hold_is_that_documents_error() -> None:
    loaded = yaml_state(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {nan: .nan}\n---\n"
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"
    )
    [error] = loaded.errors
    assert error.message.startswith("app.yaml:4: json: unsupported value")
    assert sorted(loaded.document["resources"]) == ["Secret"]


def test_a_document_that_contains_itself_is_an_error() -> None:
    with pytest.raises(LoaderError, match="contains itself"):
        yaml_state("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &x {me: *x}\n")


def test_files_without_manifests_give_an_empty_state() -> None:
    loaded = yaml_state("just: settings\n---\n- a list\n")
    assert loaded.document["resources"] == {}
    assert loaded.references == []


def test_source_map_in_second_document_of_a_stream() -> None:
    loaded = load_case(CASES / "multi_document")
    source_map = loaded.source_map
    assert source_map is not None
    where = "input.yaml"
    assert source_map.resource_location("DaemonSet", "logging.log-agent") == SourceLocation(
        where, 12, 1
    )
    containers = ("spec", "template", "spec", "containers", 0)
    privileged = (*containers, "securityContext", "privileged")
    assert source_map.attribute_location(
        "DaemonSet", "logging.log-agent", privileged
    ) == SourceLocation(where, 34, 13)
    # A path not written stops at its deepest written step (securityContext).
    assert source_map.attribute_location(
        "DaemonSet", "logging.log-agent", (*containers, "securityContext", "runAsUser")
    ) == SourceLocation(where, 33, 11)
    # After the empty, non-manifest and scalar documents.
    assert source_map.resource_location("ConfigMap", "logging.log-agent-config") == SourceLocation(
        where, 54, 1
    )
    assert source_map.resource_location("ConfigMap", "logging.absent") is None


def test_source_map_skips_null_documents_as_parsing_does() -> None:
    loaded = yaml_state("--- null\n---\n~\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    assert loaded.document["resources"]["Pod"]["default.p"]["meta"]["document_index"] == 0
    assert loaded.source_map is not None
    assert loaded.source_map.resource_location("Pod", "default.p") == SourceLocation(
        "app.yaml", 5, 1
    )


def test_source_map_across_files_and_list_items() -> None:
    web = load_case(CASES / "web_app").source_map
    assert web is not None
    assert web.attribute_location(
        "Ingress", "shop.storefront", ("spec", "tls", 0, "secretName")
    ) == SourceLocation("input/ingress.yaml", 13, 7)
    assert web.resource_location("Service", "shop.storefront") == SourceLocation(
        "input/service.yaml", 1, 1
    )
    listed = load_case(CASES / "kind_list").source_map
    assert listed is not None
    assert listed.resource_location("Service", "monitoring.grafana") == SourceLocation(
        "input.yaml", 39, 3
    )
    assert listed.attribute_location(
        "ConfigMap", "monitoring.grafana-datasources", ("data", "prometheus.yaml")
    ) == SourceLocation("input.yaml", 78, 7)


def test_json_source_map() -> None:
    source_map = load_case(CASES / "json_manifest").source_map
    assert source_map is not None
    assert source_map.attribute_location(
        "Pod", "kube-system.debug-shell", ("spec", "containers", 0, "securityContext")
    ) == SourceLocation("input.json", 20, 9)


JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
KEYS = st.sampled_from(
    [
        *("apiVersion", "kind", "metadata", "name", "namespace", "generateName", "labels"),
        *("items", "spec", "template", "volumes", "configMap", "roleRef", "subjects", "x"),
    ]
)
JSON_VALUES = st.recursive(
    JSON_SCALARS | st.sampled_from(["v1", "List", "Pod", "RoleBinding", "Role", "ClusterRole"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(KEYS | st.text(), inner, max_size=6)
    ),
    max_leaves=30,
)
MANIFESTS = st.fixed_dictionaries(
    {
        "apiVersion": st.sampled_from(["v1", "apps/v1", "rbac.authorization.k8s.io/v1"]),
        "kind": st.sampled_from(["Pod", "List", "PodList", "Namespace", "RoleBinding", "Ingress"]),
        "metadata": st.dictionaries(KEYS, JSON_VALUES, max_size=4),
    },
    optional={"items": st.lists(JSON_VALUES, max_size=3), "spec": JSON_VALUES},
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MANIFESTS | JSON_VALUES, max_size=5))
def test_random_documents_raise_only_loader_errors(documents: list[Any]) -> None:
    raw = json.dumps(documents).encode()
    try:
        loaded = load([ManifestFile("random.json", raw, documents)], "random.json")
    except LoaderError:
        return
    json.dumps(loaded.document, allow_nan=False)
    for reference in loaded.references:
        assert reference.target_key in loaded.document["resources"][reference.target_type]
