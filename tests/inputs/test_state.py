"""States: recognition by shape, validation, resource objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.inputs.discovery import load_inputs
from engine.inputs.state import StateError, looks_like_state, parse_state, resource_object


def state_doc(**resources: dict) -> dict:
    return {
        "format": "",
        "input_type": "tf_hcl",
        "scope": {},
        "meta": {"filepath": "m.tf"},
        "resources": resources,
    }


BUCKET = {
    "id": "aws_s3_bucket.a",
    "resource_type": "aws_s3_bucket",
    "namespace": "m.tf",
    "meta": {"provider": "aws"},
    "tags": {"k": "v"},
    "attributes": {"bucket": "b"},
}


def test_recognised_by_shape_not_format() -> None:
    assert looks_like_state(state_doc(aws_s3_bucket={"aws_s3_bucket.a": BUCKET}))
    assert looks_like_state({**state_doc(), "format": "whatever"})
    assert not looks_like_state({"resources": {}})
    assert not looks_like_state([1, 2])


def test_resource_object_fields() -> None:
    state = parse_state(state_doc(aws_s3_bucket={"aws_s3_bucket.a": BUCKET}))
    (resource,) = state.resources["aws_s3_bucket"]
    assert resource_object(resource, state) == {
        "bucket": "b",
        "id": "aws_s3_bucket.a",
        "_id": "aws_s3_bucket.a",
        "_type": "aws_s3_bucket",
        "_namespace": "m.tf",
        "_meta": {"provider": "aws"},
        "_tags": {"k": "v"},
        "_provider": "aws",
        "_filepath": "m.tf",
    }


@pytest.mark.parametrize(
    ("attr_id", "visible"),
    [("real-id", "real-id"), ("", "aws_s3_bucket.a"), (7, "aws_s3_bucket.a")],
)
def test_visible_id(attr_id: object, visible: str) -> None:
    bucket = {**BUCKET, "attributes": {"id": attr_id}}
    state = parse_state(state_doc(aws_s3_bucket={"aws_s3_bucket.a": bucket}))
    obj = state.resource_objects("aws_s3_bucket")[0]
    assert (obj["id"], obj["_id"]) == (visible, "aws_s3_bucket.a")


def test_malformed_entries_name_the_path() -> None:
    with pytest.raises(StateError, match=r"resources.aws_s3_bucket.a.attributes"):
        parse_state(state_doc(aws_s3_bucket={"a": {"resource_type": "aws_s3_bucket"}}))
    with pytest.raises(StateError, match="differs from its group"):
        parse_state(state_doc(aws_s3_bucket={"a": {**BUCKET, "resource_type": "other"}}))


def test_list_files_and_skips(tmp_path: Path) -> None:
    doc = state_doc(aws_s3_bucket={"aws_s3_bucket.a": BUCKET})
    (tmp_path / "two.json").write_text(json.dumps([doc, {**doc, "input_type": "cfn"}]))
    (tmp_path / "other.json").write_text('{"not": "a state"}')
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "bad.json").write_text('{"input_type": ')
    loaded = load_inputs([tmp_path])
    assert [i.name for i in loaded.inputs] == [
        f"{tmp_path / 'two.json'}[0]",
        f"{tmp_path / 'two.json'}[1]",
    ]
    assert [i.state.input_type for i in loaded.inputs] == ["tf_hcl", "cfn"]
    assert len(loaded.problems) == 1 and "bad.json" in str(loaded.problems[0])
    assert loaded.problems[0].line == 1
    assert sorted(Path(p).name for p in loaded.skipped) == ["notes.txt", "other.json"]
