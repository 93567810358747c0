"""Tags of Terraform resources, read from their attributes as snyk's loaders read them."""

from __future__ import annotations

from engine.inputs.loaders.terraform_tags import resource_tags


def test_tags_map_keeps_strings_and_null_becomes_empty() -> None:
    tags = {"a": "x", "b": None, "c": 3, "d": ["l"]}
    assert resource_tags("aws_s3_bucket", {"tags": tags}) == {"a": "x", "b": ""}
    assert resource_tags("aws_s3_bucket", {"tags": ["a"], "labels": {"x": "y"}}) == {}


def test_autoscaling_group_tag_blocks_join_its_tags() -> None:
    attributes = {
        "tag": [{"key": "Stage", "value": "Dev"}, {"key": "NoValue"}, {"value": "no key"}],
        "tags": {"Team": "web"},
    }
    assert resource_tags("aws_autoscaling_group", attributes) == {"Stage": "Dev", "Team": "web"}
    assert resource_tags("aws_launch_template", {"tag": attributes["tag"]}) == {}


def test_google_resources_take_labels_and_network_tags() -> None:
    attributes = {"labels": {"env": "prod", "n": 1}, "tags": ["ssh", 7]}
    assert resource_tags("google_compute_instance", attributes) == {"env": "prod", "ssh": ""}
    assert resource_tags("google_storage_bucket", {"tags": {"a": "b"}}) == {}
