"""``Fn::ForEach`` loops of CloudFormation's ``AWS::LanguageExtensions`` transform,
expanded as the transform expands them before deployment.

A loop is a mapping key ``Fn::ForEach::<Name>`` whose value is
``[Identifier, Collection, {OutputKey: OutputValue}]``: for each value of the
collection (a list of strings, or a ``Ref`` to a list parameter, which takes the
parameter's value as ``Ref`` does) the output entries are added to the mapping
that holds the loop, with ``${Identifier}`` in their keys replaced by the value
and ``&{Identifier}`` by the value without its non-alphanumeric characters;
inside the output values, ``{"Ref": Identifier}`` becomes the value and
``${Identifier}`` in a ``Fn::Sub`` string the value too. Loops nest (an output
value may hold another loop) and appear wherever a template has mappings of
named entries: ``Resources``, ``Outputs``, ``Conditions``, a resource's
``Properties``.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from engine.inputs.loaders.evaluation_budget import spend_for_json

FOR_EACH_PREFIX = "Fn::ForEach::"
_QUOTED_PREFIX = b'"' + FOR_EACH_PREFIX.encode()
LANGUAGE_EXTENSIONS = "AWS::LanguageExtensions"


class ForEachError(ValueError):
    """A loop the transform refuses; ``path`` is where it is written in the template."""

    def __init__(self, message: str, path: tuple[str | int, ...]) -> None:
        super().__init__(message)
        self.path = path


def has_loops(value: Any) -> bool:
    """Whether ``value`` holds an ``Fn::ForEach`` loop anywhere."""
    try:  # a loop's key appears in the JSON text as written: most templates have none
        if _QUOTED_PREFIX not in orjson.dumps(value):
            return False
    except orjson.JSONEncodeError:
        pass  # not JSON as it is (a key not a string, nested too deeply): walked below
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            for key in item:
                if isinstance(key, str) and key.startswith(FOR_EACH_PREFIX):
                    return True
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def expand_loops(value: Any, parameters: dict[str, Any], path: tuple[str | int, ...] = ()) -> Any:
    """``value`` with every loop replaced by the entries it generates."""
    if isinstance(value, list):
        return [expand_loops(v, parameters, (*path, i)) for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    expanded: dict[str, Any] = {}
    for key, item in value.items():
        where = (*path, key)
        if not (isinstance(key, str) and key.startswith(FOR_EACH_PREFIX)):
            _add(expanded, key, expand_loops(item, parameters, where), where)
            continue
        for generated_key, generated in _iterations(item, parameters, where):
            _add(expanded, generated_key, expand_loops(generated, parameters, where), where)
    return expanded


def _add(into: dict[str, Any], key: str, value: Any, where: tuple[str | int, ...]) -> None:
    if key in into:
        raise ForEachError(f"Fn::ForEach generates {key!r}, which is already defined", where)
    into[key] = value


def _iterations(
    loop: Any, parameters: dict[str, Any], where: tuple[str | int, ...]
) -> list[tuple[str, Any]]:
    name = where[-1]
    if not (isinstance(loop, list) and len(loop) == 3):
        raise ForEachError(f"{name} must be [Identifier, Collection, {{OutputKey: Value}}]", where)
    identifier, collection, outputs = loop
    if not isinstance(identifier, str) or not identifier:
        raise ForEachError(f"{name}: the identifier must be a string", where)
    values = _collection(collection, parameters)
    if values is None:
        raise ForEachError(
            f"{name}: the collection must be a list of strings or a Ref to a list parameter",
            where,
        )
    if not isinstance(outputs, dict) or not outputs:
        raise ForEachError(f"{name}: the output must be a mapping of keys to values", where)
    generated: list[tuple[str, Any]] = []
    for item in values:
        for output_key, output_value in outputs.items():
            if f"${{{identifier}}}" not in output_key and f"&{{{identifier}}}" not in output_key:
                raise ForEachError(
                    f"{name}: the output key {output_key!r} must use ${{{identifier}}} "
                    f"or &{{{identifier}}}",
                    where,
                )
            fragment = _substitute(output_value, identifier, item)
            spend_for_json(fragment)  # each iteration is a copy in the template
            generated.append((_key(output_key, identifier, item), fragment))
    return generated


def _collection(collection: Any, parameters: dict[str, Any]) -> list[str] | None:
    if isinstance(collection, dict) and set(collection) == {"Ref"}:
        collection = parameters.get(collection["Ref"])
    if isinstance(collection, list) and all(isinstance(v, str) for v in collection):
        return collection
    return None


def _key(template: str, identifier: str, value: str) -> str:
    alphanumeric = re.sub(r"[^0-9A-Za-z]", "", value)
    return template.replace(f"${{{identifier}}}", value).replace(f"&{{{identifier}}}", alphanumeric)


def _substitute(value: Any, identifier: str, item: str) -> Any:
    if isinstance(value, list):
        return [_substitute(v, identifier, item) for v in value]
    if not isinstance(value, dict):
        return value
    if set(value) == {"Ref"} and value["Ref"] == identifier:
        return item
    if set(value) == {"Fn::Sub"}:
        return {"Fn::Sub": _substitute_sub(value["Fn::Sub"], identifier, item)}
    return {
        _key(k, identifier, item) if isinstance(k, str) else k: _substitute(v, identifier, item)
        for k, v in value.items()
    }


def _substitute_sub(argument: Any, identifier: str, item: str) -> Any:
    if isinstance(argument, str):
        return argument.replace(f"${{{identifier}}}", item)
    if isinstance(argument, list) and argument and isinstance(argument[0], str):
        return [
            argument[0].replace(f"${{{identifier}}}", item),
            *(_substitute(v, identifier, item) for v in argument[1:]),
        ]
    return _substitute(argument, identifier, item)
