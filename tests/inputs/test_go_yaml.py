"""YAML data documents and inputs read as the pinned ``opa eval -i`` reads them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa

from engine.core.go_yaml import load_yaml_document
from engine.evaluation.data_reference import eval_ref, read_input
from engine.inputs.loaders.loaded import LoaderError
from engine.rules.opa import find_opa
from engine.rules.sources import SourceError, load_sources
from engine.wasm.host_builtins.yaml_json import yaml_unmarshal

# Each plain scalar and its value, as measured with the pinned opa.
SCALARS: list[tuple[str, Any]] = [
    ("2027-01-31", "2027-01-31"),
    ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
    ("2001-12-14 21:59:43.10", "2001-12-14 21:59:43.10"),
    ("yes", "yes"),
    ("no", "no"),
    ("on", "on"),
    ("y", "y"),
    ("true", True),
    ("True", True),
    ("TRUE", True),
    ("False", False),
    ("017", 15),
    ("0o17", 15),
    ("08", 8),
    ("1_000", 1000),
    ("0b101", 5),
    ("-0b101", -5),
    ("0x1F", 31),
    ("-0x1F", -31),
    ("+12", 12),
    (".5", 0.5),
    ("1e3", 1000),
    ("1.0", 1),
    ("6.02e+23", 6.02e23),
    ("12345678901234567890", 12345678901234567890),
    ("1:20", "1:20"),
    ("~", None),
    ("Null", None),
    ("", None),
]


def _document() -> str:
    return "".join(f"k{i}: {text}\n" for i, (text, _) in enumerate(SCALARS))


def _expected() -> dict[str, Any]:
    return {f"k{i}": value for i, (_, value) in enumerate(SCALARS)}


def _same(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Equal values of equal JSON types (``True == 1`` in Python)."""
    assert got == want
    for key, value in want.items():
        assert type(got[key]) is type(value), key


def test_scalars_resolve_as_opa_reads_them() -> None:
    _same(load_yaml_document(_document()), _expected())


def test_the_loader_and_yaml_unmarshal_agree() -> None:
    _same(yaml_unmarshal(_document()), load_yaml_document(_document()))


@needs_opa
def test_the_scalar_table_matches_opa_eval_input(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(_document())
    args = [str(find_opa().path), "eval", "--format", "json", "-i", str(path), "input"]
    out = json.loads(subprocess.run(args, capture_output=True, check=True).stdout)
    opa_value = out["result"][0]["expressions"][0]["value"]
    _same(opa_value, _expected())
    _same(json.loads(read_input(path)), opa_value)


def test_an_unquoted_date_in_a_data_document_stays_a_string(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text("expires: 2027-01-31\nwhen: 2001-12-14 21:59:43.10\n")
    (tmp_path / "p.rego").write_text("package p\nx := data.expires\n")
    assert load_sources([tmp_path]).data == {
        "expires": "2027-01-31",
        "when": "2001-12-14 21:59:43.10",
    }
    assert eval_ref([tmp_path], "data.p.x").value == "2027-01-31"


def test_an_unquoted_date_in_an_eval_input_stays_a_string(tmp_path: Path) -> None:
    path = tmp_path / "in.yaml"
    path.write_text("expires: 2027-01-31\nsize: 0o17\n")
    assert json.loads(read_input(path)) == {"expires": "2027-01-31", "size": 15}


@pytest.mark.parametrize("text", [".inf", "-.Inf", ".nan"])
def test_infinity_and_nan_name_the_data_file(tmp_path: Path, text: str) -> None:
    (tmp_path / "d.yaml").write_text(f"a: 1\nb: {text}\n")
    with pytest.raises(SourceError, match=r"d\.yaml: json: unsupported value: [-+]?(Inf|NaN)"):
        load_sources([tmp_path])
    with pytest.raises(SourceError, match=r"d\.yaml: json: unsupported value"):
        read_input(tmp_path / "d.yaml")


def test_infinity_as_a_key_is_a_string_as_in_opa() -> None:
    assert load_yaml_document(".inf: 1\n") == {".inf": 1}


def test_an_application_tag_is_refused_with_its_line() -> None:
    with pytest.raises(LoaderError, match=r"YAML tag !foo is not supported") as caught:
        load_yaml_document("a: 1\nb: !foo x\n")
    assert caught.value.line == 2


def test_standard_tags_convert_as_opa_converts_them() -> None:
    doc = "a: !!binary aGVsbG8=\nb: !!str 017\nc: !!timestamp 2001-01-01\nd: ! 12\n"
    assert load_yaml_document(doc) == {
        "a": "hello",
        "b": "017",
        "c": "2001-01-01T00:00:00Z",
        "d": 12,  # a non-specific tag on a plain scalar resolves it, as in opa
    }


def test_the_first_document_of_a_stream_is_read_and_the_rest_must_parse() -> None:
    assert load_yaml_document("a: 1\n---\nb: 2\n") == {"a": 1}
    with pytest.raises(Exception, match="mapping values are not allowed"):
        load_yaml_document("a: 1\n---\nb: c: d\n")


def test_merge_keys_and_aliases_are_resolved() -> None:
    assert load_yaml_document("a: &x {p: 1}\nb:\n  <<: *x\n  q: 2\n") == {
        "a": {"p": 1},
        "b": {"p": 1, "q": 2},
    }
