"""Parsing JSON and YAML documents: exact numbers, CloudFormation tags, errors with lines."""

from __future__ import annotations

import pytest

from engine.inputs.loaders.documents import parse_json, parse_yaml
from engine.inputs.loaders.loaded import LoaderError


@pytest.mark.parametrize(
    "number",
    [
        -9223372036854775809,
        -9223372036854775808,
        18446744073709551615,
        18446744073709551616,
        10**40,
    ],
)
def test_integers_beyond_64_bits_stay_exact(number: int) -> None:
    assert parse_json(b'{"n": %d}' % number) == {"n": number}


def test_invalid_json_names_its_line() -> None:
    with pytest.raises(LoaderError) as caught:
        parse_json(b'{\n  "a": 1,\n}')
    assert caught.value.line == 3


def test_infinite_numbers_are_refused() -> None:
    with pytest.raises(LoaderError, match="out of range"):
        parse_json(b"[1e400]")


def test_cloudformation_short_forms_become_long_forms() -> None:
    (doc,) = parse_yaml(b"a: !Ref x\nb: !GetAtt r.Arn\nc: !Sub '${x}-y'\nd: !Condition c\n")
    assert doc == {
        "a": {"Ref": "x"},
        "b": {"Fn::GetAtt": ["r", "Arn"]},
        "c": {"Fn::Sub": "${x}-y"},
        "d": {"Condition": "c"},
    }


def test_unknown_tags_are_errors_with_their_line() -> None:
    with pytest.raises(LoaderError) as caught:
        parse_yaml(b"a: 1\nb: !Bogus x\n")
    assert caught.value.line == 2
    assert "!Bogus" in caught.value.message
