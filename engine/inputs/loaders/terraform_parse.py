"""Parsing one Terraform configuration file, native (``*.tf``) or JSON syntax
(``*.tf.json``), into its top-level blocks; syntax errors name the file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.core.confined_files import read_confined
from engine.inputs.loaders import hcl_parser
from engine.inputs.loaders.documents import parse_json
from engine.inputs.loaders.hcl_syntax import identifier_name, invalid_escape
from engine.inputs.loaders.hcl_values import JsonExpression
from engine.inputs.loaders.loaded import LoaderError
from engine.inputs.loaders.terraform_blocks import RESOURCE_META_BLOCKS, Attribute, Block, Body
from engine.inputs.suppressions import InlineSuppression, find_suppressions

_VALUE_STARTS = frozenset({"NAME", "INT_LITERAL", "DBLQUOTE", "LSQB", "LBRACE"})
"""Tokens that start an expression: expecting one means a value is missing."""


def _parse_error(display: str, exc: Exception) -> LoaderError:
    line = getattr(exc, "line", None)
    if isinstance(exc, UnexpectedToken):
        text = str(exc.token) if exc.token is not None else ""
        if exc.token is None or exc.token.type == "$END":
            detail = "unexpected end of file"
        elif not text.strip():
            detail = "unexpected end of line"
        else:
            detail = f"unexpected {text.strip()!r}"
        if _VALUE_STARTS & set(exc.expected or ()):
            detail += " where a value was expected"
    elif isinstance(exc, UnexpectedCharacters):
        detail = f"unexpected character {exc.char!r}"
    elif isinstance(exc, UnexpectedEOF):
        detail = "unexpected end of file"
    else:
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if not isinstance(line, int) or line < 1:
        line = None
    where = f"{display}:{line}" if line else display
    return LoaderError(f"{where}: invalid HCL: {detail}", line)


def read_text(path: Path, display: str, root: Path | None) -> str:
    try:
        return read_confined(path, root).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoaderError(f"{display}: not valid UTF-8 ({exc.reason})") from None
    except OSError as exc:
        raise LoaderError(f"{display}: cannot read ({exc.strerror})") from None


def parse_native(text: str, display: str) -> Body:
    """The top-level body of a native-syntax file."""
    try:
        tree = hcl_parser.parse(text)
    except UnexpectedInput as exc:
        raise _parse_error(display, exc) from None
    _check_tree(tree, display)
    return _native_body(subtrees(tree)[0], display)


MAX_TREE_DEPTH = 256
"""Syntax-tree levels a file may nest (a tuple level takes two, a ``+`` one):
the expression evaluator recurses once per level and handles about 300."""


def _check_tree(tree: Tree, display: str) -> None:
    """Refuse a file whose syntax tree nests deeper than :data:`MAX_TREE_DEPTH`
    (iteratively: the tree may be far deeper than Python's recursion limit), or
    with a string escape that names no character (``"\\ud800"``), as Terraform
    does: it cannot be encoded in UTF-8, so no rule could be given it. One walk;
    too deep a tree is reported before the file's first bad escape."""
    bad_escape: Token | None = None
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    push, pop = stack.append, stack.pop
    while stack:
        node, depth = pop()
        if depth > MAX_TREE_DEPTH:
            found = hcl_parser.start(node)
            line = found[0] if found else None
            where = f"{display}:{line}" if line else display
            raise LoaderError(
                f"{where}: invalid HCL: an expression nests more than {MAX_TREE_DEPTH} "
                "levels deep (the limit on nesting depth)",
                line,
            )
        for child in node.children:
            if isinstance(child, Tree):
                push((child, depth + 1))
            elif (
                isinstance(child, Token)
                and child.type == "STRING_CHARS"
                and "\\" in child
                # lark types positions as optional; its lexer sets them on every token
                and (bad_escape is None or child.start_pos < bad_escape.start_pos)  # type: ignore[operator]
                and invalid_escape(str(child)) is not None
            ):
                bad_escape = child
    if bad_escape is not None:
        line = bad_escape.line
        where = f"{display}:{line}" if line else display
        raise LoaderError(f"{where}: invalid HCL: {invalid_escape(str(bad_escape))}", line)


def subtrees(node: Tree) -> list[Tree]:
    return [c for c in node.children if isinstance(c, Tree) and c.data != "new_line_or_comment"]


def _label(node: Tree) -> str:
    if node.data == "string":
        return "".join(str(part.children[0]) for part in subtrees(node))
    return identifier_name(node) or ""


def _native_body(node: Tree, display: str) -> Body:
    body = Body()
    for child in subtrees(node):
        parts = subtrees(child)
        name = identifier_name(parts[0]) or ""
        if child.data == "attribute":
            line, column = hcl_parser.start(child) or (0, 0)
            if name in body.attributes:  # as Terraform: "Attribute redefined"
                raise LoaderError(
                    f"{display}:{line}: invalid HCL: argument {name!r} is set twice "
                    f"(first at line {body.attributes[name].line}); set it once",
                    line,
                )
            body.attributes[name] = Attribute(name, parts[-1], line, column)
        elif child.data == "block":
            labels = tuple(_label(p) for p in parts[1:-1])
            nested = _native_body(parts[-1], display)
            line, column = hcl_parser.start(child) or (0, 0)
            body.blocks.append(Block(name, labels, nested, display, line, column))
    return body


def _json_entries(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _json_body(value: Any, display: str, blocks: bool) -> Body:
    """A JSON-syntax body: every property an argument whose objects and arrays stay as
    written, as snyk's loader reads JSON. With ``blocks`` (a resource, data source or
    provider), ``dynamic`` and the meta-blocks (``lifecycle``, ``provisioner``,
    ``connection``) are blocks, as in native syntax."""
    body = Body(json_syntax=True)
    if not isinstance(value, dict):
        return body
    for key, item in value.items():
        if key == "//":
            continue
        if blocks and key == "dynamic" and isinstance(item, dict):
            for label, specs in item.items():
                for spec in _json_entries(specs):
                    body.blocks.append(
                        Block("dynamic", (label,), _json_dynamic(spec, display), display)
                    )
            continue
        entries = _json_entries(item)
        if blocks and key in RESOURCE_META_BLOCKS and all(isinstance(e, dict) for e in entries):
            body.blocks.extend(
                Block(key, (), _json_body(e, display, True), display) for e in entries
            )
            continue
        body.attributes[key] = Attribute(key, JsonExpression(item))
    return body


def _json_dynamic(spec: Any, display: str) -> Body:
    """The body of a JSON-syntax ``dynamic`` block: ``for_each``, ``iterator`` and its
    ``content`` block."""
    body = Body(json_syntax=True)
    if not isinstance(spec, dict):
        return body
    for key, item in spec.items():
        if key == "content" and isinstance(item, dict):
            body.blocks.append(Block("content", (), _json_body(item, display, True), display))
        elif key != "//":
            body.attributes[key] = Attribute(key, JsonExpression(item))
    return body


def parse_json_syntax(raw: bytes, display: str) -> list[Block]:
    """The top-level blocks of a JSON-syntax file."""
    try:
        document = parse_json(raw)
    except LoaderError as exc:
        where = f"{display}:{exc.line}" if exc.line else display
        raise LoaderError(f"{where}: {exc.message}", exc.line) from None
    if not isinstance(document, dict):
        raise LoaderError(f"{display}: invalid JSON syntax: expected an object", 1)
    blocks: list[Block] = []
    for kind, content in document.items():
        for entry in _json_entries(content):
            if not isinstance(entry, dict):
                continue
            if kind in ("resource", "data"):
                for rtype, by_name in entry.items():
                    if not isinstance(by_name, dict):
                        continue
                    for name, spec in by_name.items():
                        for one in _json_entries(spec):
                            body = _json_body(one, display, True)
                            blocks.append(Block(kind, (rtype, name), body, display))
            elif kind in ("module", "variable", "output"):
                for name, spec in entry.items():
                    for one in _json_entries(spec):
                        body = _json_body(one, display, False)
                        blocks.append(Block(kind, (name,), body, display))
            elif kind == "provider":
                for name, spec in entry.items():
                    for one in _json_entries(spec):
                        blocks.append(Block(kind, (name,), _json_body(one, display, True), display))
            elif kind == "locals" or kind == "terraform":
                blocks.append(Block(kind, (), _json_body(entry, display, False), display))
    return blocks


def parse_file(text: str, display: str) -> tuple[list[Block], tuple[InlineSuppression, ...]]:
    """The top-level blocks and the inline suppressions of one configuration file."""
    if display.endswith(".json"):
        return parse_json_syntax(text.encode(), display), ()
    return parse_native(text, display).blocks, find_suppressions(text, display, "hcl")
