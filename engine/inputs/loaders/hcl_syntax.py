"""HCL syntax as the evaluator reads it: one expression parsed from text, helpers
over python-hcl2's lark trees, and templates (strings, heredocs, JSON-syntax
strings) read into parts, literal text and directives, with escapes decoded."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from engine.inputs.loaders import hcl_parser
from engine.inputs.loaders.hcl_values import EvaluationError


def parse_expression(text: str) -> Tree:
    """The parse tree of one expression written in native syntax."""
    try:
        tree = hcl_parser.parse(f"x = {text}\n")
    except UnexpectedInput as exc:
        raise EvaluationError(f"invalid expression: {exc}") from None
    body = children(tree)[0]
    attributes = children(body)
    if len(attributes) != 1 or attributes[0].data != "attribute":
        raise EvaluationError("not one expression")
    return children(attributes[0])[-1]


def children(node: Tree) -> list[Tree]:
    """The child trees of ``node``, without tokens and newlines/comments."""
    return [c for c in node.children if isinstance(c, Tree) and c.data != "new_line_or_comment"]


def token_children(node: Tree) -> list[Token]:
    return [c for c in node.children if isinstance(c, Token)]


def identifier_name(node: Tree) -> str | None:
    """The name of an ``identifier``/``keyword``/``literal_value`` node, or of an
    expression that is just one bare name."""
    while node.data in ("expr_term", "object_elem_key") and len(node.children) == 1:
        child = node.children[0]
        if not isinstance(child, Tree):
            return None
        node = child
    if node.data in ("identifier", "keyword", "literal_value"):
        return str(node.children[0])
    return None


def traversal_text(node: Tree) -> str | None:
    """``aws.west`` for a reference written as names and attributes only (else None)."""
    if node.data == "expr_term" and len(children(node)) == 1:
        return traversal_text(children(node)[0])
    if node.data == "identifier":
        return str(node.children[0])
    if node.data == "get_attr_expr_term":
        base, step = children(node)
        head = traversal_text(base)
        name = identifier_name(children(step)[0])
        return f"{head}.{name}" if head and name else None
    return None


@dataclass(frozen=True)
class Directive:
    kind: str  # "interp", "if", "else", "endif", "for", "endfor"
    expression: Tree | None = None
    names: tuple[str, ...] = ()
    strip_before: bool = False
    strip_after: bool = False


TemplatePart = str | Directive


_ESCAPES = re.compile(r'\\(?:([nrt"\\])|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))')
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def _not_a_character(code: int) -> bool:
    """Whether ``code`` is no Unicode scalar value (a surrogate half, or past U+10FFFF)."""
    return 0xD800 <= code <= 0xDFFF or code > 0x10FFFF


def invalid_escape(text: str) -> str | None:
    """Why a string literal's escapes cannot be decoded (None: they can). Like HCL, an
    escape naming no Unicode scalar value cannot be encoded in UTF-8."""
    for match in _ESCAPES.finditer(text):
        if match.group(1):
            continue
        code = int(match.group(2) or match.group(3), 16)
        if _not_a_character(code):
            return (
                f"invalid escape sequence {match.group(0)}: "
                f"cannot encode character U+{code:04X} in UTF-8"
            )
    return None


def unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        if match.group(1):
            return _SIMPLE_ESCAPES[match.group(1)]
        code = int(match.group(2) or match.group(3), 16)
        if _not_a_character(code):
            raise EvaluationError(invalid_escape(match.group(0)) or "invalid escape sequence")
        return chr(code)

    return _ESCAPES.sub(one, text)


def string_parts(node: Tree) -> list[TemplatePart]:
    parts: list[TemplatePart] = []
    for part in children(node):
        content = part.children[0]
        if isinstance(content, Token):
            text = str(content)
            if content.type == "ESCAPED_INTERPOLATION" or content.type == "ESCAPED_DIRECTIVE":
                parts.append(text[1:])
            else:
                parts.append(unescape(text))
            continue
        tokens = [str(t).strip() for t in token_children(content)]
        strip_before = len(tokens) > 1 and tokens[1] == "~"
        strip_after = len(tokens) > 1 and tokens[-2] == "~"
        expressions = [c for c in children(content) if c.data != "identifier"]
        names = tuple(str(c.children[0]) for c in children(content) if c.data == "identifier")
        kind = {
            "interpolation": "interp",
            "template_if_start": "if",
            "template_else": "else",
            "template_endif": "endif",
            "template_for_start": "for",
            "template_endfor": "endfor",
        }[str(content.data)]
        parts.append(
            Directive(
                kind,
                expressions[0] if expressions else None,
                names,
                strip_before,
                strip_after,
            )
        )
    return parts


def split_template(text: str) -> list[TemplatePart]:
    """The parts of a template written as raw text (heredoc bodies, JSON-syntax strings)."""
    parts: list[TemplatePart] = []
    literal: list[str] = []
    position = 0
    while position < len(text):
        if text.startswith(("$${", "%%{"), position):
            literal.append(text[position + 1 : position + 3])
            position += 3
            continue
        if text.startswith(("${", "%{"), position):
            end = _closing_brace(text, position + 2)
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(_directive(text[position], text[position + 2 : end]))
            position = end + 1
            continue
        literal.append(text[position])
        position += 1
    if literal:
        parts.append("".join(literal))
    return parts


def _closing_brace(text: str, start: int) -> int:
    depth, position, quoted = 0, start, False
    while position < len(text):
        char = text[position]
        if quoted:
            if char == "\\":
                position += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == "{":
            depth += 1
        elif char == "}":
            if depth == 0:
                return position
            depth -= 1
        position += 1
    raise EvaluationError("unterminated template sequence")


def _directive(sigil: str, source: str) -> Directive:
    strip_before = source.startswith("~")
    strip_after = source.endswith("~")
    inner = source[1 if strip_before else 0 : -1 if strip_after else None].strip()
    if sigil == "$":
        return Directive("interp", parse_expression(inner), (), strip_before, strip_after)
    word, _, rest = inner.partition(" ")
    if word in ("else", "endif", "endfor") and not rest.strip():
        return Directive(word, None, (), strip_before, strip_after)
    if word == "if":
        return Directive("if", parse_expression(rest), (), strip_before, strip_after)
    match = re.fullmatch(r"for\s+(\w+)(?:\s*,\s*(\w+))?\s+in\s+(.+)", inner, re.DOTALL)
    if match:
        names = tuple(n for n in match.group(1, 2) if n)
        expression = parse_expression(match.group(3))
        return Directive("for", expression, names, strip_before, strip_after)
    raise EvaluationError(f"invalid template directive {inner!r}")


def apply_strips(parts: list[TemplatePart]) -> list[TemplatePart]:
    stripped = list(parts)
    for position, part in enumerate(stripped):
        if not isinstance(part, Directive):
            continue
        if part.strip_before and position > 0 and isinstance(stripped[position - 1], str):
            stripped[position - 1] = str(stripped[position - 1]).rstrip()
        if part.strip_after and position + 1 < len(stripped):
            following = stripped[position + 1]
            if isinstance(following, str):
                stripped[position + 1] = following.lstrip()
    return stripped


def directive_kind(part: TemplatePart) -> str | None:
    return part.kind if isinstance(part, Directive) else None
