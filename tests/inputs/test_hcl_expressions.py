"""The HCL expression evaluator and Terraform's built-in functions."""

from __future__ import annotations

from typing import Any

import pytest

from engine.inputs.loaders.hcl_expressions import (
    Context,
    EvaluationError,
    JsonExpression,
    ResourceAddress,
    ResourceHandle,
    evaluate,
    evaluate_or_null,
    parse_expression,
)

VARIABLES = {
    "env": "prod",
    "list": [3, 1, 2],
    "names": ["b", "a", "b"],
    "map": {"a": "x", "b": "y"},
    "flag": True,
    "objects": [{"name": "n1", "port": 80}, {"name": "n2", "port": 443}],
    "nothing": None,
}


def _resolve(name: str) -> Any:
    if name == "var":
        return VARIABLES
    raise EvaluationError(f"unknown {name}")


CONTEXT = Context(resolve=_resolve)


def value(source: str) -> Any:
    return evaluate_or_null(parse_expression(source), CONTEXT)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # literals and collections
        ("42", 42),
        ("1.5", 1.5),
        ("-3", -3),
        ("null", None),
        ('[1, "a", true]', [1, "a", True]),
        ('{a = 1, "b-c" = 2, (var.env) = 3}', {"a": 1, "b-c": 2, "prod": 3}),
        # operators
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 / 4", 2.5),
        ("10 / 5", 2),
        ("7 % 3", 1),
        ('"5" + 1', 6),
        ("!true || 1 + 2 * 3 >= 7", True),
        ("false && var.missing", False),
        ("1 == 1.0", True),
        ('1 == "1"', False),
        ("[1, 2] == [1, 2]", True),
        ('var.env != "dev"', True),
        ("3 < 2", False),
        ("-var.list[0]", -3),
        # conditionals
        ('var.flag ? "on" : "off"', "on"),
        ('var.env == "dev" ? 1 : 2', 2),
        ('"true" ? "yes" : "no"', "yes"),
        # index and attribute access
        ("var.map.a", "x"),
        ('var.map["b"]', "y"),
        ("var.list[1]", 1),
        ("var.list.2", 2),
        ("var.objects[1].port", 443),
        # splat
        ("var.objects[*].name", ["n1", "n2"]),
        ("var.objects.*.port", [80, 443]),
        ("var.objects.*.name[0]", "n1"),
        ("var.nothing[*]", []),
        ('"single"[*]', ["single"]),
        # for expressions
        ("[for x in var.list : x * 2]", [6, 2, 4]),
        ("[for i, x in var.list : i if x > 1]", [0, 2]),
        ("{for k, v in var.map : v => k}", {"x": "a", "y": "b"}),
        ("{for o in var.objects : o.name => o.port}", {"n1": 80, "n2": 443}),
        ("{for n in var.names : n => n...}", {"a": ["a"], "b": ["b", "b"]}),
        # templates
        ('"${var.env}-app"', "prod-app"),
        ('"${var.list}"', [3, 1, 2]),
        ('"n=${1.5} b=${true}"', "n=1.5 b=true"),
        ('"%{ if var.flag }on%{ else }off%{ endif }"', "on"),
        ('"%{ for n in var.names }${n};%{ endfor }"', "b;a;b;"),
        ('"%{ for n in var.names ~} ${n} %{~ endfor }"', "bab"),
        ('"a\\tb\\n\\"q\\" \\u00e9 $${literal} %%{literal}"', 'a\tb\n"q" é ${literal} %{literal}'),
        ("<<EOT\nline ${var.env}\nEOT\n", "line prod\n"),
        ("<<-EOT\n    a\n      b ${var.env}\n    EOT\n", "a\n  b prod\n"),
        # try and can
        ('try(var.missing, var.map.zzz, "fallback")', "fallback"),
        ("can(var.map.a)", True),
        ("can(var.map.zzz)", False),
        ("try(flatten([var.map.zzz]), [])", []),
        ('try({a = var.map.zzz}, "fallback")', "fallback"),
        ("can([1, var.missing])", False),
        ("[var.map.a, var.map.zzz]", ["x", None]),
        ('sensitive("s")', "s"),
        ("nonsensitive(var.list)", [3, 1, 2]),
        # argument expansion
        ("max(var.list...)", 3),
    ],
)
def test_expressions(source: str, expected: Any) -> None:
    assert value(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('concat(["a"], ["b", "c"])', ["a", "b", "c"]),
        ("merge({a = 1, b = 1}, {b = 2})", {"a": 1, "b": 2}),
        ('lookup({a = 1}, "a", 0)', 1),
        ('lookup({a = 1}, "z", 0)', 0),
        ("element([1, 2, 3], 4)", 2),
        ('length("héllo")', 5),
        ("length({a = 1})", 1),
        ("keys({b = 1, a = 2})", ["a", "b"]),
        ("values({b = 1, a = 2})", [2, 1]),
        ('join("-", ["a", "b"], ["c"])', "a-b-c"),
        ('split(",", "a,b,,c")', ["a", "b", "", "c"]),
        (
            'format("%s:%d %5.2f %-4s| %q %v %%", "h", 8, 3.14159, "x", "q", true)',
            'h:8  3.14 x   | "q" true %',
        ),
        ('formatlist("%s=%s", ["a", "b"], "v")', ["a=v", "b=v"]),
        ('lower("AbC")', "abc"),
        ('upper("abc")', "ABC"),
        ('replace("a.b.c", ".", "/")', "a/b/c"),
        ('replace("abc123", "/[0-9]+/", "#")', "abc#"),
        ('substr("hello", 1, 3)', "ell"),
        ('substr("hello", -3, -1)', "llo"),
        ('trimspace("  x \\n")', "x"),
        ('coalesce(null, "", "b")', "b"),
        ("coalescelist([], [1])", [1]),
        ('compact(["a", "", null, "b"])', ["a", "b"]),
        ("distinct([1, 2, 1, 3])", [1, 2, 3]),
        ("flatten([[1, [2]], 3])", [1, 2, 3]),
        ('contains(["a", "b"], "b")', True),
        ('contains([1], "1")', False),
        ('toset(["b", "a", "b"])', ["a", "b"]),
        ("tolist([1])", [1]),
        ("tomap({a = 1})", {"a": 1}),
        ("tostring(5)", "5"),
        ('tonumber("5.5")', 5.5),
        ('tobool("true")', True),
        ('jsonencode({a = [1, "x", null, true]})', '{"a":[1,"x",null,true]}'),
        ('jsondecode("{\\"a\\": [1, 2]}")', {"a": [1, 2]}),
        ("min(3, 1, 2)", 1),
        ("max(3, 1.5)", 3),
        ("abs(-4)", 4),
        ("ceil(1.2)", 2),
        ("floor(1.8)", 1),
        ("range(3)", [0, 1, 2]),
        ("range(1, 10, 4)", [1, 5, 9]),
        ('zipmap(["a", "b"], [1, 2])', {"a": 1, "b": 2}),
        ('cidrsubnet("10.0.0.0/16", 8, 2)', "10.0.2.0/24"),
        ('cidrsubnet("10.1.0.0/20", 4, 15)', "10.1.15.0/24"),
        ('base64encode("hello")', "aGVsbG8="),
        ('file("x.txt")', None),
        ('templatefile("t.tpl", {})', None),
        ('startswith("arn:aws", "arn:")', True),
        ('endswith("a.json", ".yaml")', False),
        ('regex("[a-z]+", "123abc456")', "abc"),
        ('regex("(\\\\d+)-(\\\\d+)", "10-20")', ["10", "20"]),
        ('regex("[", "x")', None),
        ("slice([1, 2, 3, 4], 1, 3)", [2, 3]),
        ('sort(["b", "c", "a"])', ["a", "b", "c"]),
        ("reverse([1, 2, 3])", [3, 2, 1]),
        ('setunion(["b"], ["a", "b"])', ["a", "b"]),
        ("one([])", None),
        ("one([7])", 7),
        ("sum([1, 2.5])", 3.5),
    ],
)
def test_functions(source: str, expected: Any) -> None:
    assert value(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "var.undeclared_root_is_fine_but_this_attribute_is_not.x",
        "unknown_name",
        "not_a_function(1)",
        'provider::aws::arn_parse("arn")',
        '1 + "abc"',
        '"prefix-${null}"',
        '"prefix-${var.map}"',
        "var.list[10]",
        "var.map.zzz",
        "element([], 0)",
        "one([1, 2])",
        '{for n in ["a", "a"] : n => n}',
        'cidrsubnet("10.0.0.0/24", 16, 1)',
        "var.flag ? var.missing : 1",
        "[for x in 5 : x]",
        '"%{ if true }unterminated"',
        'jsondecode("{")',
        "range(0, 1e9)",
    ],
)
def test_unevaluable_is_null(source: str) -> None:
    assert value(source) is None
    with pytest.raises(EvaluationError):
        evaluate(parse_expression(source), CONTEXT)


def test_unknown_elements_stay_local() -> None:
    assert value("[var.missing, 1]") == [None, 1]
    assert value("{a = var.missing, b = 2}") == {"a": None, "b": 2}


def test_json_syntax_strings_are_templates() -> None:
    expression = JsonExpression(
        {"name": "${var.env}-x", "list": "${var.list}", "plain": "a $ b", "n": 5, "bad": "${nope}"}
    )
    assert evaluate_or_null(expression, CONTEXT) == {
        "name": "prod-x",
        "list": [3, 1, 2],
        "plain": "a $ b",
        "n": 5,
        "bad": None,
    }
    assert evaluate_or_null(JsonExpression('${lookup(var.map, "a")}'), CONTEXT) == "x"
    assert evaluate_or_null(JsonExpression("%{ if var.flag }y%{ endif }"), CONTEXT) == "y"


class _Bucket(ResourceHandle):
    resource_type = "aws_s3_bucket"
    key = "aws_s3_bucket.b"

    def attribute(self, name: str) -> Any:
        return "my-bucket" if name == "bucket" else self.key

    def materialize(self) -> Any:
        return self.key


def test_resource_references_are_reported() -> None:
    seen: list[tuple[str, str | None]] = []
    context = Context(
        resolve=lambda name: {"b": _Bucket()} if name == "aws_s3_bucket" else _resolve(name),
        on_reference=lambda handle, attribute: seen.append((handle.key, attribute)),
    )
    source = '"${aws_s3_bucket.b.arn}/*:${aws_s3_bucket.b.bucket}"'
    assert evaluate_or_null(parse_expression(source), context) == "aws_s3_bucket.b/*:my-bucket"
    assert seen == [("aws_s3_bucket.b", "arn"), ("aws_s3_bucket.b", "bucket")]
    assert evaluate_or_null(parse_expression("[aws_s3_bucket.b]"), context) == ["aws_s3_bucket.b"]
    assert seen[-1] == ("aws_s3_bucket.b", None)


class _RemoteState(ResourceHandle):
    resource_type = "data.terraform_remote_state"
    key = "data.terraform_remote_state.api"

    def attribute(self, name: str) -> Any:
        return ResourceAddress.of(self, name)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("data.api.outputs.url", "data.terraform_remote_state.api"),
        ('data.api.outputs["url"].host', "data.terraform_remote_state.api"),
        ('"API=${data.api.outputs.url}"', "API=data.terraform_remote_state.api"),
        ("data.api.outputs[0]", None),
    ],
)
def test_below_an_unwritten_attribute_is_the_address(source: str, expected: Any) -> None:
    context = Context(
        resolve=lambda name: {"api": _RemoteState()} if name == "data" else _resolve(name)
    )
    assert evaluate_or_null(parse_expression(source), context) == expected


def test_parse_expression_rejects_garbage() -> None:
    with pytest.raises(EvaluationError):
        parse_expression("1 +")
