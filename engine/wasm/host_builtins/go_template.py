"""``strings.render_template``: Go's ``text/template`` over a Rego object.

OPA decodes the variables object to Go's ``map[string]interface{}`` with
numbers as ``json.Number`` (a Go string type: it prints as its text, ``%d``
rejects it, ``eq`` compares it as a string, any non-empty one is true), parses
the template, executes it with the object as dot, and replaces every
``<no value>`` in the output with ``<undefined>``.

This module holds the template lexer, parser and executor: text, comments and
trim markers; pipelines with ``|``, parentheses, variables (``$x := ...``,
``$x = ...``), fields and chained fields; ``if``/``else if``/``else``,
``range`` (slices, maps in key order, integers, ``break``, ``continue``),
``with``/``else with``, ``define``/``template``/``block``; and the predefined
functions ``and or not len index slice print printf println html js urlquery
eq ne lt le gt ge call``. Failures are builtin errors with Go's message text
where it is known.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from engine.wasm.host_builtins.fmt import GoArg, go_sprintf
from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set, dumps, type_name

NAME = "strings.render_template"
MAX_DEPTH = 100_000
"""Go's ``maxExecDepth``: how deeply templates may call templates."""


class TemplateError(Exception):
    """A template failed to parse or execute."""


def _error(line: int, message: str) -> TemplateError:
    """Go's error text: ``template: <name>:<line>: <message>``."""
    return TemplateError(f"template: template:{line}: {message}")


# ---------------------------------------------------------------- Go values


@dataclass(frozen=True)
class Number:
    """A ``json.Number``: the text of a Rego number."""

    text: str


class _Missing:
    """Go's invalid ``reflect.Value``: a map's missing key; prints ``<no value>``."""

    def __repr__(self) -> str:
        return "<no value>"


MISSING = _Missing()


def to_go(value: Any) -> Any:
    """A Rego value as OPA hands it to the template (``ast.As`` into ``any``)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float | Decimal):
        return Number(dumps(value).decode())
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise BuiltinError(f"{NAME}: object keys must be strings")
            out[key] = to_go(item)
        return out
    if isinstance(value, list | Set):
        return [to_go(item) for item in value]
    raise BuiltinError(f"{NAME}: cannot convert {type_name(value)}")


def go_type(value: Any) -> str:
    """The Go type name of a template value."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, Number):
        return "json.Number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, list):
        return "[]interface {}"
    if isinstance(value, dict):
        return "map[string]interface {}"
    return "invalid"


def go_arg(value: Any) -> GoArg:
    """A template value as a ``fmt`` operand."""
    if value is None or value is MISSING:
        return GoArg("<nil>", None)
    if isinstance(value, bool):
        return GoArg("bool", value)
    if isinstance(value, Number):
        return GoArg("json.Number", value.text)
    if isinstance(value, str):
        return GoArg("string", value)
    if isinstance(value, int):
        return GoArg("int", value)
    if isinstance(value, float):
        return GoArg("float64", value)
    if isinstance(value, list):
        return GoArg("[]interface {}", [None if v is None else go_arg(v) for v in value])
    return GoArg(
        "map[string]interface {}",
        {k: None if v is None else go_arg(v) for k, v in value.items()},
    )


def go_print(*values: Any) -> str:
    """Go's ``fmt.Sprint``: a space between operands when neither is a string."""
    out: list[str] = []
    prev_string = False
    for i, value in enumerate(values):
        is_string = isinstance(value, str | Number) and not isinstance(value, bool)
        if i > 0 and not is_string and not prev_string:
            out.append(" ")
        out.append(go_sprintf("%v", [go_arg(value)]))
        prev_string = is_string
    return "".join(out)


def _is_true(value: Any) -> bool:
    """text/template's truth: non-zero, non-empty, non-nil."""
    if value is MISSING or value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, Number):
        return value.text != ""
    if isinstance(value, str | list | dict):
        return len(value) > 0
    return value != 0


# ---------------------------------------------------------------- lexer

_SPACE = " \t\r\n"
_TOKEN = re.compile(
    r"""
    (?P<space>[ \t\r\n]+)
  | (?P<declare>:=)
  | (?P<assign>=)
  | (?P<pipe>\|)
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<comma>,)
  | (?P<raw>`[^`]*`)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)+')
  | (?P<variable>\$[A-Za-z0-9_]*)
  | (?P<field>(?:\.[A-Za-z_][A-Za-z0-9_]*)+)
  | (?P<number>[+-]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+
        |(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]+)?))
  | (?P<dot>\.)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    """,
    re.VERBOSE,
)


@dataclass
class Token:
    """One lexeme of an action."""

    kind: str
    text: str
    line: int
    spaced: bool = False
    """Whether white space precedes the token."""


@dataclass
class Action:
    """The tokens between one pair of delimiters."""

    tokens: list[Token]
    line: int


def _lex(source: str) -> list[str | Action]:
    """Split a template into text pieces and actions, applying trim markers."""
    items: list[str | Action] = []
    pos = 0
    trim_next = False
    while True:
        start = source.find("{{", pos)
        text = source[pos:] if start < 0 else source[pos:start]
        if trim_next:
            text = text.lstrip(_SPACE)
        if start < 0:
            if text:
                items.append(text)
            return items
        inner = start + 2
        if source.startswith("-", inner) and source[inner + 1 : inner + 2] in tuple(_SPACE):
            text = text.rstrip(_SPACE)
            inner += 2
        if text:
            items.append(text)
        line = source.count("\n", 0, inner) + 1
        close = _action_end(source, inner, line)
        body = source[inner:close]
        trim_next = False
        end = close + 2
        if body.endswith("-") and len(body) >= 2 and body[-2] in _SPACE:
            body = body[:-2]
            trim_next = True
        stripped = body.strip(_SPACE)
        if stripped.startswith("/*"):
            if not stripped.endswith("*/"):
                raise _error(line, "unclosed comment")
        else:
            items.append(Action(_tokens(body, line), line))
        pos = end


def _action_end(source: str, pos: int, line: int) -> int:
    """The index of the ``}}`` closing the action that starts at ``pos``."""
    i = pos
    while i < len(source):
        c = source[i]
        if source.startswith("}}", i):
            return i
        if source.startswith("/*", i):
            j = source.find("*/", i + 2)
            if j < 0:
                raise _error(line, "unclosed comment")
            i = j + 2
            continue
        if c in "\"'`":
            j = i + 1
            while j < len(source) and source[j] != c:
                if c != "`" and source[j] == "\\":
                    j += 1
                j += 1
            i = j + 1
            continue
        i += 1
    raise _error(line, "unclosed action")


def _tokens(body: str, line: int) -> list[Token]:
    out: list[Token] = []
    pos = 0
    spaced = True
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if m is None:
            raise _error(line, f"unexpected {body[pos]!r} in command")
        kind = m.lastgroup or ""
        text = m.group()
        if kind != "space":
            out.append(Token(kind, text, line, spaced))
        spaced = kind == "space"
        line += text.count("\n")
        pos = m.end()
    return out


# ---------------------------------------------------------------- parse tree


@dataclass
class Node:
    """An operand of a command."""

    kind: str
    value: Any = None
    fields: tuple[str, ...] = ()


@dataclass
class Pipe:
    """``$a, $b := cmd | cmd ...``."""

    decl: list[str]
    is_assign: bool
    cmds: list[list[Node]]
    line: int


@dataclass
class Block:
    """An ``if``, ``range`` or ``with`` action and its branches."""

    kind: str
    pipe: Pipe
    body: list[Any]
    else_body: list[Any] | None


@dataclass
class Call:
    """``{{template "name" pipeline}}``."""

    name: str
    pipe: Pipe | None


@dataclass
class Template:
    """A parsed template set."""

    root: list[Any]
    defined: dict[str, list[Any]] = field(default_factory=dict)


_STRING_ESCAPES = {
    "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
    "\\": "\\", "'": "'", '"': '"',
}  # fmt: skip


def _unquote(text: str, line: int) -> str:
    """Go's ``strconv.Unquote`` of a double-quoted or single-quoted literal."""
    body = text[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e in _STRING_ESCAPES:
            out.append(_STRING_ESCAPES[e])
            i += 2
        elif e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            digits = body[i + 2 : i + 2 + width]
            if len(digits) != width or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                raise _error(line, f"invalid syntax: {text}")
            out.append(chr(int(digits, 16)))
            i += 2 + width
        elif e in "01234567":
            digits = body[i + 1 : i + 4]
            if not re.fullmatch(r"[0-7]{3}", digits):
                raise _error(line, f"invalid syntax: {text}")
            out.append(chr(int(digits, 8)))
            i += 4
        else:
            raise _error(line, f"invalid syntax: {text}")
    return "".join(out)


def _number(text: str, line: int) -> Node:
    """A number constant: an int, or a float64 when written with ``.`` or an exponent."""
    clean = text.replace("_", "")
    sign, digits = (clean[0], clean[1:]) if clean[0] in "+-" else ("", clean)
    try:
        if re.fullmatch(r"0[xXbBoO].*", digits):
            return Node("number", int(sign + digits, 0))
        if re.fullmatch(r"0[0-7]+", digits):
            return Node("number", int(sign + digits, 8))
        if re.fullmatch(r"[0-9]+", digits):
            return Node("number", int(sign + digits))
        return Node("number", float(clean))
    except ValueError:
        raise _error(line, f"bad number syntax: {text!r}") from None


class _Parser:
    """Builds the tree of a template from its lexed items."""

    def __init__(self, items: list[str | Action]) -> None:
        self.items = items
        self.pos = 0
        self.vars: list[list[str]] = [["$"]]
        self.defined: dict[str, list[Any]] = {}
        self.range_depth = 0

    def parse(self) -> Template:
        root, end = self.list_until(())
        if end is not None:
            raise _error(end.line, f"unexpected {{{{{end.tokens[0].text}}}}}")
        return Template(root, self.defined)

    def list_until(self, stops: tuple[str, ...]) -> tuple[list[Any], Action | None]:
        nodes: list[Any] = []
        while self.pos < len(self.items):
            item = self.items[self.pos]
            self.pos += 1
            if isinstance(item, str):
                nodes.append(item)
                continue
            if not item.tokens:
                raise _error(item.line, "missing value for command")
            word = item.tokens[0]
            if word.kind == "ident" and word.text in stops:
                return nodes, item
            if word.kind == "ident" and word.text in ("end", "else"):
                raise _error(item.line, f"unexpected {{{{{word.text}}}}}")
            nodes.extend(self.action(item))
        if stops:
            raise TemplateError("template: template: unexpected EOF")
        return nodes, None

    def action(self, item: Action) -> list[Any]:
        word = item.tokens[0]
        rest = item.tokens[1:]
        if word.kind == "ident":
            if word.text in ("if", "range", "with"):
                return [self.block(word.text, rest, item.line)]
            if word.text in ("break", "continue"):
                if self.range_depth == 0:
                    raise _error(item.line, f"{{{{{word.text}}}}} outside {{{{range}}}}")
                return [Node(word.text)]
            if word.text == "define":
                name = self.template_name(rest, item.line)
                if len(rest) != 1:
                    raise _error(item.line, f"unexpected {rest[1].text} in define clause")
                self.vars.append(["$"])
                body, _ = self.list_until(("end",))
                self.vars.pop()
                self.defined[name] = body
                return []
            if word.text in ("template", "block"):
                name = self.template_name(rest, item.line)
                pipe = self.pipe(rest[1:], item.line, word.text) if len(rest) > 1 else None
                if word.text == "block":
                    self.vars.append(["$"])
                    body, _ = self.list_until(("end",))
                    self.vars.pop()
                    self.defined[name] = body
                return [Call(name, pipe)]
        return [self.pipe(item.tokens, item.line, "command")]

    def template_name(self, tokens: list[Token], line: int) -> str:
        if not tokens or tokens[0].kind not in ("string", "raw"):
            raise _error(line, "unexpected name in template clause")
        text = tokens[0].text
        return text[1:-1] if tokens[0].kind == "raw" else _unquote(text, line)

    def block(self, kind: str, tokens: list[Token], line: int) -> Block:
        self.vars.append(list(self.vars[-1]))
        pipe = self.pipe(tokens, line, kind)
        if kind == "range":
            self.range_depth += 1
        body, end = self.list_until(("end", "else"))
        if kind == "range":
            self.range_depth -= 1
        else_body: list[Any] | None = None
        assert end is not None
        if end.tokens[0].text == "else":
            self.vars[-1] = list(self.vars[-2]) + [v for v in pipe.decl]
            chained = end.tokens[1:]
            if (
                chained
                and chained[0].kind == "ident"
                and chained[0].text in ("if", "with")
                and kind in ("if", "with")
                and chained[0].text == kind
            ):
                else_body = [self.block(kind, chained[1:], end.line)]
                self.vars.pop()
                return Block(kind, pipe, body, else_body)
            if chained:
                raise _error(end.line, f"unexpected {chained[0].text} in else")
            else_body, _ = self.list_until(("end",))
        self.vars.pop()
        return Block(kind, pipe, body, else_body)

    def pipe(self, tokens: list[Token], line: int, context: str) -> Pipe:
        decl: list[str] = []
        is_assign = False
        i = 0
        if tokens and tokens[0].kind == "variable":
            j = 0
            names = [tokens[0].text]
            if (
                context == "range"
                and len(tokens) > 2
                and tokens[1].kind == "comma"
                and tokens[2].kind == "variable"
            ):
                names.append(tokens[2].text)
                j = 2
            if len(tokens) > j + 1 and tokens[j + 1].kind in ("declare", "assign"):
                is_assign = tokens[j + 1].kind == "assign"
                decl = names
                i = j + 2
                for name in names:
                    if is_assign:
                        if not any(name in scope for scope in self.vars[-1:]):
                            raise TemplateError(
                                f'template: template:{line}: undefined variable "{name}"'
                            )
                    else:
                        self.vars[-1].append(name)
        cmds = self.commands(tokens[i:], line, context)
        return Pipe(decl, is_assign, cmds, line)

    def commands(self, tokens: list[Token], line: int, context: str) -> list[list[Node]]:
        cmds: list[list[Node]] = []
        current: list[Node] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.kind == "pipe":
                if not current:
                    raise _error(line, "missing command")
                cmds.append(current)
                current = []
                i += 1
                continue
            node, i = self.operand(tokens, i, line)
            current.append(node)
        if not current:
            raise _error(line, f"missing value for {context}")
        cmds.append(current)
        return cmds

    def operand(self, tokens: list[Token], i: int, line: int) -> tuple[Node, int]:
        tok = tokens[i]
        i += 1
        if tok.kind == "field":
            node = Node("field", None, tuple(tok.text[1:].split(".")))
        elif tok.kind == "variable":
            name = tok.text
            if not any(name in scope for scope in self.vars[-1:]):
                raise TemplateError(f'template: template:{line}: undefined variable "{name}"')
            node = Node("variable", name)
        elif tok.kind == "dot":
            node = Node("dot")
        elif tok.kind == "string":
            node = Node("string", _unquote(tok.text, line))
        elif tok.kind == "raw":
            node = Node("string", tok.text[1:-1])
        elif tok.kind == "char":
            text = _unquote(tok.text, line)
            if len(text) != 1:
                raise _error(line, f"malformed character constant: {tok.text}")
            node = Node("number", ord(text))
        elif tok.kind == "number":
            node = _number(tok.text, line)
        elif tok.kind == "ident":
            if tok.text in ("true", "false"):
                node = Node("bool", tok.text == "true")
            elif tok.text == "nil":
                node = Node("nil")
            elif tok.text in FUNCS:
                node = Node("func", tok.text)
            else:
                raise TemplateError(f'template: template:{line}: function "{tok.text}" not defined')
        elif tok.kind == "lparen":
            depth, j = 1, i
            while j < len(tokens) and depth:
                depth += {"lparen": 1, "rparen": -1}.get(tokens[j].kind, 0)
                j += 1
            if depth:
                raise _error(line, "unclosed left paren")
            node = Node("pipe", self.pipe(tokens[i : j - 1], line, "parenthesized pipeline"))
            i = j
        else:
            raise _error(line, f"unexpected {tok.text!r} in operand")
        while i < len(tokens) and tokens[i].kind == "field" and not tokens[i].spaced:
            if node.kind in ("string", "number", "bool", "nil", "func"):
                raise _error(line, f"unexpected {tokens[i].text} in operand")
            node = Node("chain", node, tuple(tokens[i].text[1:].split(".")))
            i += 1
        return node, i


def parse_template(source: str) -> Template:
    """Parse a template, raising :class:`TemplateError` with Go's message."""
    return _Parser(_lex(source)).parse()


# ---------------------------------------------------------------- execution


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


def _field(value: Any, name: str, line: int) -> Any:
    """Field ``name`` of a map (missing: :data:`MISSING`); an error on anything else."""
    if isinstance(value, dict):
        return value.get(name, MISSING)
    if value is MISSING:
        return MISSING
    where = f'executing "template" at <.{name}>'
    if value is None:
        raise _error(line, f"{where}: nil pointer evaluating interface {{}}.{name}")
    raise _error(line, f"{where}: can't evaluate field {name} in type {go_type(value)}")


def _basic(value: Any, line: int) -> tuple[str, Any]:
    """The comparison class of a value: (kind, comparable value)."""
    if isinstance(value, bool):
        return "bool", value
    if isinstance(value, Number):
        return "string", value.text
    if isinstance(value, str):
        return "string", value
    if isinstance(value, int):
        return "int", value
    if isinstance(value, float):
        return "float", value
    if value is None or value is MISSING:
        return "nil", None
    raise _error(line, "error calling eq: non-comparable type")


def _eq(line: int, arg1: Any, *args: Any) -> bool:
    if not args:
        raise _error(line, "error calling eq: missing argument for comparison")
    k1, v1 = _basic(arg1, line)
    for arg in args:
        k2, v2 = _basic(arg, line)
        if k1 == "nil" or k2 == "nil":
            truth = k1 == k2
        elif k1 != k2:
            raise _error(line, "error calling eq: incompatible types for comparison")
        else:
            truth = v1 == v2
        if truth:
            return True
    return False


def _lt(line: int, a: Any, b: Any, name: str = "lt") -> bool:
    k1, v1 = _basic(a, line)
    k2, v2 = _basic(b, line)
    if k1 in ("bool", "nil") or k2 in ("bool", "nil"):
        raise _error(line, f"error calling {name}: invalid type for comparison")
    if k1 != k2:
        raise _error(line, f"error calling {name}: incompatible types for comparison")
    return bool(v1 < v2)


def _len(line: int, value: Any) -> int:
    if isinstance(value, Number):
        return len(value.text.encode())
    if isinstance(value, str):
        return len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, list | dict):
        return len(value)
    raise _error(line, f"error calling len: len of type {go_type(value)}")


def _int_index(line: int, value: Any, fn: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _error(line, f"error calling {fn}: cannot index slice/array with type {go_type(value)}")


def _index(line: int, item: Any, *keys: Any) -> Any:
    for key in keys:
        if isinstance(item, list):
            i = _int_index(line, key, "index")
            if not 0 <= i < len(item):
                raise _error(line, f"error calling index: index out of range: {i}")
            item = item[i]
        elif isinstance(item, dict):
            if not isinstance(key, str) or isinstance(key, Number):
                raise _error(
                    line, f"error calling index: value has type {go_type(key)}; should be string"
                )
            item = item.get(key, None)
        elif item is None or item is MISSING:
            raise _error(line, "error calling index: index of untyped nil")
        else:
            raise _error(line, f"error calling index: can't index item of type {go_type(item)}")
    return item


def _slice(line: int, item: Any, *indexes: Any) -> Any:
    text = item.text if isinstance(item, Number) else item
    if not isinstance(text, str | list):
        raise _error(line, f"error calling slice: can't slice item of type {go_type(item)}")
    if len(indexes) > 3 or (len(indexes) == 3 and isinstance(text, str)):
        raise _error(line, f"error calling slice: too many slice indexes: {len(indexes)}")
    data: Any = text.encode("utf-8") if isinstance(text, str) else text
    bounds = [_int_index(line, i, "slice") for i in indexes]
    cap = len(data)
    prev = 0
    for b in bounds:
        if b < prev or b > cap:
            raise _error(line, f"error calling slice: index out of range: {b}")
        prev = b
    start = bounds[0] if bounds else 0
    end = bounds[1] if len(bounds) > 1 else len(data)
    out = data[start:end]
    return out.decode("utf-8", "replace") if isinstance(text, str) else out


def _js_escape(text: str) -> str:
    out: list[str] = []
    for c in text:
        if c in "\\'\"<>&=":
            out.append({"\\": "\\\\", "'": "\\'", '"': '\\"'}.get(c, f"\\u{ord(c):04X}"))
        elif ord(c) < 0x20:
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    return "".join(out)


_HTML_ESCAPES = {"\0": "\ufffd", "&": "&amp;", "'": "&#39;", "<": "&lt;", ">": "&gt;", '"': "&#34;"}


def _html_escape(text: str) -> str:
    """Go's ``template.HTMLEscapeString``."""
    return "".join(_HTML_ESCAPES.get(c, c) for c in text)


def _evaluated_string(args: tuple[Any, ...]) -> str:
    if len(args) == 1 and isinstance(args[0], str):
        return args[0]
    return go_print(*args)


FUNCS: dict[str, Callable[..., Any] | None] = {
    "eq": _eq,
    "ne": lambda line, a, b: not _eq(line, a, b),
    "lt": _lt,
    "le": lambda line, a, b: _lt(line, a, b, "le") or _eq(line, a, b),
    "gt": lambda line, a, b: not (_lt(line, a, b, "gt") or _eq(line, a, b)),
    "ge": lambda line, a, b: not _lt(line, a, b, "ge"),
    "len": _len,
    "index": _index,
    "slice": _slice,
    "not": lambda line, a: not _is_true(a),
    "print": lambda line, *a: go_print(*a),
    "println": lambda line, *a: " ".join(go_print(x) for x in a) + "\n",
    "printf": lambda line, f, *a: go_sprintf(_format_string(line, f), [go_arg(x) for x in a]),
    "html": lambda line, *a: _html_escape(_evaluated_string(a)),
    "js": lambda line, *a: _js_escape(_evaluated_string(a)),
    "urlquery": lambda line, *a: urllib.parse.quote_plus(_evaluated_string(a), safe=""),
    "and": None,
    "or": None,
    "call": None,
}
"""The predefined functions (``and``/``or``/``call`` are handled by the executor)."""

_ARITY = {"eq": (1, None), "ne": (2, 2), "lt": (2, 2), "le": (2, 2), "gt": (2, 2), "ge": (2, 2),
          "len": (1, 1), "index": (1, None), "slice": (1, None), "not": (1, 1), "printf": (1, None),
          "and": (1, None), "or": (1, None), "call": (1, None)}  # fmt: skip


def _format_string(line: int, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Number):
        return value.text
    raise _error(
        line, f"error calling printf: wrong type for value; expected string; got {go_type(value)}"
    )


class _Exec:
    """Runs a parsed template over its data."""

    def __init__(self, template: Template, data: Any) -> None:
        self.template = template
        self.out: list[str] = []
        self.size = 0
        self.vars: list[tuple[str, Any]] = [("$", data)]
        self.depth = 0

    def write(self, text: str) -> None:
        self.size += len(text)
        ctx = current_context()
        ctx.check_result_bytes(self.size)
        self.out.append(text)

    def walk(self, dot: Any, nodes: list[Any]) -> None:
        for node in nodes:
            if isinstance(node, str):
                self.write(node)
            elif isinstance(node, Pipe):
                value = self.pipe(dot, node)
                if not node.decl:
                    self.write(self.print_value(value, node.line))
            elif isinstance(node, Block):
                self.block(dot, node)
            elif isinstance(node, Call):
                self.call_template(dot, node)
            elif node.kind == "break":
                raise _Break
            elif node.kind == "continue":
                raise _Continue

    def print_value(self, value: Any, line: int) -> str:
        if value is MISSING or value is None:
            return "<no value>"
        return go_print(value)

    def block(self, dot: Any, node: Block) -> None:
        mark = len(self.vars)
        value = self.pipe(dot, node.pipe)
        try:
            if node.kind == "range":
                self.range(dot, node, value)
                return
            if _is_true(value):
                self.walk(value if node.kind == "with" else dot, node.body)
            elif node.else_body is not None:
                self.walk(dot, node.else_body)
        finally:
            del self.vars[mark:]

    def range(self, dot: Any, node: Block, value: Any) -> None:
        if isinstance(value, list):
            pairs: list[tuple[Any, Any]] = list(enumerate(value))
        elif isinstance(value, dict):
            pairs = [(k, value[k]) for k in sorted(value)]
        elif isinstance(value, int) and not isinstance(value, bool):
            if len(node.pipe.decl) > 1:
                raise _error(
                    node.pipe.line, f"can't use {value} to iterate over more than one variable"
                )
            pairs = [(i, i) for i in range(value)]
        elif value is None or value is MISSING:
            pairs = []
        else:
            raise _error(node.pipe.line, f"range can't iterate over {go_print(value)}")
        if not pairs:
            if node.else_body is not None:
                self.walk(dot, node.else_body)
            return
        mark = len(self.vars)
        decl = node.pipe.decl
        for key, elem in pairs:
            current_context().check_time()
            if decl:  # the pipeline pushed them: the last is the element, the first the key
                self.vars[mark - 1] = (decl[-1], elem)
            if len(decl) == 2:
                self.vars[mark - 2] = (decl[0], key)
            try:
                self.walk(elem, node.body)
            except _Continue:
                pass
            except _Break:
                break
            finally:
                del self.vars[mark:]

    def call_template(self, dot: Any, node: Call) -> None:
        body = self.template.defined.get(node.name)
        if body is None:
            raise TemplateError(f'template: template:1: no such template "{node.name}"')
        value = self.pipe(dot, node.pipe) if node.pipe is not None else None
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TemplateError(f"template: exceeded maximum template depth ({MAX_DEPTH})")
        saved = self.vars
        self.vars = [("$", value)]
        try:
            self.walk(value, body)
        finally:
            self.vars = saved
            self.depth -= 1

    def set_var(self, name: str, value: Any) -> None:
        self.vars.append((name, value))

    def assign_var(self, name: str, value: Any) -> None:
        for i in range(len(self.vars) - 1, -1, -1):
            if self.vars[i][0] == name:
                self.vars[i] = (name, value)
                return
        raise TemplateError(f"template: undefined variable: {name}")

    def var(self, name: str) -> Any:
        for var_name, value in reversed(self.vars):
            if var_name == name:
                return value
        raise TemplateError(f"template: undefined variable: {name}")

    def pipe(self, dot: Any, pipe: Pipe) -> Any:
        value: Any = MISSING
        final: Any = MISSING
        has_final = False
        for cmd in pipe.cmds:
            value = self.command(dot, cmd, final, has_final, pipe.line)
            final, has_final = value, True
        for name in pipe.decl:
            if pipe.is_assign:
                self.assign_var(name, value)
            else:
                self.set_var(name, value)
        return value

    def command(self, dot: Any, cmd: list[Node], final: Any, has_final: bool, line: int) -> Any:
        first = cmd[0]
        if first.kind == "nil":
            raise _error(line, "nil is not a command")
        if first.kind == "func":
            return self.call_func(dot, first.value, cmd[1:], final, has_final, line)
        if len(cmd) > 1 or has_final:
            if first.kind in ("field", "chain", "variable", "dot"):
                raise _error(line, f"can't give argument to non-function {self.describe(first)}")
            raise _error(line, f"can't give argument to non-function {first.value}")
        return self.arg(dot, first, line)

    def describe(self, node: Node) -> str:
        if node.kind == "field":
            return "." + ".".join(node.fields)
        if node.kind == "dot":
            return "."
        if node.kind == "variable":
            return str(node.value)
        return str(node.value)

    def arg(self, dot: Any, node: Node, line: int) -> Any:
        if node.kind == "dot":
            return dot
        if node.kind == "field":
            value = dot
            for name in node.fields:
                value = _field(value, name, line)
            return value
        if node.kind == "variable":
            return self.var(node.value)
        if node.kind == "chain":
            value = self.arg(dot, node.value, line)
            for name in node.fields:
                value = _field(value, name, line)
            return value
        if node.kind == "pipe":
            mark = len(self.vars)
            try:
                return self.pipe(dot, node.value)
            finally:
                del self.vars[mark:]
        if node.kind in ("string", "number", "bool"):
            return node.value
        if node.kind == "nil":
            return None
        if node.kind == "func":
            return self.call_func(dot, node.value, [], MISSING, False, line)
        raise _error(line, f"can't handle {node.kind}")

    def call_func(
        self, dot: Any, name: str, nodes: list[Node], final: Any, has_final: bool, line: int
    ) -> Any:
        count = len(nodes) + (1 if has_final else 0)
        low, high = _ARITY.get(name, (0, None))
        if count < low or (high is not None and count > high):
            want = low if high == low else f"at least {low}"
            raise _error(line, f"wrong number of args for {name}: want {want} got {count}")
        if name in ("and", "or"):
            value: Any = MISSING
            for node in nodes:
                value = self.arg(dot, node, line)
                if _is_true(value) == (name == "or"):
                    return value
            if has_final:
                value = final
            return value
        if name == "call":
            raise _error(line, "error calling call: call of nil")
        args = [self.arg(dot, node, line) for node in nodes]
        if has_final:
            args.append(final)
        args = [None if a is MISSING else a for a in args]
        function = FUNCS[name]
        assert function is not None  # and, or and call are handled above
        return function(line, *args)


def render(source: str, data: dict[str, Any]) -> str:
    """Parse and execute a template over converted data (see :func:`to_go`)."""
    executor = _Exec(parse_template(source), data)
    try:
        executor.walk(data, executor.template.root)
    except RecursionError:
        raise TemplateError("template: exceeded maximum template depth") from None
    return "".join(executor.out)


@register(NAME)
def render_template(template: Any, variables: Any) -> str:
    """``strings.render_template(template, vars)``: Go's text/template output."""
    if not isinstance(template, str):
        raise BuiltinError(f"{NAME}: operand 1 must be string but got {type_name(template)}")
    if not isinstance(variables, dict):
        raise BuiltinError(f"{NAME}: operand 2 must be object but got {type_name(variables)}")
    try:
        out = render(template, to_go(variables))
    except TemplateError as exc:
        raise BuiltinError(str(exc)) from None
    return out.replace("<no value>", "<undefined>")
