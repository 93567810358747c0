"""The Terraform plan loader: golden States, recognition, unknown-after-apply
resolution, references, source map, and errors.

Each case under ``tests/loaders/tf_plan`` holds a plan (``input.json``, the
``terraform show -json`` shape), the expected State (``expected.json``) and
the expected references (``expected_references.json``).
``REGO_ENGINE_UPDATE_GOLDEN=1`` rewrites both from the loader's output.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loader_goldens import UPDATE, reference_rows, write_golden

from engine.inputs.loaders import terraform_plan, terraform_state
from engine.inputs.loaders.documents import parse_json
from engine.inputs.loaders.loaded import LoadedState, LoaderError
from engine.inputs.source_map import SourceLocation
from engine.inputs.state import parse_state

CASES = Path(__file__).parent.parent / "loaders" / "tf_plan"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def load_case(case: str) -> LoadedState:
    raw = (CASES / case / "input.json").read_bytes()
    return terraform_plan.load(parse_json(raw), raw, "input.json")


def case_document(case: str) -> dict[str, Any]:
    return parse_json((CASES / case / "input.json").read_bytes())


def resource(loaded: LoadedState, rtype: str, key: str) -> dict[str, Any]:
    return loaded.document["resources"][rtype][key]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_golden(case: str) -> None:
    loaded = load_case(case)
    document = json.loads(json.dumps(loaded.document))
    references = reference_rows(loaded)
    if UPDATE:
        write_golden(CASES / case / "expected.json", document)
        write_golden(CASES / case / "expected_references.json", references)
    assert document == json.loads((CASES / case / "expected.json").read_text())
    expected_references = json.loads((CASES / case / "expected_references.json").read_text())
    assert references == expected_references
    assert parse_state(document).input_type == "tf_plan"
    assert loaded.source_files == ["input.json"]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_every_case_is_a_plan_and_not_a_state(case: str) -> None:
    doc = case_document(case)
    assert terraform_plan.recognises(doc)
    assert not terraform_state.recognises(doc)


@pytest.mark.parametrize(
    "doc",
    [
        {"format_version": "1.0", "values": {"root_module": {}}},
        {"version": 4, "terraform_version": "1.5.0", "serial": 1, "lineage": "x", "resources": []},
        {"AWSTemplateFormatVersion": "2010-09-09", "Resources": {}},
        {"format": "", "input_type": "tf_plan", "resources": {}},
        {"planned_values": {"root_module": {}}},
        [],
        "plan",
        None,
    ],
)
def test_not_recognised(doc: Any) -> None:
    assert not terraform_plan.recognises(doc)


def test_unknown_bucket_ids_resolve_to_the_bucket_address() -> None:
    loaded = load_case("s3_bucket_controls")
    sse = resource(
        loaded,
        "aws_s3_bucket_server_side_encryption_configuration",
        "aws_s3_bucket_server_side_encryption_configuration.logs",
    )
    assert sse["attributes"]["bucket"] == "aws_s3_bucket.logs"
    default = sse["attributes"]["rule"][0]["apply_server_side_encryption_by_default"][0]
    assert default == {"sse_algorithm": "aws:kms", "kms_master_key_id": "aws_kms_key.logs"}
    bucket = resource(loaded, "aws_s3_bucket", "aws_s3_bucket.logs")
    assert "arn" not in bucket["attributes"]  # unknown and not from configuration
    versioning = resource(loaded, "aws_s3_bucket_versioning", "aws_s3_bucket_versioning.logs")
    assert versioning["attributes"]["versioning_configuration"] == [{"status": "Enabled"}]


def test_references_through_module_variables_and_outputs() -> None:
    loaded = load_case("nested_modules")
    subnet = resource(loaded, "aws_subnet", "module.network.module.subnets.aws_subnet.private")
    assert subnet["attributes"]["vpc_id"] == "module.network.aws_vpc.main"
    flow_log = resource(loaded, "aws_flow_log", "aws_flow_log.vpc")
    assert flow_log["attributes"]["vpc_id"] == "module.network.aws_vpc.main"
    assert "log_group_name" not in flow_log["attributes"]  # unknown, no configuration
    targets = {
        (r.source_key, r.attribute): (r.target_key, r.target_attribute) for r in loaded.references
    }
    assert targets[("aws_flow_log.vpc", ("vpc_id",))] == ("module.network.aws_vpc.main", "id")


def test_counted_and_keyed_references() -> None:
    loaded = load_case("count_for_each")
    rows = {(r.source_key, r.attribute): r.target_key for r in loaded.references}
    assert rows[("aws_s3_bucket_versioning.replica[1]", ("bucket",))] == "aws_s3_bucket.replica"
    assert rows[("aws_iam_user_policy.alice_inline", ("user",))] == 'aws_iam_user.devs["alice"]'


def test_source_map_locates_resources_and_nested_attributes() -> None:
    loaded = load_case("s3_bucket_controls")
    source_map = loaded.source_map
    assert source_map is not None
    text = (CASES / "s3_bucket_controls" / "input.json").read_text().splitlines()
    rtype = "aws_s3_bucket_server_side_encryption_configuration"
    key = f"{rtype}.logs"
    start = source_map.resource_location(rtype, key)
    assert start is not None and start.path == "input.json"
    assert (
        '"address": "aws_s3_bucket_server_side_encryption_configuration.logs"' in (text[start.line])
    )
    path = ("rule", 0, "apply_server_side_encryption_by_default", 0, "sse_algorithm")
    nested = source_map.attribute_location(rtype, key, path)
    assert nested is not None
    assert text[nested.line - 1].strip() == '{"sse_algorithm": "aws:kms"}'
    assert text[nested.line - 1][nested.column - 1 :].startswith('"sse_algorithm"')
    # a resolved unknown is not in planned values: its nearest written ancestor
    resolved = source_map.attribute_location(rtype, key, ("bucket",))
    assert resolved == SourceLocation("input.json", start.line + 7, 11)
    assert text[resolved.line - 1].strip().startswith('"values"')
    assert source_map.resource_location(rtype, "nope") is None


def plan(**overrides: Any) -> dict[str, Any]:
    doc = case_document("s3_bucket_controls")
    doc.update(overrides)
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (
            plan(format_version="2.0"),
            "unsupported plan format_version 2.0 (this engine reads 0.1 to 1.x)",
        ),
        (
            plan(format_version="0.0"),
            "unsupported plan format_version 0.0 (this engine reads 0.1 to 1.x)",
        ),
        (
            plan(format_version="v1"),
            "unsupported plan format_version v1 (this engine reads 0.1 to 1.x)",
        ),
        (plan(format_version=1.2), "plan format_version must be a string, found a number"),
        ([1, 2], "a Terraform plan must be an object, found an array"),
        (plan(planned_values=None), "planned_values must be an object, found null"),
        (plan(planned_values={}), "planned_values has no root_module"),
        (plan(planned_values={"root_module": []}), "planned_values.root_module must be an object"),
        (
            plan(planned_values={"root_module": {"resources": {}}}),
            "planned_values.root_module.resources must be an array, found an object",
        ),
        (
            plan(planned_values={"root_module": {"resources": [{"type": "aws_s3_bucket"}]}}),
            "planned_values.root_module.resources.0.address must be a non-empty string",
        ),
        (plan(resource_changes={}), "resource_changes must be an array, found an object"),
        (
            plan(resource_changes=[{"address": "a.b", "change": {"actions": "create"}}]),
            "resource_changes.0.change.actions must be an array of strings",
        ),
    ],
)
def test_malformed_plans(doc: Any, message: str) -> None:
    with pytest.raises(LoaderError) as raised:
        terraform_plan.load(doc, b"", "input.json")
    assert raised.value.message.startswith(message)


def test_duplicate_address_is_an_error() -> None:
    doc = plan()
    resources = doc["planned_values"]["root_module"]["resources"]
    resources.append(copy.deepcopy(resources[0]))
    with pytest.raises(LoaderError, match=r"resource aws_kms_key\.logs appears twice"):
        terraform_plan.load(doc, b"", "input.json")


def test_misshapen_configuration_resolves_nothing() -> None:
    doc = plan(configuration={"root_module": {"resources": [7, {"address": 3}]}})
    loaded = terraform_plan.load(doc, b"", "input.json")
    access = resource(
        loaded, "aws_s3_bucket_public_access_block", "aws_s3_bucket_public_access_block.logs"
    )
    assert "bucket" not in access["attributes"]
    assert access["meta"] == {
        "planned_actions": ["create"],
        "provider": "aws",
        "tfplan": {"resource_actions": ["create"]},
    }
    assert loaded.references == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def mutations(doc: Any) -> list[tuple[Any, ...]]:
    """Every path into a document (for replacing what is there)."""
    paths: list[tuple[Any, ...]] = [()]
    if isinstance(doc, dict):
        for key, value in doc.items():
            paths += [(key, *p) for p in mutations(value)]
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            paths += [(i, *p) for p in mutations(value)]
    return paths


SKELETON = case_document("nested_modules")
SKELETON_PATHS = mutations(SKELETON)


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
@given(st.sampled_from(SKELETON_PATHS), json_values, json_values)
def test_random_documents_load_or_give_loader_errors(
    path: tuple[Any, ...], value: Any, other: Any
) -> None:
    for doc in (replaced(SKELETON, path, value), other, {"format_version": "1.1", **{"x": other}}):
        try:
            loaded = terraform_plan.load(doc, b"{}", "input.json")
        except LoaderError:
            continue
        parse_state(json.loads(json.dumps(loaded.document)))


def test_region_from_a_variable_default_when_the_plan_has_no_value() -> None:
    raw = (CASES / "provider_aliases" / "input.json").read_bytes()
    doc = parse_json(raw)
    del doc["variables"]["dr_region"]
    loaded = terraform_plan.load(doc, raw, "input.json")
    assert resource(loaded, "aws_s3_bucket", "aws_s3_bucket.dr")["meta"] == {
        "planned_actions": ["create"],
        "provider": "aws.dr",
        "region": "eu-central-1",
        "tfplan": {"resource_actions": ["create"]},
    }


def test_scan_inputs_detect_plans() -> None:
    from engine.inputs.discovery import load_inputs

    loaded = load_inputs([CASES / "module_instances" / "input.json"])
    assert loaded.problems == []
    [scan_input] = loaded.inputs
    assert scan_input.state.input_type == "tf_plan"
    assert len(list(scan_input.state.all_resources())) == 8


def test_deeply_nested_documents_are_loader_errors() -> None:
    doc = plan()
    unknown: Any = True
    for _ in range(5000):
        unknown = {"a": unknown}
    doc["resource_changes"][0]["change"]["after_unknown"] = unknown
    with pytest.raises(LoaderError, match="nested too deeply"):
        terraform_plan.load(doc, b"", "input.json")


def generated_plan(n: int) -> dict[str, Any]:
    """``n`` buckets; every 2nd has an encryption configuration whose unknown
    ``bucket`` references it, every 3rd a versioning resource whose known
    ``bucket`` is written as a reference, with ``depends_on`` the previous bucket."""
    planned: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    configured: list[dict[str, Any]] = []

    def add(rtype: str, name: str, values: dict[str, Any], unknown: Any, expressions: Any) -> None:
        address = f"{rtype}.{name}"
        common = {"address": address, "mode": "managed", "type": rtype, "name": name}
        planned.append({**common, "provider_name": "aws", "values": values})
        change = {"actions": ["create"], "after": values, "after_unknown": unknown}
        changes.append({**common, "change": change})
        configured.append({**common, "provider_config_key": "aws", **expressions})

    for i in range(n):
        bucket = f"aws_s3_bucket.b{i}"
        add("aws_s3_bucket", f"b{i}", {"bucket": f"b{i}"}, {"id": True}, {})
        if i % 2 == 0:
            expressions = {"bucket": {"references": [f"{bucket}.id", bucket]}}
            add(
                "aws_s3_bucket_server_side_encryption_configuration",
                f"s{i}",
                {},
                {"bucket": True},
                {"expressions": expressions},
            )
        if i % 3 == 0:
            expressions = {
                "bucket": {"references": [f"{bucket}.bucket", bucket]},
                "versioning_configuration": [{"status": {"constant_value": "Enabled"}}],
            }
            depends = [f"aws_s3_bucket.b{i - 1}"] if i else []
            values = {"bucket": f"b{i}", "versioning_configuration": [{"status": "Enabled"}]}
            add(
                "aws_s3_bucket_versioning",
                f"v{i}",
                values,
                {},
                {"expressions": expressions, "depends_on": depends},
            )
    return {
        "format_version": "1.2",
        "planned_values": {"root_module": {"resources": planned}},
        "resource_changes": changes,
        "configuration": {"root_module": {"resources": configured}},
    }


def previous_algorithm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the loader find written references as it did before they were
    indexed by resource: against every reference the plan had so far."""
    original = terraform_plan._Resolver.written_references
    so_far: list[Any] = []

    def against_the_whole_plan(self: Any, resource: Any, found: list[Any]) -> list[Any]:
        written = original(self, resource, so_far + found)
        so_far.extend(found)
        so_far.extend(written)
        return written

    monkeypatch.setattr(terraform_plan._Resolver, "written_references", against_the_whole_plan)


@pytest.mark.parametrize("case", [*CASE_NAMES, "generated"])
def test_references_indexed_by_resource_match_the_whole_plan_scan(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = generated_plan(60) if case == "generated" else case_document(case)
    loaded = terraform_plan.load(copy.deepcopy(doc), b"", "input.json")
    with monkeypatch.context() as patched:
        previous_algorithm(patched)
        expected = terraform_plan.load(copy.deepcopy(doc), b"", "input.json")
    assert loaded.document == expected.document
    assert loaded.references == expected.references
    if case == "generated":
        kinds = {(r.source_type, r.attribute, r.kind) for r in loaded.references}
        assert len(loaded.references) == 30 + 20 + 19
        assert ("aws_s3_bucket_versioning", ("depends_on",), "depends_on") in kinds


def unknowns_plan() -> dict[str, Any]:
    """A bucket and a security group whose unknown values are written as a
    reference, or not at all, at the top level, in a block, in a list."""
    values = {
        "name": "web",
        "cidr_blocks": ["10.0.0.0/8", None],
        "ingress": [{"from_port": 443, "security_groups": [None]}],
    }
    unknown = {
        "id": True,
        "arn": True,
        "vpc_id": True,
        "egress": True,
        "cidr_blocks": [False, True],
        "ingress": [{"description": True, "security_groups": [True]}],
    }
    expressions = {
        "vpc_id": {"references": ["aws_vpc.main.id", "aws_vpc.main"]},
        "cidr_blocks": {"references": ["var.extra_cidr"]},
        "ingress": [
            {
                "from_port": {"constant_value": 443},
                "security_groups": {"references": ["aws_vpc.main.default_security_group_id"]},
            }
        ],
    }
    common = {"address": "aws_security_group.web", "mode": "managed", "type": "aws_security_group"}
    vpc = {"address": "aws_vpc.main", "mode": "managed", "type": "aws_vpc", "name": "main"}
    return {
        "format_version": "1.2",
        "planned_values": {
            "root_module": {
                "resources": [
                    {**vpc, "values": {"cidr_block": "10.0.0.0/16"}},
                    {**common, "name": "web", "values": values},
                ]
            }
        },
        "resource_changes": [
            {**vpc, "change": {"actions": ["create"], "after_unknown": {"id": True}}},
            {**common, "change": {"actions": ["create"], "after_unknown": unknown}},
        ],
        "configuration": {
            "root_module": {
                "resources": [
                    {**vpc, "expressions": {"cidr_block": {"constant_value": "10.0.0.0/16"}}},
                    {**common, "name": "web", "expressions": expressions},
                ]
            }
        },
    }


def test_unknowns_without_a_reference_are_absent() -> None:
    loaded = terraform_plan.load(unknowns_plan(), b"", "input.json")
    vpc = resource(loaded, "aws_vpc", "aws_vpc.main")
    assert vpc["attributes"] == {"cidr_block": "10.0.0.0/16"}
    group = resource(loaded, "aws_security_group", "aws_security_group.web")
    assert group["attributes"] == {
        "name": "web",
        "vpc_id": "aws_vpc.main",
        # a list keeps an unknown element's place, null when no reference names it
        "cidr_blocks": ["10.0.0.0/8", None],
        "ingress": [{"from_port": 443, "security_groups": ["aws_vpc.main"]}],
    }


def test_plans_of_format_0_1_and_0_2_load_like_1_x() -> None:
    old = {case: load_case(case) for case in ("format_0_1", "format_0_2")}
    as_1_x = case_document("format_0_2")
    as_1_x["format_version"] = "1.2"
    current = terraform_plan.load(as_1_x, b"", "input.json")
    assert old["format_0_2"].document == current.document
    assert old["format_0_2"].references == current.references
    # 0.1 expressions name only the referenced object: no target attribute
    assert {r.target_attribute for r in old["format_0_1"].references} == {None}
    edges = {
        case: [(r.source_key, r.attribute, r.target_key, r.kind) for r in loaded.references]
        for case, loaded in old.items()
    }
    assert edges["format_0_1"] == edges["format_0_2"]
    first, second = (json.loads(json.dumps(o.document)) for o in old.values())
    first["meta"].pop("terraform_version")
    second["meta"].pop("terraform_version")
    assert first == second
