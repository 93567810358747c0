"""The YAML loader of input files: safe YAML, CloudFormation's short-form
intrinsic tags (``!Ref x``, ``!GetAtt a.b``, ``!Sub ...``) as their long forms,
any other tag an error, and a key twice in one mapping an error."""

from __future__ import annotations

from typing import Any

import yaml

from engine.core.yaml_limits import check_yaml_node, has_anchor

_FN_TAGS = (
    *("And", "Base64", "Cidr", "Equals", "FindInMap", "GetAZs", "If", "ImportValue"),
    *("Join", "Length", "Not", "Or", "Select", "Split", "Sub", "ToJsonString"),
    *("Transform", "ForEach"),
)
"""CloudFormation intrinsics whose short form ``!X`` is ``{"Fn::X": ...}``."""


# The base is libyaml's loader where PyYAML has it, so its type is only known at run time.
class _TemplateLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML plus CloudFormation's short-form intrinsic tags; a key twice
    in one mapping is an error, as in go-yaml v3 (YAML requires unique keys)."""

    def __init__(self, stream: bytes) -> None:
        super().__init__(stream)
        self._unique_checked: set[int] = set()

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        if id(node) not in self._unique_checked:  # before merges add their keys
            self._unique_checked.add(id(node))
            _check_unique_keys(node)
        super().flatten_mapping(node)


def _check_unique_keys(node: yaml.MappingNode) -> None:
    keys = [
        (key.tag, key.value)
        for key, _ in node.value
        if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE
    ]
    if len(set(keys)) == len(keys):
        return  # the common case, checked at C speed; else find the duplicate
    seen: dict[tuple[str, str], int] = {}
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag == _MERGE:
            continue
        identity = (key.tag, key.value)
        if identity in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"key {key.value!r} is defined twice (first at line {seen[identity]})",
                key.start_mark,
            )
        seen[identity] = key.start_mark.line + 1


_MERGE = "tag:yaml.org,2002:merge"


def _construct_plain(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    assert isinstance(node, yaml.ScalarNode)
    return loader.construct_scalar(node)


def _long_form(name: str) -> Any:
    def construct(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        value = _construct_plain(loader, node)
        if name == "Fn::GetAtt" and isinstance(value, str):
            resource, _, attribute = value.partition(".")
            value = [resource, attribute]
        return {name: value}

    return construct


for _tag in _FN_TAGS:
    _TemplateLoader.add_constructor(f"!{_tag}", _long_form(f"Fn::{_tag}"))
_TemplateLoader.add_constructor("!GetAtt", _long_form("Fn::GetAtt"))
_TemplateLoader.add_constructor("!Ref", _long_form("Ref"))
_TemplateLoader.add_constructor("!Condition", _long_form("Condition"))


def _unknown_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(None, None, f"unknown tag !{suffix}", node.start_mark)


_TemplateLoader.add_multi_constructor("!", _unknown_tag)


def compose_documents(raw: bytes) -> list[Any]:
    """Every document of a YAML stream (empty documents dropped); PyYAML's
    errors propagate. Aliases are checked with :func:`check_yaml_node`."""
    documents: list[Any] = []
    anchors = has_anchor(raw)
    loader = _TemplateLoader(raw)
    try:
        while loader.check_node():
            node = loader.get_node()
            if anchors:  # without aliases, the loaded document's check bounds the depth
                check_yaml_node(node)
            document = loader.construct_document(node)
            if document is not None:
                documents.append(document)
    finally:
        loader.dispose()
    return documents
