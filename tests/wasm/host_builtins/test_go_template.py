"""Tests for strings.render_template: Go text/template semantics, compared with opa."""

from __future__ import annotations

from typing import Any

import pytest
from oracle import host_call, needs_opa

from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.go_template import TemplateError, parse_template

render = REGISTRY["strings.render_template"]

CASES: list[tuple[str, dict[str, Any]]] = [
    ("{{.test}}", {"test": "hello world"}),
    ("{{.test}}", {"test": 2023}),
    (
        "{{range $i, $name := .hellonames}}{{if $i}},{{end}}hello {{$name}}{{end}}",
        {"hellonames": ["rohan", "john doe"]},
    ),
    ("{{.testvarnotprovided}}", {"test": 1}),
    ("test {{.foo}} {{.bar}} {{.baz}}", {"baz": 1}),
    (
        "{{.a}}|{{.b}}|{{.c}}|{{.d}}|{{.e}}",
        {
            "a": None,
            "b": [1, "x", None, {"k": True}],
            "c": {"z": 1, "a": [2.5]},
            "d": 1.5,
            "e": False,
        },
    ),
    ('{{printf "%s=%v %d %05.2f %q %T" .name .n .n 3.14159 .name .n}}', {"name": "x", "n": 3}),
    ('{{.name | printf "%q" | len}} {{.name | printf "<%s>"}}', {"name": "abc"}),
    (
        (
            "{{with .user}}{{.name}} is {{.age}}{{else}}nobody{{end}}"
            "|{{with .none}}x{{else}}none{{end}}"
        ),
        {"user": {"name": "ann", "age": 30}},
    ),
    (
        (
            "{{range $k, $v := .m}}{{$k}}={{$v}};{{else}}empty{{end}}|{{range .e}}"
            "x{{else}}empty{{end}}"
        ),
        {"m": {"b": 2, "a": 1, "c": [1]}, "e": []},
    ),
    ("{{- range .xs }}\n  {{ . -}}\n{{ end }}", {"xs": [1, 2, 3]}),
    (
        (
            '{{if eq .a "x"}}A{{else if eq .a "y"}}B{{else}}C{{end}}'
            "{{if and .t .f}}1{{end}}{{if or .f .t}}2{{end}}{{if not .f}}3{{end}}"
        ),
        {"a": "y", "t": True, "f": False},
    ),
    (
        (
            '{{index .xs 1}} {{index .m "k"}} {{index .m "zz"}} {{len .xs}}'
            " {{len .m}} {{slice .s 1 3}}"
        ),
        {"xs": ["a", "b"], "m": {"k": "v"}, "s": "hello"},
    ),
    (
        (
            '{{define "T"}}[{{.}}]{{end}}{{template "T" .a}}{{template "T" "lit"}}'
            '{{block "B" .b}}<{{.}}>{{end}}'
        ),
        {"a": "A", "b": "B"},
    ),
    ("{{$x := 1}}{{$x}}{{$x = 2}}{{$x}}{{range .xs}}{{$x = .}}{{end}}{{$x}}", {"xs": ["p", "q"]}),
    (
        (
            "{{range $i, $e := .xs}}{{if eq $i 1}}{{continue}}{{end}}{{if eq $i 3}}"
            "{{break}}{{end}}{{$e}}{{end}}"
        ),
        {"xs": ["a", "b", "c", "d", "e"]},
    ),
    (
        '{{html .h}} {{js .h}} {{urlquery .h}} {{print 1 2 "a" 3 .n}} {{println "a" 1}}',
        {"h": "<a href='x'>&\"é ?=</a>", "n": 5},
    ),
    (
        '{{printf "%d" .n}} {{printf "%v %s" .xs .m}} {{printf "%d" 7}} {{printf "%v" nil}}',
        {"n": 5, "xs": [1, "a"], "m": {"k": 1}},
    ),
    ("{{/* comment */}}a {{- /* trimmed */ -}} b", {}),
    ('{{lt 1 2}} {{le 2 2}} {{gt "b" "a"}} {{ge .n .n}} {{ne 1 2}} {{eq 1 1 2}}', {"n": 4}),
    ("{{.a.b.c}}", {"a": {"b": {"c": "deep"}}}),
    ("{{range 3}}{{.}}{{end}}", {}),
    ("{{.x.y}}", {"x": "str"}),
    ("{{if}}", {}),
    ("{{eq .n 1}}", {"n": 1}),
    ("{{.missing.y}}", {}),
    ('{{(index .xs 0).name}} {{(printf "%s-%s" "a" "b")}}', {"xs": [{"name": "n0"}]}),
    ("{{\"a\\tb\\u00e9\"}} {{`raw`}} {{1.5}} {{1e3}} {{0x1F}} {{-3}} {{'a'}} {{true}}", {}),
    ("{{.n}} {{.big}} {{.f}}", {"n": 1.0, "big": 12345678901234567890, "f": 0.000001}),
    (
        "{{range $i, $x := .xs}}{{range $j, $y := $.ys}}{{$i}}{{$y}} {{end}}{{end}}",
        {"xs": [1, 2], "ys": ["a", "b"]},
    ),
    (
        "{{with $u := .u}}{{$u.name}}{{end}} {{with .a}}A{{else with .b}}B{{end}}",
        {"u": {"name": "n"}, "b": 1},
    ),
    (
        '{{printf "%-6s|%6.1f|%x|%t|%v" .s 2.25 255 .t .m}}',
        {"s": "ab", "t": True, "m": {"a": [1, None]}},
    ),
    ('{{.xs | len | printf "%d items"}} {{"x" | printf "%s%s" "y"}}', {"xs": [1, 2, 3]}),
    ("{{range $k, $v := .}}{{$k}}:{{range $v}}{{.}},{{end}};{{end}}", {"b": [1], "a": ["x", "y"]}),
    (
        "{{if .s}}s{{end}}{{if .z}}z{{end}}{{if .e}}e{{end}}{{if .o}}o{{end}}{{if .l}}l{{end}}",
        {"s": "", "z": 0, "e": [], "o": {}, "l": [0]},
    ),
    ("{{.a}", {}),
    ("{{range .x}}{{end}}", {"x": "str"}),
    ('{{template "missing"}}', {}),
    ("{{nosuchfunc 1}}", {}),
    ("{{index .xs 5}}", {"xs": [1]}),
    ("{{lt true false}}", {}),
    ("{{len 3}}", {}),
]


@needs_opa
@pytest.mark.parametrize(("template", "variables"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_against_opa(template: str, variables: dict[str, Any]) -> None:
    from oracle import opa_call

    assert host_call("strings.render_template", template, variables) == opa_call(
        "strings.render_template", template, variables
    )


def test_missing_keys_render_as_undefined() -> None:
    assert render('a{{.x}}b{{index .m "k"}}', {"m": {}}) == "a<undefined>b<undefined>"


def test_numbers_are_json_numbers() -> None:
    assert render('{{.n}} {{printf "%d %s" .n .n}}', {"n": 7}) == ("7 %!d(json.Number=7) 7")


def test_range_with_else_break_and_continue() -> None:
    tmpl = '{{range $i, $x := .xs}}{{if eq $x "b"}}{{continue}}{{end}}'
    tmpl += '{{if eq $x "d"}}{{break}}{{end}}{{$i}}{{$x}}{{else}}none{{end}}'
    assert render(tmpl, {"xs": ["a", "b", "c", "d", "e"]}) == "0a2c"
    assert render(tmpl, {"xs": []}) == "none"


def test_trim_markers_and_comments() -> None:
    assert render("a  {{- /* c */ -}}  b {{- 1 }} c", {}) == "ab1 c"


@pytest.mark.parametrize(
    "source",
    ["{{.a}", "{{if .a}}x", "{{end}}", "{{$x}}", "{{nosuch}}", "{{break}}", "{{/* x }}"],
)
def test_parse_errors(source: str) -> None:
    with pytest.raises(TemplateError):
        parse_template(source)
    with pytest.raises(BuiltinError, match=r"^template: "):
        render(source, {})


@pytest.mark.parametrize(
    ("source", "variables", "message"),
    [
        ("{{.x.y}}", {"x": "s"}, "can't evaluate field y in type string"),
        ("{{.x.y}}", {"x": None}, "nil pointer evaluating interface {}.y"),
        ("{{eq .n 1}}", {"n": 1}, "incompatible types for comparison"),
        ("{{range .s}}{{end}}", {"s": "x"}, "range can't iterate over x"),
        ("{{len 1}}", {}, "len of type int"),
        ("{{index .xs 3}}", {"xs": []}, "index out of range: 3"),
        ('{{template "t"}}', {}, 'no such template "t"'),
    ],
)
def test_execution_errors(source: str, variables: dict[str, Any], message: str) -> None:
    with pytest.raises(BuiltinError, match=message.replace("{", r"\{").replace("}", r"\}")):
        render(source, variables)


def test_operand_types() -> None:
    with pytest.raises(BuiltinError, match="operand 1 must be string"):
        render(1, {})
    with pytest.raises(BuiltinError, match="operand 2 must be object"):
        render("x", [])
