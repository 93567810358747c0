"""The tags of a Terraform resource, from its attributes, as snyk's loaders read them.

``tags`` (a map) for most resources; for ``aws_autoscaling_group`` also its
``tag`` blocks (``key`` and ``value``); for ``google_*`` resources the
``labels`` map and the network ``tags`` list (each tag with the value ``""``)
instead of a ``tags`` map. Only string values are kept; null becomes ``""``.
"""

from __future__ import annotations

from typing import Any


def resource_tags(resource_type: str, attributes: dict[str, Any]) -> dict[str, str]:
    """The tags of a resource of ``resource_type`` with ``attributes``."""
    found: dict[str, Any] = {}
    if resource_type == "aws_autoscaling_group":
        blocks = attributes.get("tag")
        for block in blocks if isinstance(blocks, list) else []:
            if isinstance(block, dict) and isinstance(block.get("key"), str) and "value" in block:
                found[block["key"]] = block["value"]
    tags = attributes.get("tags")
    if resource_type.startswith("google_"):
        labels = attributes.get("labels")
        if isinstance(labels, dict):
            found.update(labels)
        if isinstance(tags, list):
            found.update((tag, None) for tag in tags if isinstance(tag, str))
    elif isinstance(tags, dict):
        found.update(tags)
    return {
        key: "" if value is None else value
        for key, value in sorted(found.items())
        if value is None or isinstance(value, str)
    }
