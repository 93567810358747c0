"""The Terraform state loader: golden States (``terraform show -json`` of a
state, and raw ``terraform.tfstate`` version 4), recognition, source map and errors.

Each case under ``tests/loaders/tf_state`` holds one state file (``input.json``
or ``terraform.tfstate``) and the expected State (``expected.json``);
``REGO_ENGINE_UPDATE_GOLDEN=1`` rewrites it from the loader's output.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loader_goldens import SNYK_EXPECTED, check_snyk_parity

from engine.inputs.loaders import terraform_plan, terraform_state
from engine.inputs.loaders.documents import parse_json
from engine.inputs.loaders.loaded import LoadedState, LoaderError
from engine.inputs.state import parse_state

CASES = Path(__file__).parent.parent / "loaders" / "tf_state"
UPDATE = os.environ.get("REGO_ENGINE_UPDATE_GOLDEN") == "1"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def input_file(case: str) -> Path:
    not_inputs = ("expected.json", SNYK_EXPECTED)
    return next(p for p in sorted((CASES / case).iterdir()) if p.name not in not_inputs)


def load_case(case: str) -> LoadedState:
    path = input_file(case)
    raw = path.read_bytes()
    return terraform_state.load(parse_json(raw), raw, path.name)


def case_document(case: str) -> Any:
    return parse_json(input_file(case).read_bytes())


@pytest.mark.parametrize("case", CASE_NAMES)
def test_golden(case: str) -> None:
    loaded = load_case(case)
    document = json.loads(json.dumps(loaded.document))
    golden = CASES / case / "expected.json"
    if UPDATE:
        check_snyk_parity(CASES / case, document)
        golden.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
    assert document == json.loads(golden.read_text())
    assert parse_state(document).input_type == "tf_state"
    assert loaded.references == []
    assert loaded.source_files == [input_file(case).name]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_every_case_is_a_state_and_not_a_plan(case: str) -> None:
    doc = case_document(case)
    assert terraform_state.recognises(doc)
    assert not terraform_plan.recognises(doc)


def test_a_plan_is_not_a_state() -> None:
    plan = parse_json((CASES.parent / "tf_plan" / "replace_delete" / "input.json").read_bytes())
    assert not terraform_state.recognises(plan)


@pytest.mark.parametrize(
    "doc",
    [
        {"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"B": {"Type": "AWS::S3::Bucket"}}},
        {
            "$schema": "https://schema.management.azure.com/",
            "contentVersion": "1.0.0.0",
            "resources": [{"type": "Microsoft.Storage/storageAccounts"}],
        },
        {"format": "", "input_type": "tf_state", "resources": {}},
        {"version": 4, "resources": [{"type": "aws_s3_bucket"}]},
        {"version": True, "lineage": "x", "serial": 1},
        {"values": {"outputs": {}}},
        [],
        None,
    ],
)
def test_not_recognised(doc: Any) -> None:
    assert not terraform_state.recognises(doc)


def test_raw_state_keys_modules_indices_and_skips_deposed_objects() -> None:
    loaded = load_case("raw_v4")
    resources = loaded.document["resources"]
    assert sorted(resources["aws_iam_user"]) == [
        'module.users.aws_iam_user.this["carol"]',
        'module.users.aws_iam_user.this["dave"]',
    ]
    instance = resources["aws_instance"]["aws_instance.worker"]
    assert instance["attributes"]["id"] == "i-0aaa1111bbbb2222c"  # not the deposed object
    assert resources["aws_sqs_queue"]["aws_sqs_queue.jobs"]["meta"] == {
        "provider": "aws.east",
        "tfstate": {"name": "jobs"},
    }
    carol = resources["aws_iam_user"]['module.users.aws_iam_user.this["carol"]']
    assert carol["meta"]["tfstate"] == {"name": "this"}
    assert "data.aws_iam_policy_document.queue" in resources["data.aws_iam_policy_document"]


def test_source_map_of_a_raw_state() -> None:
    loaded = load_case("raw_v4")
    assert loaded.source_map is not None
    lines = input_file("raw_v4").read_text().splitlines()
    key = 'module.users.aws_iam_user.this["dave"]'
    start = loaded.source_map.resource_location("aws_iam_user", key)
    assert start is not None and start.path == "terraform.tfstate"
    assert lines[start.line].strip() == '"index_key": "dave",'
    tag = loaded.source_map.attribute_location("aws_iam_user", key, ("tags", "Team"))
    assert tag is not None
    assert lines[tag.line - 1].strip() == '"tags": {"Team": "data"},'
    assert lines[tag.line - 1][tag.column - 1 :].startswith('"Team"')


def test_source_map_of_a_shown_state() -> None:
    loaded = load_case("shown_modules")
    assert loaded.source_map is not None
    lines = input_file("shown_modules").read_text().splitlines()
    rtype = "google_compute_firewall"
    key = 'module.network.module.firewall.google_compute_firewall.rules["web"]'
    start = loaded.source_map.resource_location(rtype, key)
    assert start is not None
    assert (
        '"address": "module.network.module.firewall.google_compute_firewall.rules[\\"web\\"]"'
        in (lines[start.line])
    )
    port = loaded.source_map.attribute_location(rtype, key, ("allow", 0, "ports", 1))
    assert port is not None
    assert lines[port.line - 1].strip().startswith('"allow": [{"ports": ["80", "443"]')
    assert lines[port.line - 1][port.column - 1 :].startswith('"443"')


RAW = {"version": 4, "terraform_version": "1.5.7", "serial": 1, "lineage": "l", "resources": []}
SHOWN = {"format_version": "1.0", "terraform_version": "1.6.0", "values": {"root_module": {}}}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (
            {**SHOWN, "format_version": "2.1"},
            "unsupported state format_version 2.1 (this engine reads 1.x)",
        ),
        ({**SHOWN, "format_version": None}, "state format_version must be a string, found null"),
        ({**SHOWN, "values": []}, "values must be an object, found an array"),
        ({**SHOWN, "values": {}}, "values has no root_module"),
        (
            {**SHOWN, "values": {"root_module": {"child_modules": [3]}}},
            "values.root_module.child_modules.0 must be an object, found a number",
        ),
        (
            {**RAW, "version": 3},
            "unsupported terraform.tfstate version 3 (this engine reads version 4)",
        ),
        ({**RAW, "resources": {}}, "resources must be an array, found an object"),
        (
            {**RAW, "resources": [{"mode": "managed", "name": "b", "instances": []}]},
            "resources.0.type must be a non-empty string, found null",
        ),
        (
            {**RAW, "resources": [{"mode": "other", "type": "t", "name": "b"}]},
            'resources.0.mode must be "managed" or "data", found \'other\'',
        ),
        (
            {**RAW, "resources": [{"type": "t", "name": "b", "instances": [{"attributes": 5}]}]},
            "resources.0.instances.0.attributes must be an object, found a number",
        ),
        (
            {**RAW, "resources": [{"type": "t", "name": "b", "instances": [{"index_key": 1.5}]}]},
            "resources.0.instances.0.index_key must be a number or a string",
        ),
        ("state", "a Terraform state must be an object, found a string"),
        ({"serial": 3}, 'a Terraform state needs "values" or "version" and "resources"'),
    ],
)
def test_malformed_states(doc: Any, message: str) -> None:
    with pytest.raises(LoaderError) as raised:
        terraform_state.load(doc, b"", "terraform.tfstate")
    assert raised.value.message == message


def test_duplicate_instances_are_an_error() -> None:
    doc = copy.deepcopy(case_document("raw_v4"))
    doc["resources"].append(copy.deepcopy(doc["resources"][2]))
    with pytest.raises(LoaderError, match=r"resource aws_sqs_queue\.jobs appears twice"):
        terraform_state.load(doc, b"", "terraform.tfstate")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def paths_in(doc: Any) -> list[tuple[Any, ...]]:
    paths: list[tuple[Any, ...]] = [()]
    items = (
        doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    )
    for key, value in items:
        paths += [(key, *p) for p in paths_in(value)]
    return paths


SKELETONS = [case_document("raw_v4"), case_document("shown_modules")]
MUTATION_SITES = [(i, p) for i, doc in enumerate(SKELETONS) for p in paths_in(doc)]


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    doc = copy.deepcopy(doc)
    node = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return doc


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MUTATION_SITES), json_values)
def test_random_documents_load_or_give_loader_errors(
    site: tuple[int, tuple[Any, ...]], value: Any
) -> None:
    skeleton, path = site
    for doc in (replaced(SKELETONS[skeleton], path, value), value):
        try:
            loaded = terraform_state.load(doc, b"{}", "terraform.tfstate")
        except LoaderError:
            continue
        parse_state(json.loads(json.dumps(loaded.document)))


@pytest.mark.parametrize("case", ["shown_modules", "raw_v4"])
def test_scan_inputs_detect_states(case: str) -> None:
    from engine.inputs.discovery import load_inputs

    loaded = load_inputs([input_file(case)])
    assert loaded.problems == []
    [scan_input] = loaded.inputs
    assert scan_input.state.input_type == "tf_state"
    assert scan_input.state.source_map is not None


def test_deeply_nested_documents_are_loader_errors() -> None:
    module: dict[str, Any] = {}
    for _ in range(5000):
        module = {"child_modules": [module]}
    with pytest.raises(LoaderError, match="nested too deeply"):
        terraform_state.load({**SHOWN, "values": {"root_module": module}}, b"", "x.json")
