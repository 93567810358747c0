"""CloudFormation read as CloudFormation deploys it: strings that ``Fn::Sub`` and
``Fn::Join`` build, conditions on parameters, ``Fn::ForEach`` loops, short-form tags."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.inputs.loaders.cloudformation import load
from engine.inputs.loaders.cloudformation_foreach import has_loops
from engine.inputs.loaders.documents import parse_yaml
from engine.inputs.loaders.loaded import LoaderError


def attributes(text: str) -> dict[str, Any]:
    """Each resource's attributes (by logical id), and ``meta`` under ``"<id>.meta"``."""
    raw = text.encode()
    [doc] = parse_yaml(raw)
    state = load(doc, raw, "template.yaml").document
    found: dict[str, Any] = {}
    for by_key in state["resources"].values():
        for key, resource in by_key.items():
            found[key] = resource["attributes"]
            found[f"{key}.meta"] = resource["meta"]
    return found


OPEN_SSH = """\
AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Mask:
    Type: String
    Default: "0"
  Port:
    Type: Number
    AllowedValues: [22, 3389]
Resources:
  Group:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: ssh
  Ingress:
    Type: AWS::EC2::SecurityGroupIngress
    Properties:
      GroupId: !GetAtt Group.GroupId
      IpProtocol: tcp
      FromPort: !Ref Port
      ToPort: !Ref Port
      CidrIp: !Sub "0.0.0.0/${Mask}"
      Description: !Join ["", ["from ", !Ref "AWS::Region", " to ", !Ref Group, ":", !Ref Port]]
"""


def test_sub_and_join_build_the_deployed_string() -> None:
    ingress = attributes(OPEN_SSH)["Ingress"]
    assert ingress["CidrIp"] == "0.0.0.0/0"
    assert ingress["Description"] == "from AWS::Region to Group:22"
    assert ingress["GroupId"] == "Group"


CONDITIONS = """\
AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Env:
    Type: String
    Default: dev
    AllowedValues: [dev, prod]
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  Never: !Equals [a, b]
  ProdOrNever: !Or [!Condition IsProd, !Condition Never]
Resources:
  ProdBucket:
    Type: AWS::S3::Bucket
    Condition: IsProd
    Properties:
      AccessControl: !If [IsProd, PublicRead, Private]
  ProdOrNeverBucket:
    Type: AWS::S3::Bucket
    Condition: ProdOrNever
  NeverBucket:
    Type: AWS::S3::Bucket
    Condition: Never
  Plain:
    Type: AWS::S3::Bucket
"""


def test_a_condition_on_a_parameter_keeps_the_resource_marked_conditional() -> None:
    found = attributes(CONDITIONS)
    assert found["ProdBucket.meta"] == {"condition": "IsProd", "conditional": True}
    assert found["ProdOrNeverBucket.meta"] == {"condition": "ProdOrNever", "conditional": True}
    # its properties still read the parameter's Default, as Ref does
    assert found["ProdBucket"]["AccessControl"] == "Private"
    assert "NeverBucket" not in found  # false whatever the parameters are
    assert found["Plain.meta"] == {}


FOR_EACH = """\
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::LanguageExtensions
Parameters:
  Names:
    Type: CommaDelimitedList
    Default: "logs,app-data"
Resources:
  Fn::ForEach::Topics:
    - TopicName
    - [Success, Failure]
    - Topic${TopicName}:
        Type: AWS::SNS::Topic
        Properties:
          TopicName: !Ref TopicName
          DisplayName: !Sub "topic-${TopicName}"
  Fn::ForEach::Buckets:
    - Name
    - !Ref Names
    - Bucket&{Name}:
        Type: AWS::S3::Bucket
        Properties:
          BucketName: !Sub "${AWS::StackName}-${Name}"
          Fn::ForEach::Flags:
            - Flag
            - [Versioned, Logged]
            - ${Flag}: !Sub "${Name}:${Flag}"
Outputs:
  Fn::ForEach::Arns:
    - TopicName
    - [Success]
    - ${TopicName}Arn:
        Value: !Ref Topic${TopicName}
"""


def test_for_each_expands_as_the_language_extensions_transform() -> None:
    found = attributes(FOR_EACH)
    assert found["TopicSuccess"] == {"TopicName": "Success", "DisplayName": "topic-Success"}
    assert found["TopicFailure"] == {"TopicName": "Failure", "DisplayName": "topic-Failure"}
    assert found["Bucketappdata"] == {
        "BucketName": "AWS::StackName-app-data",
        "Versioned": "app-data:Versioned",
        "Logged": "app-data:Logged",
    }
    assert found["Bucketlogs"]["BucketName"] == "AWS::StackName-logs"
    assert len([k for k in found if not k.endswith(".meta")]) == 4


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (FOR_EACH.replace("Transform: AWS::LanguageExtensions\n", ""), "needs the AWS::", 7),
        (
            FOR_EACH.replace("[Success, Failure]", "[Success, Success]"),
            "generates 'TopicSuccess', which is already defined",
            8,
        ),
        (FOR_EACH.replace("- Topic${TopicName}:", "- Topic:"), "must use ${TopicName}", 8),
        (FOR_EACH.replace("- [Success, Failure]", "- 3"), "collection must be", 8),
    ],
)
def test_a_loop_the_transform_refuses_is_an_error(text: str, message: str, line: int) -> None:
    with pytest.raises(LoaderError) as raised:
        attributes(text)
    assert message in raised.value.message
    assert raised.value.line == line


RULES = """\
AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Vpc:
    Type: AWS::EC2::VPC::Id
    Default: vpc-1
  Subnets:
    Type: List<AWS::EC2::Subnet::Id>
    Default: subnet-1
Rules:
  SubnetsInVpc:
    Assertions:
      - Assert: !EachMemberEquals [!ValueOfAll ["AWS::EC2::Subnet::Id", VpcId], !Ref Vpc]
      - Assert: !EachMemberIn
          - !ValueOfAll ["AWS::EC2::Subnet::Id", VpcId]
          - !RefAll "AWS::EC2::VPC::Id"
      - Assert: !Contains [[vpc-1], !ValueOf [Subnets, VpcId]]
Resources:
  Group:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: web
      VpcId: !Ref Vpc
"""


def test_every_documented_short_form_tag_is_read() -> None:
    assert attributes(RULES)["Group"] == {"GroupDescription": "web", "VpcId": "vpc-1"}


def test_the_cli_shows_the_built_string_and_the_kept_resource(tmp_path: Path) -> None:
    (tmp_path / "ssh.yaml").write_text(OPEN_SSH)
    (tmp_path / "conditions.yaml").write_text(CONDITIONS)
    out = subprocess.run(
        [sys.executable, "-m", "engine", "state", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    states = json.loads(out.stdout)
    resources = {
        key: r for s in states for by_key in s["resources"].values() for key, r in by_key.items()
    }
    assert resources["Ingress"]["attributes"]["CidrIp"] == "0.0.0.0/0"
    assert resources["ProdBucket"]["meta"]["conditional"] is True


def test_loops_are_found_under_any_key_and_only_as_keys() -> None:
    deep: Any = {"Fn::ForEach::Deep": []}
    for _ in range(300):  # deeper than the JSON encoder goes: walked instead
        deep = {"Nested": [deep]}
    assert has_loops({"Resources": {"A": {"Properties": [{"Fn::ForEach::X": []}]}}})
    assert has_loops({1: {"Fn::ForEach::X": []}})  # a key not a string: walked
    assert has_loops(deep)
    assert not has_loops({"A": ["Fn::ForEach::X", {"B": '"Fn::ForEach::X'}]})
    assert not has_loops({1: {"Fn::ForEach": []}, "Fn::ForEachX": None})
