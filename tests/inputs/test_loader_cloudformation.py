"""The CloudFormation loader: golden States, recognition, intrinsics, errors, source map.

Each case under ``tests/loaders/cfn`` holds a template (``input.yaml`` or
``input.json``), the expected State (``expected.json``) and the expected
references (``expected_references.json``).
``REGO_ENGINE_UPDATE_GOLDEN=1`` rewrites both from the loader's output.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loader_goldens import UPDATE, reference_rows, write_golden

from engine.inputs.loaders.cloudformation import INPUT_TYPE, load, merge_globals, recognises
from engine.inputs.loaders.cloudformation_intrinsics import (
    NO_VALUE,
    Evaluator,
    Site,
    Template,
    UnknownIntrinsic,
    parameter_value,
    plain,
)
from engine.inputs.loaders.documents import parse_json, parse_yaml
from engine.inputs.loaders.loaded import LoadedState, LoaderError, ResolvedReference
from engine.inputs.source_map import SourceLocation
from engine.inputs.state import parse_state

CASES = Path(__file__).parent.parent / "loaders" / "cfn"


def parse(name: str, raw: bytes) -> Any:
    return parse_json(raw) if name.endswith(".json") else parse_yaml(raw)[0]


def load_text(text: str, name: str = "template.yaml") -> LoadedState:
    raw = text.encode()
    return load(parse(name, raw), raw, name)


def case_input(case: Path) -> Path:
    return next(p for p in case.iterdir() if p.stem == "input")


def sort_key(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True)


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_golden(case: str) -> None:
    source = case_input(CASES / case)
    raw = source.read_bytes()
    doc = parse(source.name, raw)
    assert recognises(doc)
    loaded = load(doc, raw, source.name)
    parse_state(loaded.document)  # a valid State
    assert loaded.source_files == [source.name]
    references = reference_rows(loaded)
    if UPDATE:
        write_golden(CASES / case / "expected.json", loaded.document, sort_keys=False)
        write_golden(CASES / case / "expected_references.json", references)
    expected = json.loads((CASES / case / "expected.json").read_text())
    assert loaded.document == expected
    assert json.loads(json.dumps(loaded.document)) == expected  # plain JSON values
    expected_references = json.loads((CASES / case / "expected_references.json").read_text())
    assert sorted(references, key=sort_key) == sorted(expected_references, key=sort_key)


def test_case_count() -> None:
    assert len([p for p in CASES.iterdir() if p.is_dir()]) >= 10


# ------------------------------------------------------------ recognition


@pytest.mark.parametrize(
    "doc",
    [
        {"AWSTemplateFormatVersion": "2010-09-09", "Resources": {}},
        {"Resources": {"B": {"Type": "AWS::S3::Bucket"}}},
        {"Resources": {"S": {"Type": "Alexa::ASK::Skill"}}},
        {"Resources": {"C": {"Type": "Custom::Thing"}}},
        {"Transform": "AWS::Serverless-2016-10-31", "Resources": {"F": {"Type": "X"}}},
        {"Resources": {"C": {"Type": "MongoDB::Atlas::Cluster", "Properties": {}}}},
        {"Resources": {"B": {"Type": "Company::Thing"}, "S": {"Type": "Server"}}},
    ],
)
def test_recognises_templates(doc: Any) -> None:
    assert recognises(doc)


@pytest.mark.parametrize(
    "doc",
    [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}},
        {"format_version": "1.2", "terraform_version": "1.7.0", "resource_changes": []},
        {
            "format": "rego-engine-state",
            "input_type": "cfn",
            "resources": {"AWS::S3::Bucket": {"b": {"attributes": {}}}},
        },
        {"Resources": {"B": {"Type": "Company::Thing"}, "N": {"Name": "n"}}},
        {"Resources": {"B": {"Type": ""}}},
        {"Resources": {"B": "AWS::S3::Bucket"}},
        {"Resources": {}},
        {"Resources": ["AWS::S3::Bucket"]},
        [{"Resources": {"B": {"Type": "AWS::S3::Bucket"}}}],
        "AWSTemplateFormatVersion",
        None,
    ],
)
def test_does_not_recognise_other_documents(doc: Any) -> None:
    assert not recognises(doc)


def test_input_type() -> None:
    assert INPUT_TYPE == "cfn"


# -------------------------------------------------------------- intrinsics

TEMPLATE = Template(
    parameters={"Env": "prod", "Zones": ["a", "b"], "Empty": None},
    resource_types={"Bucket": "AWS::S3::Bucket", "Gone": "AWS::SQS::Queue"},
    present=frozenset({"Bucket"}),
    mappings={"M": {"prod": {"Size": 3, "Names": ["x", "y"]}}},
    conditions={
        "IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]},
        "IsDev": {"Fn::Not": [{"Condition": "IsProd"}]},
        "InRegion": {"Fn::Equals": [{"Ref": "AWS::Region"}, "us-east-1"]},
        "Both": {"Fn::And": [{"Condition": "IsProd"}, {"Condition": "InRegion"}]},
        "Either": {"Fn::Or": [{"Condition": "IsProd"}, {"Condition": "InRegion"}]},
        "Loop": {"Fn::Not": [{"Condition": "Loop"}]},
        "NumberEqualsText": {"Fn::Equals": [3, "3"]},
    },
)

SITE = Site("AWS::S3::BucketPolicy", "Policy", ("Bucket",))
ARGUMENT = Site("AWS::S3::BucketPolicy", "Policy", ("Bucket",), pinned=True)
"""Inside another function's arguments: Fn::Sub and Fn::Join build their strings."""


def evaluate(value: Any, site: Site = ARGUMENT) -> Any:
    result = Evaluator(TEMPLATE).evaluate(value, site)
    return result if result is NO_VALUE else plain(result)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"Ref": "Bucket"}, "Bucket"),
        ({"Ref": "Env"}, "prod"),
        ({"Ref": "Zones"}, ["a", "b"]),
        ({"Ref": "Empty"}, None),
        ({"Ref": "Undeclared"}, "Undeclared"),
        ({"Ref": "AWS::Region"}, "AWS::Region"),
        ({"Ref": "AWS::NoValue"}, NO_VALUE),
        ({"Fn::GetAtt": ["Bucket", "Arn"]}, "Bucket"),
        ({"Fn::GetAtt": "Bucket.Arn"}, "Bucket"),
        ({"Fn::GetAtt": ["Missing", "Arn"]}, None),
        ({"Fn::Sub": "${Bucket}-${Env}-${AWS::Region}"}, "Bucket-prod-AWS::Region"),
        ({"Fn::Sub": "${Bucket.Arn}/*"}, "Bucket/*"),
        ({"Fn::Sub": "${!Literal} and ${ !Other }"}, "${Literal} and ${Other}"),
        ({"Fn::Sub": ["${A}:${Env}", {"A": {"Ref": "Bucket"}}]}, "Bucket:prod"),
        ({"Fn::Sub": "${Empty}"}, None),
        ({"Fn::Sub": ["x", "not a map"]}, None),
        ({"Fn::Join": [",", ["a", 1, True]]}, "a,1,true"),
        ({"Fn::Join": [",", {"Ref": "Zones"}]}, "a,b"),
        ({"Fn::Join": [",", ["a", {"Ref": "Empty"}]]}, None),
        ({"Fn::Join": [",", ["a", {"Ref": "AWS::NoValue"}, "b"]]}, "a,b"),
        ({"Fn::Select": ["1", ["a", "b"]]}, "b"),
        ({"Fn::Select": [5, ["a", "b"]]}, None),
        ({"Fn::Select": [0, {"Fn::GetAZs": ""}]}, None),
        ({"Fn::Split": ["|", "a|b"]}, ["a", "b"]),
        ({"Fn::If": ["IsProd", "yes", "no"]}, "yes"),
        ({"Fn::If": ["IsDev", "yes", {"Ref": "AWS::NoValue"}]}, NO_VALUE),
        ({"Fn::If": ["InRegion", "yes", "no"]}, None),
        ({"Fn::If": ["Both", "yes", "no"]}, None),
        ({"Fn::If": ["Either", "yes", "no"]}, "yes"),
        ({"Fn::If": ["Loop", "yes", "no"]}, None),
        ({"Fn::If": ["NumberEqualsText", "yes", "no"]}, "yes"),
        ({"Fn::If": ["Undefined", "yes", "no"]}, None),
        ({"Fn::FindInMap": ["M", {"Ref": "Env"}, "Size"]}, 3),
        ({"Fn::FindInMap": ["M", "prod", "Names"]}, ["x", "y"]),
        ({"Fn::FindInMap": ["M", {"Ref": "AWS::Region"}, "Size"]}, None),
        ({"Fn::FindInMap": ["M", "dev", "Size", {"DefaultValue": 1}]}, 1),
        ({"Fn::Base64": "hi"}, "aGk="),
        ({"Fn::ImportValue": "shared"}, None),
        ({"Fn::Cidr": ["10.0.0.0/16", 2, 8]}, None),
        ({"Fn::Length": [1, 2, {"Ref": "AWS::NoValue"}]}, 2),
        ({"Fn::ToJsonString": {"a": [1, {"Ref": "Env"}]}}, '{"a":[1,"prod"]}'),
        ({"Fn::Equals": ["a", "a"]}, True),
        ({"a": {"Ref": "AWS::NoValue"}, "b": [{"Ref": "AWS::NoValue"}, 1]}, {"b": [1]}),
    ],
)
def test_intrinsic(expression: Any, expected: Any) -> None:
    assert evaluate(expression) == expected


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"Fn::Sub": "function-${AWS::Region}"}, "function-AWS::Region"),
        ({"Fn::Sub": "${AWS::AccountId}:${Bucket}"}, "AWS::AccountId:Bucket"),
        ({"Fn::Sub": "${Bucket.Arn}/* ${!Literal} ${Env}"}, "Bucket/* ${Literal} prod"),
        ({"Fn::Sub": ["${A}/${B}", {"A": "LoggingBucket2"}]}, "LoggingBucket2/B"),
        (
            {"Fn::Sub": ["${A}/${B}", {"A": {"Ref": "Bucket"}, "B": {"Ref": "Env"}}]},
            "Bucket/prod",
        ),
        ({"Fn::Sub": ["${A}", {"A": {"Fn::Select": [1, ["x", "y"]]}}]}, "y"),
        ({"Fn::Sub": "no variables"}, "no variables"),
        ({"Fn::Sub": "0.0.0.0/${Mask}"}, "0.0.0.0/0"),
        ({"Fn::Join": ["", ["0.0.0.0/", {"Ref": "Mask"}]]}, "0.0.0.0/0"),
        (
            {"Fn::Join": [":", [{"Fn::Sub": "function-${AWS::Region}"}, "v2"]]},
            "function-AWS::Region:v2",
        ),
        (
            {"Fn::Join": ["", [{"Fn::Join": ["-", [{"Ref": "AWS::Region"}, {"Ref": "Env"}]]}]]},
            "AWS::Region-prod",
        ),
        ({"Fn::Join": ["/", [{"Fn::GetAtt": ["Bucket", "Arn"]}, "*"]]}, "Bucket/*"),
        ({"Fn::Join": ["/", [{"Fn::GetAtt": ["Bucket", "DomainName"]}, "x"]]}, "Bucket/x"),
        ({"Fn::Join": [",", ["a", {"Ref": "AWS::NoValue"}, "b"]]}, "a,b"),
        ({"Fn::Join": [",", {"Ref": "Zones"}]}, "a,b"),
        ({"Fn::If": ["IsProd", {"Fn::Sub": "${Bucket}-x"}, "no"]}, "Bucket-x"),
        ({"Fn::Select": [0, [{"Fn::Sub": "${Bucket}-x"}]]}, "Bucket-x"),
        ({"Ref": "Bucket"}, "Bucket"),
        ({"Fn::GetAtt": ["Bucket", "DomainName"]}, "Bucket"),  # snyk: the function itself
    ],
)
def test_sub_and_join_in_place_build_their_strings(expression: Any, expected: Any) -> None:
    template = replace(TEMPLATE, parameters={**TEMPLATE.parameters, "Mask": "0"})
    result = Evaluator(template).evaluate(expression, SITE)
    assert plain(result) == expected


def test_references_are_recorded_for_present_resources_only() -> None:
    evaluator = Evaluator(TEMPLATE)
    value = {"Fn::Sub": "${Bucket.Arn}/${Gone}"}
    assert evaluator.evaluate(value, SITE) == "Bucket/Gone"
    assert evaluator.references == [
        ResolvedReference(
            "AWS::S3::BucketPolicy",
            "Policy",
            ("Bucket",),
            "AWS::S3::Bucket",
            "Bucket",
            "Arn",
            "Sub",
        )
    ]


def test_unknown_intrinsic_raises() -> None:
    with pytest.raises(UnknownIntrinsic) as raised:
        evaluate({"Fn::Join": [",", [{"Fn::Bogus": 1}]]})
    assert raised.value.name == "Fn::Bogus"


@pytest.mark.parametrize(
    ("declaration", "expected"),
    [
        ({"Type": "String", "Default": "x"}, "x"),
        ({"Type": "String"}, "P"),
        ({"Type": "String", "AllowedValues": ["0.0.0.0", "localhost"]}, "0.0.0.0"),
        ({"Type": "String", "Default": "b", "AllowedValues": ["a", "b"]}, "b"),
        ({"Type": "String", "AllowedValues": []}, "P"),
        ({"Type": "AWS::SSM::Parameter::Value<String>"}, None),
        ({"Type": "CommaDelimitedList", "AllowedValues": ["a,b"]}, ["a", "b"]),
        ({"Type": "CommaDelimitedList", "Default": "a, b,c"}, ["a", "b", "c"]),
        ({"Type": "List<AWS::EC2::Subnet::Id>", "Default": ["s-1"]}, ["s-1"]),
        ({"Type": "AWS::SSM::Parameter::Value<String>", "Default": "/name"}, None),
        ("not a declaration", None),
    ],
)
def test_parameter_value(declaration: Any, expected: Any) -> None:
    assert parameter_value(declaration, "P") == expected


def test_merge_globals() -> None:
    merged = merge_globals(
        {"Timeout": 3, "Env": {"A": 1, "B": 2}, "Layers": ["g"], "Role": {"Ref": "R"}},
        {"Timeout": 9, "Env": {"B": 3}, "Layers": ["r"], "Role": "explicit"},
    )
    assert merged == {
        "Timeout": 9,
        "Env": {"A": 1, "B": 3},
        "Layers": ["g", "r"],
        "Role": "explicit",
    }


# ------------------------------------------------------------------ errors

UNKNOWN_FUNCTION = """\
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      BucketName:
        Fn::Bogus: [a, b]
"""


def test_unknown_intrinsic_names_it_and_its_line() -> None:
    with pytest.raises(LoaderError) as raised:
        load_text(UNKNOWN_FUNCTION)
    assert "Fn::Bogus" in raised.value.message
    assert raised.value.line == 7


def test_unknown_intrinsic_in_a_condition_and_in_json() -> None:
    text = json.dumps(
        {
            "AWSTemplateFormatVersion": "2010-09-09",
            "Conditions": {"C": {"Fn::Nope": []}},
            "Resources": {"B": {"Type": "AWS::S3::Bucket", "Condition": "C"}},
        },
        indent=1,
    )
    with pytest.raises(LoaderError) as raised:
        load_text(text, "template.json")
    assert "Fn::Nope" in raised.value.message
    assert raised.value.line == 5


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("Resources: [a, b]\nAWSTemplateFormatVersion: x\n", "Resources must be", 1),
        ("AWSTemplateFormatVersion: x\n", "no Resources", None),
        ("Resources:\n  B:\n    Properties: {}\n", "B has no Type", 2),
        ("Resources:\n  B:\n    Type: [AWS::S3::Bucket]\n", "B has no Type", 2),
        ("Resources:\n  B: text\n", "B must be an object", 2),
        ("Resources:\n  B:\n    Type: X\n    Properties: [1]\n", "Properties of", 4),
        ("Parameters: 1\nResources: {}\n", "Parameters must be", 1),
        ("Conditions: [x]\nResources: {}\n", "Conditions must be", 1),
    ],
)
def test_malformed_templates(text: str, message: str, line: int | None) -> None:
    with pytest.raises(LoaderError) as raised:
        load_text(text)
    assert message in raised.value.message
    assert raised.value.line == line


def test_not_an_object() -> None:
    with pytest.raises(LoaderError):
        load(["a"], b"- a\n", "t.yaml")


_KEYS = st.sampled_from(
    [
        *("Resources", "Type", "Properties", "Condition", "Conditions", "Parameters"),
        *("Mappings", "Default", "Ref", "Fn::If", "Fn::Sub", "Fn::Join", "Fn::GetAtt"),
        *("Fn::Select", "Fn::Equals", "Fn::FindInMap", "Fn::Split", "Fn::Not", "Transform"),
        *("Globals", "Function", "Tags", "Key", "Value", "AWS::NoValue", "B", "x"),
    ]
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["AWS::S3::Bucket", "AWS::Serverless::Function", "B", "${B}", "x", ""]),
    st.sampled_from(["AWS::Serverless-2016-10-31", "${B.Arn}", "AWS::Region", "Fn::If"]),
)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(_KEYS, _DOCUMENTS, max_size=5),
    st.dictionaries(_KEYS, _DOCUMENTS, max_size=4),
)
def test_random_documents_load_or_raise_loader_error(top: dict[str, Any], body: Any) -> None:
    doc = {**top, "AWSTemplateFormatVersion": "2010-09-09"}
    doc.setdefault("Resources", {"B": {"Type": "AWS::S3::Bucket", "Properties": body}})
    raw = json.dumps(doc).encode()
    try:
        loaded = load(doc, raw, "t.json")
    except LoaderError:
        return
    parse_state(loaded.document)
    json.dumps(loaded.document, allow_nan=False)


# -------------------------------------------------------------- source map


def test_source_map_yaml() -> None:
    source = CASES / "s3_bucket_policy" / "input.yaml"
    loaded = load(parse(source.name, source.read_bytes()), source.read_bytes(), "s.yaml")
    assert loaded.source_map is not None
    where = loaded.source_map.resource_location
    assert where("AWS::S3::Bucket", "LogBucket") == SourceLocation("s.yaml", 5, 3)
    at = loaded.source_map.attribute_location
    path = (
        "BucketEncryption",
        "ServerSideEncryptionConfiguration",
        0,
        "ServerSideEncryptionByDefault",
        "SSEAlgorithm",
    )
    assert at("AWS::S3::Bucket", "LogBucket", path) == SourceLocation("s.yaml", 14, 15)
    statement = ("PolicyDocument", "Statement", 0, "Resource", 1)
    assert at("AWS::S3::BucketPolicy", "LogBucketPolicy", statement) == SourceLocation(
        "s.yaml", 41, 17
    )
    assert where("AWS::S3::Bucket", "Nope") is None


def test_source_map_json() -> None:
    source = CASES / "security_groups_json" / "input.json"
    raw = source.read_bytes()
    loaded = load(parse(source.name, raw), raw, "sg.json")
    assert loaded.source_map is not None
    where = loaded.source_map.resource_location
    assert where("AWS::EC2::SecurityGroup", "DbSecurityGroup") == SourceLocation("sg.json", 22, 5)
    at = loaded.source_map.attribute_location
    port = ("SecurityGroupIngress", 1, "CidrIp")
    assert at("AWS::EC2::SecurityGroup", "WebSecurityGroup", port) == SourceLocation(
        "sg.json", 15, 63
    )
    # a path not written in the template: its nearest written ancestor
    assert at("AWS::EC2::Instance", "WebServer", ("Tags", 0)) == SourceLocation("sg.json", 39, 7)
