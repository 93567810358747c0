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
    # the rule functions of a template's Rules section
    *("Contains", "EachMemberEquals", "EachMemberIn", "RefAll", "ValueOf", "ValueOfAll"),
)
"""CloudFormation intrinsics whose short form ``!X`` is ``{"Fn::X": ...}``: every short
form AWS documents, the condition and rule functions included."""


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

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        """PyYAML's tag resolution, remembered per plain scalar text (it depends
        on nothing else while no path resolvers are added)."""
        if kind is not yaml.ScalarNode or self.yaml_path_resolvers:
            return super().resolve(kind, value, implicit)
        if not implicit[0]:  # quoted or tagged
            return self.DEFAULT_SCALAR_TAG
        tag = _RESOLVED.get(value)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(_RESOLVED) >= _RESOLVED_MAX:
                _RESOLVED.clear()
            _RESOLVED[value] = tag
        return tag


_RESOLVED: dict[str, str] = {}
"""The tag of each plain scalar's text seen lately (bounded by :data:`_RESOLVED_MAX`)."""
_RESOLVED_MAX = 65_536


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


_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_KEY_TAGS_FLATTENED = frozenset({_MERGE, "tag:yaml.org,2002:value"})
"""Key tags PyYAML's ``flatten_mapping`` rewrites the node for."""


class _Unusual(Exception):
    """A node :func:`_construct_plain_tree` leaves to PyYAML's own constructor."""


def _construct_plain_tree(loader: _TemplateLoader, node: yaml.Node) -> Any:
    """The value PyYAML's safe constructor builds for ``node``, built directly for
    plain maps, sequences, strings, nulls, booleans and integers (other scalars
    and tagged nodes through the loader's constructors). Only for documents
    without anchors: no node is shared. Raises :class:`_Unusual` for a merge
    key or a collection key, which PyYAML handles by rewriting the node (which
    ``flatten_mapping`` does only for such keys: here it would only check for
    duplicate keys, as done here)."""
    kind = type(node)
    tag = node.tag
    if kind is yaml.ScalarNode:
        if tag == _STR:
            return node.value
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return loader.bool_values[node.value.lower()]
        if tag == _INT:
            return loader.construct_yaml_int(node)
    elif kind is yaml.SequenceNode and tag == _SEQ:
        return [_construct_plain_tree(loader, child) for child in node.value]
    elif kind is yaml.MappingNode and tag == _MAP:
        keys = set()
        for key_node, _ in node.value:
            if type(key_node) is not yaml.ScalarNode or key_node.tag in _KEY_TAGS_FLATTENED:
                raise _Unusual
            keys.add((key_node.tag, key_node.value))
        if len(keys) != len(node.value):
            assert isinstance(node, yaml.MappingNode)
            _check_unique_keys(node)  # raises, naming the duplicate's line
        return {
            _construct_plain_tree(loader, key_node): _construct_plain_tree(loader, value_node)
            for key_node, value_node in node.value
        }
    return loader.construct_object(node, deep=True)


def _construct(loader: _TemplateLoader, node: yaml.Node, anchors: bool) -> Any:
    """One document's value, as ``loader.construct_document`` builds it (and with
    its errors): directly when the stream has no anchors and nothing unusual,
    else, and on any error, by PyYAML afresh."""
    if not anchors:
        try:
            return _construct_plain_tree(loader, node)
        except Exception:  # PyYAML reports it, as it would have
            loader._unique_checked = set()
        finally:
            loader.constructed_objects = {}
            loader.recursive_objects = {}
            loader.state_generators = []
            loader.deep_construct = False
    return loader.construct_document(node)


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
            document = _construct(loader, node, anchors)
            if document is not None:
                documents.append(document)
    finally:
        loader.dispose()
    return documents
