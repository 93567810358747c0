"""``bench/realworld.py`` (``make realworld``) over a small repository, with a stand-in for
snyk's engine that prints the results document snyk's ``run`` prints."""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).parent.parent.parent / "bench" / "realworld.py"

TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Mask: {Type: String, Default: "0"}
Resources:
  Ingress:
    Type: AWS::EC2::SecurityGroupIngress
    Properties:
      CidrIp: !Sub "0.0.0.0/${Mask}"
      Description: !Sub "ssh in ${AWS::Region}"
      IpProtocol: tcp
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: jobs
"""


@functools.cache
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("realworld", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["realworld"] = module
    spec.loader.exec_module(module)
    return module


def snyk_resource(rtype: str, key: str, attributes: dict) -> dict:
    return {"id": key, "resource_type": rtype, "namespace": "t.yaml", "attributes": attributes}


def fake_snyk(tmp_path: Path, states: list[dict]) -> Path:
    """An executable printing ``{"results": [{"input": state}...]}`` for ``run .``."""
    script = tmp_path / "policy-engine"
    document = json.dumps({"format": "results", "results": [{"input": s} for s in states]})
    script.write_text(
        f"#!{sys.executable}\nimport sys\nassert sys.argv[1:] == ['run', '.']\n"
        f"print({document!r})\n"
    )
    script.chmod(0o755)
    return script


def test_a_repository_is_tallied_and_classified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repository = tmp_path / "repo"
    repository.mkdir()
    (repository / "t.yaml").write_text(TEMPLATE)
    snyk_state = {
        "input_type": "cfn",
        "meta": {"filepath": "t.yaml"},
        "resources": {
            "AWS::EC2::SecurityGroupIngress": {
                "Ingress": snyk_resource(
                    "AWS::EC2::SecurityGroupIngress",
                    "Ingress",
                    {"CidrIp": "Mask", "Description": "ssh in AWS::Region", "IpProtocol": "tcp"},
                )
            },
            "AWS::SNS::Topic": {"Alerts": snyk_resource("AWS::SNS::Topic", "Alerts", {})},
        },
    }
    monkeypatch.setenv("SNYK_PE", str(fake_snyk(tmp_path, [snyk_state])))
    assert tool().main([str(repository)]) == 0
    out = capsys.readouterr().out
    assert "| repo | - | 1 | 0 | 1 | 1 | 1 |" in out
    assert "1  cfn: Fn::Sub/Fn::Join give the string they build (deliberate" in out
    assert "1  cfn: only ours" in out
    assert "1  cfn: only snyk's" in out


def test_without_snyks_engine_it_says_how_to_run_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SNYK_PE", raising=False)
    assert tool().main(["somewhere"]) == 2
    assert "SNYK_PE=" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("ours", "theirs", "expected"),
    [
        ({"a": 1}, {"a": 1.0}, None),
        ({"a": [1, 2]}, {"a": [1, 3]}, (".a[1]", 2, 3)),
        ({"a": 1}, {}, (".a", 1, ...)),
        ({"a": True}, {"a": 1}, (".a", True, 1)),
    ],
)
def test_first_difference(ours: dict, theirs: dict, expected: object) -> None:
    assert tool().first_difference(ours, theirs) == expected
