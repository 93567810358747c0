"""CloudFormation resource schemas: reading them from cfn-lint's data, and coercion."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from engine.inputs.loaders.cloudformation_schemas import (
    Schema,
    coerce,
    convert,
    resource_schema,
)

BOOL, INT, FLOAT, TEXT = Schema("bool"), Schema("int"), Schema("float"), Schema("string")


@pytest.mark.parametrize(
    ("value", "schema", "expected"),
    [
        ("true", BOOL, True),
        ("TRUE", BOOL, True),
        ("yes", BOOL, False),
        ("false", BOOL, False),
        (1, BOOL, 1),
        ("22", INT, 22),
        ("+22", INT, 22),
        ("-0022", INT, -22),
        (" 22", INT, " 22"),
        ("1_000", INT, "1_000"),
        ("2.0", INT, "2.0"),
        ("9223372036854775807", INT, 9223372036854775807),
        ("9223372036854775808", INT, "9223372036854775808"),
        ("-00000000000000000000000009", INT, -9),
        ("9" * 5000, INT, "9" * 5000),
        (2.5, INT, 2.5),
        ("0.75", FLOAT, 0.75),
        ("1e3", FLOAT, 1000.0),
        (".5", FLOAT, 0.5),
        ("0x1p-2", FLOAT, 0.25),
        ("inf", FLOAT, "inf"),
        ("1e400", FLOAT, "1e400"),
        ("abc", FLOAT, "abc"),
        (5, TEXT, "5"),
        (-7, TEXT, "-7"),
        (1.2, TEXT, "1.200000"),
        (1e20, TEXT, "100000000000000000000.000000"),
        (True, TEXT, True),
        (None, TEXT, None),
        (1 << 64, TEXT, 1 << 64),
        ("22", None, "22"),
        ("22", Schema("array", items=INT), "22"),
        (["1", "x"], Schema("array", items=INT), [1, "x"]),
        (["1"], Schema("array"), ["1"]),
        (["1"], INT, ["1"]),
        ({"Port": "80", "Name": 3}, Schema("object", {"Port": INT}), {"Port": 80, "Name": 3}),
        ({"Port": "80"}, Schema("object", {"Port": None}), {"Port": "80"}),
        ({"Port": "80"}, TEXT, {"Port": "80"}),
        ({"Ref": "Port"}, INT, {"Ref": "Port"}),
        (
            {"Fn::Join": ["", ["1", "2"]]},
            Schema("object", {"X": INT}),
            {"Fn::Join": ["", ["1", "2"]]},
        ),
    ],
)
def test_coerce(value: Any, schema: Schema | None, expected: Any) -> None:
    result = coerce(value, schema)
    assert result == expected
    assert type(result) is type(expected)


def test_convert_follows_definitions_and_skips_unions() -> None:
    schema = convert(
        {
            "properties": {
                "Rules": {"type": "array", "items": {"$ref": "#/definitions/Rule"}},
                "Either": {"type": ["string", "object"]},
                "Untyped": {"description": "no type"},
                "Missing": {"$ref": "#/definitions/Nowhere"},
            },
            "definitions": {
                "Rule": {
                    "type": "object",
                    "properties": {
                        "Priority": {"type": "integer"},
                        "Children": {"type": "array", "items": {"$ref": "#/definitions/Rule"}},
                    },
                },
            },
        }
    )
    rule = schema.properties["Rules"].items  # type: ignore[union-attr]
    assert rule is not None and rule.kind == "object"
    assert rule.properties["Children"].items is rule  # type: ignore[union-attr]
    assert schema.properties["Either"] is None
    assert schema.properties["Untyped"] is None
    assert schema.properties["Missing"] is None
    value = {"Rules": [{"Priority": "1", "Children": [{"Priority": "2"}]}], "Either": 3}
    assert coerce(value, schema) == {
        "Rules": [{"Priority": 1, "Children": [{"Priority": 2}]}],
        "Either": 3,
    }


def test_published_schemas_are_found() -> None:
    vpc = resource_schema("AWS::EC2::VPC")
    assert vpc is not None
    assert vpc.properties["EnableDnsHostnames"].kind == "bool"  # type: ignore[union-attr]
    ingress = resource_schema("AWS::EC2::SecurityGroup").properties["SecurityGroupIngress"]  # type: ignore[union-attr]
    assert ingress.items.properties["FromPort"].kind == "int"  # type: ignore[union-attr]


@pytest.mark.parametrize("resource_type", ["Custom::Seeder", "AWS::Serverless::Function", "X"])
def test_unpublished_types_have_no_schema(resource_type: str) -> None:
    assert resource_schema(resource_type) is None


def test_loading_a_template_does_not_import_cfn_lint() -> None:
    code = (
        "import sys\n"
        "from engine.inputs.loaders.cloudformation import load\n"
        "doc = {'Resources': {'V': {'Type': 'AWS::EC2::VPC',"
        " 'Properties': {'EnableDnsSupport': 'true'}}}}\n"
        "state = load(doc, b'', 't.json').document\n"
        "vpc = state['resources']['AWS::EC2::VPC']['V']\n"
        "assert vpc['attributes'] == {'EnableDnsSupport': True}\n"
        "assert not [m for m in sys.modules if m.startswith('cfnlint')]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
