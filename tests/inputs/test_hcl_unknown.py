"""Values known only after apply: how they propagate through the HCL evaluator,
and how a count or for_each that depends on one keeps its resource."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    evaluate,
    evaluate_or_null,
    materialize,
    parse_expression,
)
from engine.inputs.loaders.hcl_unknown import (
    Unknown,
    contains_unknown,
    first_unknown,
    known_or_null,
)
from engine.inputs.loaders.terraform_hcl import load_module

LATER = Unknown("data.aws_vpc.main.id")
VARIABLES = {"later": LATER, "list": ["a", "b"], "mixed": ["a", LATER], "flag": True}


def _resolve(name: str) -> Any:
    if name == "var":
        return VARIABLES
    raise EvaluationError(f"unknown {name}")


CONTEXT = Context(resolve=_resolve)


def value(source: str) -> Any:
    return materialize(evaluate(parse_expression(source), CONTEXT), CONTEXT)


@pytest.mark.parametrize(
    "source",
    [
        "var.later + 1",
        "-var.later",
        "!var.later",
        'var.later == "x"',
        "var.later > 3",
        "true && var.later",
        "var.later || false",
        'var.later ? "a" : "b"',
        "var.later.attribute",
        "var.later[0]",
        "var.list[var.later]",
        "var.later[*].id",
        '"prefix-${var.later}"',
        '"%{ if var.later }yes%{ endif }"',
        '"%{ for x in var.later }${x}%{ endfor }"',
        "upper(var.later)",
        'join(",", var.mixed)',
        "[for x in var.later : x]",
        "{for x in var.list : x => x if var.later}",
        "{(var.later) = 1}",
        'try(var.later, "fallback")',
        "can(var.later)",
        "length(var.later)",
    ],
)
def test_unknown_propagates(source: str) -> None:
    assert value(source) == LATER


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("false && var.later", False),
        ("var.later && false", False),
        ("true || var.later", True),
        ("var.later || true", True),
        ('var.flag ? "a" : var.later', "a"),
        ("[1, var.later]", [1, LATER]),
        ("{a = var.later, b = 2}", {"a": LATER, "b": 2}),
        ("length(var.mixed)", 2),
        ('concat(var.mixed, ["c"])', ["a", LATER, "c"]),
        ("merge({a = var.later}, {b = 1})", {"a": LATER, "b": 1}),
    ],
)
def test_known_parts_stay_known(source: str, expected: Any) -> None:
    assert value(source) == expected


def test_a_state_holds_unknown_values_as_null() -> None:
    assert evaluate_or_null(parse_expression("[1, var.later, {a = var.later}]"), CONTEXT) == [
        1,
        None,
        {"a": None},
    ]
    assert known_or_null({"a": [LATER]}) == {"a": [None]}
    assert contains_unknown({"a": [1, LATER]}) and not contains_unknown({"a": [1]})
    assert first_unknown([1, {"b": LATER}]) == LATER and first_unknown([1]) is None


def test_a_bug_in_a_function_is_not_a_missing_value() -> None:
    def broken(_: Any) -> Any:
        raise RuntimeError("evaluator bug")

    context = Context(resolve=_resolve, functions={"broken": broken})
    with pytest.raises(RuntimeError, match="evaluator bug"):
        evaluate_or_null(parse_expression('broken("x")'), context)


def test_a_function_given_the_wrong_arguments_has_no_value() -> None:
    assert evaluate_or_null(parse_expression('upper("a", "b")'), CONTEXT) is None
    assert evaluate_or_null(parse_expression("1 / 0"), CONTEXT) is None


def _load(tmp_path: Path, text: str) -> dict[str, Any]:
    (tmp_path / "main.tf").write_text(text)
    return load_module(tmp_path, "root").document["resources"]


@pytest.mark.parametrize(
    "count",
    [
        'data.aws_ssm_parameter.flag.value == "yes" ? 1 : 0',
        "length(data.aws_availability_zones.zones.names)",
        "data.aws_ssm_parameter.flag.value ? 1 : 0",
    ],
)
def test_a_count_known_only_after_apply_keeps_one_marked_instance(
    tmp_path: Path, count: str
) -> None:
    resources = _load(
        tmp_path,
        'data "aws_ssm_parameter" "flag" { name = "flag" }\n'
        'data "aws_availability_zones" "zones" {}\n'
        f'resource "aws_s3_bucket" "b" {{\n  count = {count}\n  acl = "public-read"\n}}\n',
    )
    buckets = resources["aws_s3_bucket"]
    assert list(buckets) == ["aws_s3_bucket.b[0]"]
    assert buckets["aws_s3_bucket.b[0]"]["meta"]["unknown_instances"] == "count"
    assert buckets["aws_s3_bucket.b[0]"]["attributes"]["acl"] == "public-read"


def test_a_for_each_known_only_after_apply_keeps_one_marked_instance(tmp_path: Path) -> None:
    resources = _load(
        tmp_path,
        'data "aws_subnets" "all" {}\n'
        'resource "aws_instance" "i" {\n'
        "  for_each  = toset(data.aws_subnets.all.ids)\n"
        "  subnet_id = each.value\n"
        '  name      = "i-${each.key}"\n'
        '  ami       = "ami-1"\n'
        "}\n",
    )
    instance = resources["aws_instance"]["aws_instance.i"]
    assert instance["meta"]["unknown_instances"] == "for_each"
    assert instance["attributes"]["ami"] == "ami-1"
    assert instance["attributes"]["subnet_id"] is None
    assert instance["attributes"]["name"] is None


def test_a_known_count_is_not_marked(tmp_path: Path) -> None:
    resources = _load(tmp_path, 'resource "aws_s3_bucket" "b" {\n  count = 2\n}\n')
    assert sorted(resources["aws_s3_bucket"]) == ["aws_s3_bucket.b[0]", "aws_s3_bucket.b[1]"]
    assert all("unknown_instances" not in r["meta"] for r in resources["aws_s3_bucket"].values())


def test_an_evaluator_bug_is_an_internal_error_naming_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.inputs.loaders import hcl_functions

    def broken(_: Any) -> Any:
        raise RuntimeError("evaluator bug")

    monkeypatch.setitem(hcl_functions.FUNCTIONS, "upper", broken)  # type: ignore[index]
    (tmp_path / "main.tf").write_text(
        'resource "aws_s3_bucket" "a" {\n  bucket = upper("x")\n  acl = "private"\n}\n'
        'resource "aws_s3_bucket" "b" {\n  bucket = "kept"\n}\n'
    )
    loaded = load_module(tmp_path, "root")
    buckets = loaded.document["resources"]["aws_s3_bucket"]
    assert buckets["aws_s3_bucket.a"]["attributes"] == {"bucket": None, "acl": "private"}
    assert buckets["aws_s3_bucket.b"]["attributes"] == {"bucket": "kept"}
    [error] = loaded.errors
    assert error.message.startswith("root/main.tf:2: aws_s3_bucket.a.bucket: internal error: ")
    assert "RuntimeError: evaluator bug" in error.message and error.line == 2
