"""``bench/loader_parity.py`` (``make loader-parity``) over a small golden tree
laid out as snyk's policy engine lays out its loader goldens."""

from __future__ import annotations

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
