"""``bench/loader_parity.py`` (``make loader-parity``) over a small golden tree
laid out as snyk's policy engine lays out its loader goldens."""

from __future__ import annotations

import copy
import functools
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).parent.parent.parent / "bench" / "loader_parity.py"
SCHEMA = "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#"


@functools.cache
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("loader_parity", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loader_parity"] = module
    spec.loader.exec_module(module)
    return module


def golden(root: Path, fmt: str, case: str, files: dict[str, str], expected: dict) -> None:
    directory = root / "pkg" / "input" / "golden_test" / fmt / case
    directory.mkdir(parents=True)
    for name, text in files.items():
        (directory / name).write_text(text)
    (directory.parent / f"{case}.json").write_text(json.dumps(expected))


def arm_state(key: str, attributes: dict) -> dict:
    rtype = "Microsoft.Web/serverfarms"
    resource = {"id": key, "resource_type": rtype, "attributes": attributes}
    return {"resources": {rtype: {key: resource}}}


def test_table_of_equal_differing_and_refused(tmp_path: Path) -> None:
    for fmt in ("arm", "cfn", "k8s", "tf", "tfplan", "tfstate"):
        (tmp_path / "pkg" / "input" / "golden_test" / fmt).mkdir(parents=True)
    template = {
        "$schema": SCHEMA,
        "resources": [{"type": "Microsoft.Web/serverfarms", "apiVersion": "1", "name": "p"}],
    }
    key = "Microsoft.Web/serverfarms/p"
    files = {"template.json": json.dumps(template)}
    golden(tmp_path, "arm", "same", files, arm_state(key, {"apiVersion": "1", "properties": {}}))
    golden(tmp_path, "arm", "other", files, arm_state(key, {"apiVersion": "2", "properties": {}}))
    golden(tmp_path, "arm", "broken", {"template.json": "{"}, arm_state(key, {}))
    golden(tmp_path, "arm", "submodule", {}, arm_state(key, {}))
    parity = tool()
    tallies = parity.run(tmp_path)
    arm = tallies["arm"]
    assert (arm.resources, arm.equal, arm.differing, arm.refused) == (4, 1, 1, 2)
    assert arm.causes == {
        "attributes: apiVersion value": 1,
        "refused": 1,
        "refused: the case has no input files in this checkout": 1,
    }
    table = parity.render(tallies, verbose=False)
    assert "| arm | 4 | 1 | 0 | 1 | 2 | 2 |" in table


FOR_EACH_TF = """
resource "aws_s3_bucket" "b" {
  for_each = toset(["dev"])
  bucket   = each.key
}

resource "aws_s3_bucket_versioning" "v" {
  for_each = toset(["dev"])
  bucket   = aws_s3_bucket.b[each.key].id
}

resource "aws_db_instance" "db" {
  password = "hunter2"
}
"""


def tf_resource(key: str, rtype: str, attributes: dict) -> dict:
    return {"id": key, "resource_type": rtype, "attributes": attributes}


def tf_state(**by_key: tuple[str, dict]) -> dict:
    resources: dict = {}
    for key, (rtype, attributes) in by_key.items():
        resources.setdefault(rtype, {})[key] = tf_resource(key, rtype, attributes)
    return {"resources": resources}


@pytest.mark.parametrize(
    ("bucket", "password", "row", "causes"),
    [
        (
            "dev",
            "******",
            "| tf | 3 | 0 | 3 | 0 | 0 |",
            {"FOR_EACH_KEY": 2, "SENSITIVE": 1},
        ),
        (
            "prod",
            "other",
            "| tf | 3 | 0 | 1 | 2 | 0 |",
            {"FOR_EACH_KEY": 1, "attributes: bucket value": 1, "attributes: password value": 1},
        ),
    ],
    ids=["only-deliberate", "something-else-differs-too"],
)
def test_deliberate_differences_are_counted_apart(
    tmp_path: Path, bucket: str, password: str, row: str, causes: dict[str, int]
) -> None:
    for fmt in ("arm", "cfn", "k8s", "tf", "tfplan", "tfstate"):
        (tmp_path / "pkg" / "input" / "golden_test" / fmt).mkdir(parents=True)
    expected = tf_state(
        **{
            "aws_s3_bucket.b[dev]": ("aws_s3_bucket", {"bucket": bucket}),
            "aws_s3_bucket_versioning.v[dev]": (
                "aws_s3_bucket_versioning",
                {"bucket": "aws_s3_bucket.b[dev]"},
            ),
            "aws_db_instance.db": ("aws_db_instance", {"password": password}),
        }
    )
    golden(tmp_path, "tf", "for-each", {"main.tf": FOR_EACH_TF}, expected)
    parity = tool()
    tallies = parity.run(tmp_path)
    named = {getattr(parity, k, k): v for k, v in causes.items()}
    assert tallies["tf"].causes == named
    assert row in parity.render(tallies, verbose=False)
    assert all("(deliberate, docs/inputs.md)" in getattr(parity, k) for k in causes if k.isupper())


def test_cluster_scoped_kubernetes_key_is_deliberate(tmp_path: Path) -> None:
    for fmt in ("arm", "cfn", "k8s", "tf", "tfplan", "tfstate"):
        (tmp_path / "pkg" / "input" / "golden_test" / fmt).mkdir(parents=True)
    manifest = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}}
    resource = {"id": "team", "resource_type": "Namespace", "attributes": manifest}
    expected = {"resources": {"Namespace": {"default.team": resource}}}
    golden(tmp_path, "k8s", "ns", {"ns.json": json.dumps(manifest)}, expected)
    k8s = tool().run(tmp_path)["k8s"]
    assert (k8s.equal, k8s.deliberate, k8s.differing) == (0, 1, 0)


@pytest.mark.parametrize(
    ("key", "spelled"),
    [
        ('aws_s3_bucket.b["dev"]', "aws_s3_bucket.b[dev]"),
        ('module.m["a b"].aws_s3_bucket.b[0]', "module.m[a b].aws_s3_bucket.b[0]"),
        ('aws_s3_bucket.b["say \\"hi\\""]', 'aws_s3_bucket.b[say "hi"]'),
        ("aws_s3_bucket.b[3]", "aws_s3_bucket.b[3]"),
    ],
)
def test_snyk_spelling(key: str, spelled: str) -> None:
    assert tool().snyk_spelling(key) == spelled


@pytest.mark.parametrize(
    ("ours", "theirs", "found"),
    [
        ({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}, None),
        ({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}, "a[1].b value"),
        ({"a": 1}, {"a": 1, "b": 2}, "b missing"),
        ({"a": 1, "c": 2}, {"a": 1}, "c extra"),
        ({"a": [1]}, {"a": [1, 2]}, "a length 1 != 2"),
        ({"a": 1}, {"a": 1.0}, "a value"),
    ],
)
def test_first_difference(ours: dict, theirs: dict, found: str | None) -> None:
    assert tool().first_difference("", ours, theirs) == found


def test_without_a_checkout_it_says_how_to_use_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SNYK_PE_DIR", raising=False)
    assert tool().main([]) == 2
    assert tool().main([str(tmp_path)]) == 2
    assert "SNYK_PE_DIR=/path/to/policy-engine make loader-parity" in capsys.readouterr().err


K8S_SHARED_NAME = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec: {replicas: 2}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {type: ClusterIP}
"""


def k8s_state(manifest: str) -> dict:
    import yaml

    resources: dict = {}
    for document in yaml.safe_load_all(manifest):
        key = f"{document['metadata']['namespace']}.{document['metadata']['name']}"
        resources.setdefault(document["kind"], {})[key] = {
            "id": document["metadata"]["name"],
            "resource_type": document["kind"],
            "attributes": document,
        }
    return {"resources": resources}


def test_a_key_shared_by_two_types_is_compared_within_its_type(tmp_path: Path) -> None:
    for fmt in ("arm", "cfn", "k8s", "tf", "tfplan", "tfstate"):
        (tmp_path / "pkg" / "input" / "golden_test" / fmt).mkdir(parents=True)
    files = {"objects.yaml": K8S_SHARED_NAME}
    golden(tmp_path, "k8s", "shared", files, k8s_state(K8S_SHARED_NAME))
    k8s = tool().run(tmp_path)["k8s"]
    assert (k8s.resources, k8s.equal, k8s.differing) == (2, 2, 0), k8s.causes


GET_ATT_TEMPLATE = """
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  WebGroup:
    Type: AWS::EC2::SecurityGroup
    Properties: {GroupDescription: web}
  Ingress:
    Type: AWS::EC2::SecurityGroupIngress
    Properties:
      GroupId: !GetAtt WebGroup.GroupId
      IpProtocol: tcp
"""


@pytest.mark.parametrize(("name", "deliberate"), [("WebGroup", 1), ("OtherGroup", 0)])
def test_get_att_kept_as_the_logical_id_is_deliberate(
    tmp_path: Path, name: str, deliberate: int
) -> None:
    for fmt in ("arm", "cfn", "k8s", "tf", "tfplan", "tfstate"):
        (tmp_path / "pkg" / "input" / "golden_test" / fmt).mkdir(parents=True)
    rtype = "AWS::EC2::SecurityGroupIngress"
    ingress = {
        "id": "Ingress",
        "resource_type": rtype,
        "attributes": {"GroupId": {"Fn::GetAtt": [name, "GroupId"]}, "IpProtocol": "tcp"},
    }
    group = {
        "id": "WebGroup",
        "resource_type": "AWS::EC2::SecurityGroup",
        "attributes": {"GroupDescription": "web"},
    }
    expected = {
        "resources": {rtype: {"Ingress": ingress}, group["resource_type"]: {"WebGroup": group}}
    }
    golden(tmp_path, "cfn", "getatt", {"template.yaml": GET_ATT_TEMPLATE}, expected)
    cfn = tool().run(tmp_path)["cfn"]
    assert (cfn.equal, cfn.deliberate, cfn.differing) == (1, deliberate, 1 - deliberate)


def test_examples_are_compared_with_the_states_snyks_fixture_command_prints(
    tmp_path: Path,
) -> None:
    """A stand-in for snyk's binary prints each input's State as ``fixture`` does (a Rego
    module); one resource of the Terraform example is changed, so one differs."""
    parity = tool()
    states = {}
    for _, relative in parity.EXAMPLE_INPUTS:
        loaded = parity.load_inputs([parity.EXAMPLES / relative])
        document = {"resources": {}}
        for item in loaded.inputs:
            for rtype, by_key in copy.deepcopy(item.state.document["resources"]).items():
                document["resources"].setdefault(rtype, {}).update(by_key)
        states[Path(relative).name] = document
    first_type = sorted(states["terraform"]["resources"])[0]
    first_key = sorted(states["terraform"]["resources"][first_type])[0]
    states["terraform"]["resources"][first_type][first_key]["attributes"]["planted"] = 1
    (tmp_path / "states.json").write_text(json.dumps(states))
    binary = tmp_path / "policy-engine"
    binary.write_text(
        f"#!{sys.executable}\n"
        "import json, pathlib, sys\n"
        f"states = json.loads(pathlib.Path({str(tmp_path / 'states.json')!r}).read_text())\n"
        "print('package fixture.example\\n\\nmock_input = ' + json.dumps(states[sys.argv[2]]))\n"
    )
    binary.chmod(0o755)
    tallies = parity.run_examples(binary)
    assert set(tallies) == {"tf", "tfplan", "cfn", "k8s"}
    assert tallies["tf"].differing == 1, tallies["tf"]
    assert tallies["tf"].causes["attributes: planted missing"] == 1
    assert all(t.differing == 0 for fmt, t in tallies.items() if fmt != "tf")


SUB_TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub "${AWS::StackName}-logs"
"""


@pytest.mark.parametrize(("snyk_value", "deliberate"), [("AWS::StackName", 1), ("other-logs", 0)])
def test_a_built_sub_string_where_snyk_gives_names_is_deliberate(
    tmp_path: Path, snyk_value: str, deliberate: int
) -> None:
    for fmt in ("arm", "cfn", "k8s", "tf", "tfplan", "tfstate"):
        (tmp_path / "pkg" / "input" / "golden_test" / fmt).mkdir(parents=True)
    rtype = "AWS::S3::Bucket"
    bucket = {"id": "Logs", "resource_type": rtype, "attributes": {"BucketName": snyk_value}}
    golden(
        tmp_path,
        "cfn",
        "sub",
        {"template.yaml": SUB_TEMPLATE},
        {"resources": {rtype: {"Logs": bucket}}},
    )
    cfn = tool().run(tmp_path)["cfn"]
    assert (cfn.deliberate, cfn.differing) == (deliberate, 1 - deliberate)
