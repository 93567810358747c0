"""GraphQL lexer and parser producing the AST of Go's gqlparser v2 as OPA returns it.

OPA's ``graphql.*`` builtins parse with vektah/gqlparser v2.5 and hand back its
AST encoded as JSON, then pruned: ``Position`` keys, nulls and empty arrays or
objects are dropped (:func:`prune`). The parser here follows gqlparser's
grammar, token positions (1-based, counted in characters), error messages and
comment attachment, so documents and errors come out as OPA prints them.
Parsing stops at the first error, as gqlparser's does; a lexer error is
reported only when the parser consumes the bad token (otherwise the parser's
own "Expected …, found <Invalid>" wins, as in gqlparser).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Node = dict[str, Any]
"""A gqlparser AST node as its JSON object (``Position`` kept until :func:`prune`)."""

INVALID, EOF, BANG, DOLLAR, AMP, PAREN_L, PAREN_R, SPREAD, COLON, EQUALS, AT = range(11)
BRACKET_L, BRACKET_R, BRACE_L, BRACE_R, PIPE, NAME, INT, FLOAT, STRING, BLOCK_STRING = range(11, 21)
COMMENT = 21

_KIND_TEXT = (
    "<Invalid>",
    "<EOF>",
    "!",
    "$",
    "&",
    "(",
    ")",
    "...",
    ":",
    "=",
    "@",
    "[",
    "]",
    "{",
    "}",
    "|",
    "Name",
    "Int",
    "Float",
    "String",
    "BlockString",
    "Comment",
)

_PUNCTUATORS = {
    "!": BANG,
    "$": DOLLAR,
    "&": AMP,
    "(": PAREN_L,
    ")": PAREN_R,
    ":": COLON,
    "=": EQUALS,
    "@": AT,
    "[": BRACKET_L,
    "]": BRACKET_R,
    "{": BRACE_L,
    "}": BRACE_R,
    "|": PIPE,
}

_NAME_START = frozenset("_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")

# gqlparser's ast.ValueKind numbering.
VARIABLE, INT_VALUE, FLOAT_VALUE, STRING_VALUE, BLOCK_VALUE = range(5)
BOOLEAN_VALUE, NULL_VALUE, ENUM_VALUE, LIST_VALUE, OBJECT_VALUE = range(5, 10)

DIRECTIVE_LOCATIONS = frozenset(
    (
        "QUERY",
        "MUTATION",
        "SUBSCRIPTION",
        "FIELD",
        "FRAGMENT_DEFINITION",
        "FRAGMENT_SPREAD",
        "INLINE_FRAGMENT",
        "VARIABLE_DEFINITION",
        "SCHEMA",
        "SCALAR",
        "OBJECT",
        "FIELD_DEFINITION",
        "ARGUMENT_DEFINITION",
        "INTERFACE",
        "UNION",
        "ENUM",
        "ENUM_VALUE",
        "INPUT_OBJECT",
        "INPUT_FIELD_DEFINITION",
    )
)


class GraphQLSyntaxError(Exception):
    """A document that gqlparser refuses; ``line``/``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Position:
    """Where a node starts in its source (1-based)."""

    line: int
    column: int


@dataclass
class Token:
    """One lexed token; ``value`` is empty for punctuators."""

    kind: int
    value: str
    line: int
    column: int

    def describe(self) -> str:
        """The token as gqlparser's errors print it."""
        if self.value:
            return f"{_KIND_TEXT[self.kind]} {go_quote(self.value)}"
        return _KIND_TEXT[self.kind]


def go_quote(text: str) -> str:
    """``text`` as Go's ``strconv.Quote`` writes it."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\a":
            out.append("\\a")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\v":
            out.append("\\v")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif ch.isprintable() or ch == " ":
            out.append(ch)
        elif code > 0xFFFF:
            out.append(f"\\U{code:08x}")
        else:
            out.append(f"\\u{code:04x}")
    out.append('"')
    return "".join(out)


def block_string_value(raw: str) -> str:
    """The value of a block string: common indentation and blank edge lines removed."""
    lines = raw.split("\n")
    common: int | None = None
    for line in lines:
        indent = _leading_whitespace(line)
        if indent is not None and (common is None or indent < common):
            common = indent
            if common == 0:
                break
    if common is not None:
        for i in range(1, len(lines)):
            lines[i] = "" if len(lines[i]) < common else lines[i][common:]
    start, end = 0, len(lines)
    while start < end and _leading_whitespace(lines[start]) is None:
        start += 1
    while start < end and _leading_whitespace(lines[end - 1]) is None:
        end -= 1
    return "\n".join(lines[start:end])


def _leading_whitespace(line: str) -> int | None:
    for i, ch in enumerate(line):
        if ch not in " \t":
            return i
    return None


class Lexer:
    """gqlparser's lexer over a Python string (columns count characters)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start = 0
        self.end = 0
        self.line = 1
        self.line_start = 0

    def _token(self, kind: int, value: str | None = None) -> Token:
        if value is None:
            value = self.text[self.start : self.end]
        return Token(kind, value, self.line, self.start - self.line_start + 1)

    def _error(self, message: str) -> tuple[Token, GraphQLSyntaxError]:
        column = self.end - self.line_start + 1
        return Token(INVALID, "", self.line, column), GraphQLSyntaxError(message, self.line, column)

    def read(self) -> tuple[Token, GraphQLSyntaxError | None]:
        """The next token, and the error when it is invalid."""
        self._skip_whitespace()
        text = self.text
        self.start = self.end
        if self.end >= len(text):
            return self._token(EOF), None
        ch = text[self.start]
        self.end += 1
        kind = _PUNCTUATORS.get(ch)
        if kind is not None:
            return self._token(kind, ""), None
        if ch == "." and text[self.start : self.start + 3] == "...":
            self.end += 2
            return self._token(SPREAD, ""), None
        if ch == "#":
            return self._read_comment(), None
        if ch in _NAME_START:
            while self.end < len(text) and text[self.end] in _NAME_CHARS:
                self.end += 1
            return self._token(NAME), None
        if ch == "-" or ch in _DIGITS:
            return self._read_number()
        if ch == '"':
            if text[self.start : self.start + 3] == '"""':
                return self._read_block_string()
            return self._read_string()
        self.end -= 1
        code = ord(ch)
        if code < 0x20 and ch not in "\t\n\r":
            return self._error(f'Cannot contain the invalid character "\\u{code:04x}"')
        if ch == "'":
            return self._error(
                "Unexpected single quote character ('), did you mean to use a double quote (\")?"
            )
        return self._error(f'Cannot parse the unexpected character "{ch}".')

    def _skip_whitespace(self) -> None:
        text = self.text
        while self.end < len(text):
            ch = text[self.end]
            if ch in "\t ,\ufeff":
                self.end += 1
            elif ch == "\n":
                self.end += 1
                self.line += 1
                self.line_start = self.end
            elif ch == "\r":
                self.end += 1
                self.line += 1
                self.line_start = self.end
                if self.end < len(text) and text[self.end] == "\n":
                    self.end += 1
            else:
                return

    def _read_comment(self) -> Token:
        text = self.text
        while self.end < len(text) and (ord(text[self.end]) > 0x1F or text[self.end] == "\t"):
            self.end += 1
        return self._token(COMMENT)

    def _accept(self, chars: str) -> bool:
        if self.end < len(self.text) and self.text[self.end] in chars:
            self.end += 1
            return True
        return False

    def _digits(self) -> int:
        begin = self.end
        while self.end < len(self.text) and self.text[self.end] in _DIGITS:
            self.end += 1
        return self.end - begin

    def _describe_next(self) -> str:
        if self.end < len(self.text):
            return f'"{self.text[self.end]}"'
        return "<EOF>"

    def _read_number(self) -> tuple[Token, GraphQLSyntaxError | None]:
        is_float = False
        self.end -= 1
        self._accept("-")
        if self._accept("0"):
            consumed = self._digits()
            if consumed:
                self.end -= consumed
                return self._error(
                    f"Invalid number, unexpected digit after 0: {self._describe_next()}."
                )
        elif not self._digits():
            return self._error(f"Invalid number, expected digit but got: {self._describe_next()}.")
        if self._accept("."):
            is_float = True
            if not self._digits():
                return self._error(
                    f"Invalid number, expected digit but got: {self._describe_next()}."
                )
        if self._accept("eE"):
            is_float = True
            self._accept("-+")
            if not self._digits():
                return self._error(
                    f"Invalid number, expected digit but got: {self._describe_next()}."
                )
        return self._token(FLOAT if is_float else INT), None

    def _read_string(self) -> tuple[Token, GraphQLSyntaxError | None]:
        text = self.text
        size = len(text)
        buf: list[str] | None = None
        self.start += 1
        while self.end < size:
            ch = text[self.end]
            if ch in "\n\r":
                break
            if ord(ch) < 0x20 and ch != "\t":
                return self._error(f'Invalid character within String: "\\u{ord(ch):04x}".')
            if ch == '"':
                token = self._token(STRING, "")
                token.value = "".join(buf) if buf is not None else text[self.start : self.end]
                self.end += 1
                return token, None
            if ch != "\\":
                self.end += 1
                if buf is not None:
                    buf.append(ch)
                continue
            if self.end + 1 >= size:
                self.end += 1
                return self._error("Invalid character escape sequence.")
            if buf is None:
                buf = [text[self.start : self.end]]
            escape = text[self.end + 1]
            if escape == "u":
                if self.end + 6 >= size:
                    self.end += 1
                    return self._error(f"Invalid character escape sequence: \\{text[self.end :]}.")
                digits = text[self.end + 2 : self.end + 6]
                if not all(c in _HEX for c in digits):
                    self.end += 1
                    return self._error(
                        f"Invalid character escape sequence: \\{text[self.end : self.end + 5]}."
                    )
                code = int(digits, 16)
                buf.append("\ufffd" if 0xD800 <= code <= 0xDFFF else chr(code))
                self.end += 6
                continue
            simple = {'"': '"', "/": "/", "\\": "\\", "b": "\b", "f": "\f", "n": "\n"}
            simple.update({"r": "\r", "t": "\t"})
            if escape not in simple:
                self.end += 1
                return self._error(f"Invalid character escape sequence: \\{escape}.")
            buf.append(simple[escape])
            self.end += 2
        return self._error("Unterminated string.")

    def _read_block_string(self) -> tuple[Token, GraphQLSyntaxError | None]:
        text = self.text
        size = len(text)
        buf: list[str] = []
        self.start += 3
        self.end += 2
        while self.end < size:
            ch = text[self.end]
            if ch == '"':
                count = 1
                while self.end + count < size and text[self.end + count] == '"':
                    count += 1
                if count >= 3:
                    buf.append('"' * (count - 3))
                    # gqlparser stamps the token with the line it ends on and
                    # a column measured from that line's start.
                    token = self._token(BLOCK_STRING, block_string_value("".join(buf)))
                    self.end += count
                    return token, None
            if ord(ch) < 0x20 and ch not in "\t\n\r":
                return self._error(f'Invalid character within String: "\\u{ord(ch):04x}".')
            if ch == "\\" and text[self.end : self.end + 4] == '\\"""':
                buf.append('"""')
                self.end += 4
            elif ch == "\r":
                if self.end + 1 < size and text[self.end + 1] == "\n":
                    self.end += 1
                buf.append("\n")
                self.end += 1
                self.line += 1
                self.line_start = self.end
            else:
                buf.append(ch)
                self.end += 1
                if ch == "\n":
                    self.line += 1
                    self.line_start = self.end
        return self._error("Unterminated string.")


def _comment_group(comments: list[str]) -> Node:
    return {"List": [{"Value": c} for c in comments]}


class Parser:
    """gqlparser's recursive-descent parser; nodes are its structs as JSON objects."""

    def __init__(self, text: str) -> None:
        self.lexer = Lexer(text)
        self.err: GraphQLSyntaxError | None = None
        self.peeked = False
        self.peek_token = Token(INVALID, "", 0, 0)
        self.peek_error: GraphQLSyntaxError | None = None
        self.prev = Token(INVALID, "", 0, 0)
        self.comment: Node | None = None
        self.comment_consuming = False

    # ------------------------------------------------------------ token stream

    def _consume_comment_group(self) -> None:
        if self.err is not None or self.comment_consuming:
            return
        self.comment_consuming = True
        comments: list[str] = []
        while self.err is None:
            tok = self.peek()
            if tok.kind != COMMENT:
                break
            self.next()
            comments.append(tok.value)
        self.comment = _comment_group(comments)
        self.comment_consuming = False

    def peek(self) -> Token:
        if self.err is not None:
            return self.prev
        if not self.peeked:
            self.peek_token, self.peek_error = self.lexer.read()
            self.peeked = True
            if self.peek_token.kind == COMMENT:
                self._consume_comment_group()
        return self.peek_token

    def next(self) -> Token:
        if self.err is not None:
            return self.prev
        if self.peeked:
            self.peeked = False
            self.comment = None
            self.prev, self.err = self.peek_token, self.peek_error
        else:
            self.prev, self.err = self.lexer.read()
            if self.prev.kind == COMMENT:
                self._consume_comment_group()
        return self.prev

    def error(self, tok: Token, message: str) -> None:
        if self.err is None:
            self.err = GraphQLSyntaxError(message, tok.line, tok.column)

    def expect_keyword(self, value: str) -> tuple[Token, Node | None]:
        tok = self.peek()
        comment = self.comment
        if tok.kind == NAME and tok.value == value:
            return self.next(), comment
        self.error(tok, f"Expected {go_quote(value)}, found {tok.describe()}")
        return tok, comment

    def expect(self, kind: int) -> tuple[Token, Node | None]:
        tok = self.peek()
        comment = self.comment
        if tok.kind == kind:
            return self.next(), comment
        self.error(tok, f"Expected {_KIND_TEXT[kind]}, found {_KIND_TEXT[tok.kind]}")
        return tok, comment

    def skip(self, kind: int) -> bool:
        if self.err is not None or self.peek().kind != kind:
            return False
        self.next()
        return True

    def unexpected(self, tok: Token | None = None) -> None:
        tok = self.peek() if tok is None else tok
        self.error(tok, f"Unexpected {tok.describe()}")

    def many(self, start: int, end: int, item: Any) -> None:
        if not self.skip(start):
            return
        while self.peek().kind != end and self.err is None:
            item()
        self.next()

    def some(self, start: int, end: int, item: Any) -> Node | None:
        if not self.skip(start):
            return None
        called = False
        while self.peek().kind != end and self.err is None:
            called = True
            item()
        if not called:
            found = _KIND_TEXT[self.peek().kind]
            self.error(self.peek(), f"expected at least one definition, found {found}")
            return None
        comment = self.comment
        self.next()
        return comment

    def peek_pos(self) -> Position | None:
        if self.err is not None:
            return None
        return _position(self.peek())

    def name(self) -> str:
        return self.expect(NAME)[0].value

    # ------------------------------------------------------------ shared

    def variable(self) -> str:
        self.expect(DOLLAR)
        return self.name()

    def value_literal(self, is_const: bool) -> Node | None:
        tok = self.peek()
        if tok.kind == BRACKET_L:
            return self._list(is_const)
        if tok.kind == BRACE_L:
            return self._object(is_const)
        if tok.kind == DOLLAR:
            if is_const:
                self.unexpected()
                return None
            raw = self.variable()
            return _value(raw, VARIABLE, None, self.comment, _position(tok))
        kinds = {INT: INT_VALUE, FLOAT: FLOAT_VALUE, STRING: STRING_VALUE}
        kinds[BLOCK_STRING] = BLOCK_VALUE
        if tok.kind in kinds:
            kind = kinds[tok.kind]
        elif tok.kind == NAME:
            if tok.value in ("true", "false"):
                kind = BOOLEAN_VALUE
            elif tok.value == "null":
                kind = NULL_VALUE
            else:
                kind = ENUM_VALUE
        else:
            self.unexpected()
            return None
        self.next()
        return _value(tok.value, kind, None, self.comment, _position(tok))

    def _list(self, is_const: bool) -> Node:
        values: list[Node] = []
        position = self.peek_pos()
        comment = self.comment
        self.many(
            BRACKET_L,
            BRACKET_R,
            lambda: values.append(
                {"Name": "", "Value": self.value_literal(is_const), "Comment": None}
            ),
        )
        return _value("", LIST_VALUE, values, comment, position)

    def _object(self, is_const: bool) -> Node:
        fields: list[Node] = []
        position = self.peek_pos()
        comment = self.comment

        def field() -> None:
            node: Node = {"Position": self.peek_pos(), "Comment": self.comment}
            node["Name"] = self.name()
            self.expect(COLON)
            node["Value"] = self.value_literal(is_const)
            fields.append(node)

        self.many(BRACE_L, BRACE_R, field)
        return _value("", OBJECT_VALUE, fields, comment, position)

    def directives(self, is_const: bool) -> list[Node]:
        found: list[Node] = []
        while self.peek().kind == AT:
            if self.err is not None:
                break
            self.expect(AT)
            node: Node = {"Position": self.peek_pos(), "Name": self.name()}
            node["Arguments"] = self.arguments(is_const)
            node.update(ParentDefinition=None, Definition=None, Location="")
            found.append(node)
        return found

    def arguments(self, is_const: bool) -> list[Node]:
        found: list[Node] = []

        def argument() -> None:
            node: Node = {"Position": self.peek_pos(), "Comment": self.comment}
            node["Name"] = self.name()
            self.expect(COLON)
            node["Value"] = self.value_literal(is_const)
            found.append(node)

        self.some(PAREN_L, PAREN_R, argument)
        return found

    def type_reference(self) -> Node:
        node: Node = {"NamedType": "", "Elem": None, "NonNull": False}
        if self.skip(BRACKET_L):
            node["Position"] = self.peek_pos()
            node["Elem"] = self.type_reference()
            self.expect(BRACKET_R)
        else:
            node["Position"] = self.peek_pos()
            node["NamedType"] = self.name()
        if self.skip(BANG):
            node["NonNull"] = True
        return node

    def operation_type(self) -> str:
        tok = self.next()
        if tok.value in ("query", "mutation", "subscription"):
            return tok.value
        self.unexpected(tok)
        return ""

    # ------------------------------------------------------------ queries

    def query_document(self) -> Node:
        operations: list[Node] = []
        fragments: list[Node] = []
        while self.peek().kind != EOF:
            if self.err is not None:
                break
            tok = self.peek()
            if tok.kind == NAME and tok.value in ("query", "mutation", "subscription"):
                operations.append(self.operation_definition())
            elif tok.kind == NAME and tok.value == "fragment":
                fragments.append(self.fragment_definition())
            elif tok.kind == BRACE_L:
                operations.append(self.operation_definition())
            else:
                self.unexpected()
        return {"Operations": operations, "Fragments": fragments, "Comment": None}

    def operation_definition(self) -> Node:
        node: Node = {"Operation": "query", "Name": "", "VariableDefinitions": None}
        node["Directives"] = None
        node["Position"] = self.peek_pos()
        if self.peek().kind == BRACE_L:
            node["SelectionSet"] = self.required_selection_set()
            # Go reads the comment after the selection set, when it is always nil.
            node["Comment"] = None
            return node
        node["Comment"] = self.comment
        node["Operation"] = self.operation_type()
        if self.peek().kind == NAME:
            node["Name"] = self.next().value
        node["VariableDefinitions"] = self.variable_definitions()
        node["Directives"] = self.directives(False)
        node["SelectionSet"] = self.required_selection_set()
        return node

    def variable_definitions(self) -> list[Node]:
        found: list[Node] = []

        def definition() -> None:
            node: Node = {"Position": self.peek_pos(), "Comment": self.comment}
            node["Variable"] = self.variable()
            self.expect(COLON)
            node["Type"] = self.type_reference()
            node["DefaultValue"] = self.value_literal(True) if self.skip(EQUALS) else None
            node["Directives"] = self.directives(False)
            node.update(Definition=None, Used=False)
            found.append(node)

        self.some(PAREN_L, PAREN_R, definition)
        return found

    def _selections(self) -> list[Node]:
        found: list[Node] = []
        self.some(BRACE_L, BRACE_R, lambda: found.append(self.selection()))
        return found

    def required_selection_set(self) -> list[Node] | None:
        if self.peek().kind != BRACE_L:
            self.error(self.peek(), f"Expected {{, found {_KIND_TEXT[self.peek().kind]}")
            return None
        return self._selections()

    def selection(self) -> Node:
        if self.peek().kind == SPREAD:
            return self.fragment()
        node: Node = {"Position": self.peek_pos(), "Comment": self.comment}
        node["Alias"] = self.name()
        node["Name"] = self.name() if self.skip(COLON) else node["Alias"]
        node["Arguments"] = self.arguments(False)
        node["Directives"] = self.directives(False)
        node["SelectionSet"] = self._selections() if self.peek().kind == BRACE_L else None
        node.update(Definition=None, ObjectDefinition=None)
        return node

    def fragment(self) -> Node:
        _, comment = self.expect(SPREAD)
        tok = self.peek()
        if tok.kind == NAME and tok.value != "on":
            spread: Node = {"Position": self.peek_pos(), "Comment": comment}
            spread["Name"] = self.fragment_name()
            spread["Directives"] = self.directives(False)
            spread.update(ObjectDefinition=None, Definition=None)
            return spread
        node: Node = {"Position": self.peek_pos(), "Comment": comment, "TypeCondition": ""}
        if self.peek().value == "on":
            self.next()
            node["TypeCondition"] = self.name()
        node["Directives"] = self.directives(False)
        node["SelectionSet"] = self.required_selection_set()
        node["ObjectDefinition"] = None
        return node

    def fragment_definition(self) -> Node:
        node: Node = {"Position": self.peek_pos(), "Comment": self.comment}
        self.expect_keyword("fragment")
        node["Name"] = self.fragment_name()
        node["VariableDefinition"] = self.variable_definitions()
        self.expect_keyword("on")
        node["TypeCondition"] = self.name()
        node["Directives"] = self.directives(False)
        node["SelectionSet"] = self.required_selection_set()
        node["Definition"] = None
        return node

    def fragment_name(self) -> str:
        if self.peek().value == "on":
            self.unexpected()
            return ""
        return self.name()

    # ------------------------------------------------------------ schemas

    def schema_document(self) -> Node | None:
        doc: Node = {"Schema": [], "SchemaExtension": [], "Directives": []}
        doc.update(Definitions=[], Extensions=[])
        while self.peek().kind != EOF:
            if self.err is not None:
                return None
            description: tuple[str, Node | None] = ("", None)
            if self.peek().kind in (BLOCK_STRING, STRING):
                description = self.description()
            tok = self.peek()
            if tok.kind != NAME:
                self.unexpected()
                break
            if tok.value in ("scalar", "type", "interface", "union", "enum", "input"):
                doc["Definitions"].append(self.type_definition(description))
            elif tok.value == "schema":
                doc["Schema"].append(self.schema_definition(description))
            elif tok.value == "directive":
                doc["Directives"].append(self.directive_definition(description))
            elif tok.value == "extend":
                if description[0]:
                    self.unexpected(self.prev)
                self.type_system_extension(doc)
            else:
                self.unexpected()
                return None
        doc["Comment"] = self.comment
        return doc

    def description(self) -> tuple[str, Node | None]:
        tok = self.peek()
        if tok.kind not in (BLOCK_STRING, STRING):
            return "", None
        comment = self.comment
        return self.next().value, comment

    def _definition(
        self, kind: str, description: tuple[str, Node | None], after: Node | None
    ) -> Node:
        return {
            "Kind": kind,
            "Description": description[0],
            "Name": "",
            "Directives": None,
            "Interfaces": None,
            "Fields": None,
            "Types": None,
            "EnumValues": None,
            "BuiltIn": False,
            "BeforeDescriptionComment": description[1],
            "AfterDescriptionComment": after,
            "EndOfDefinitionComment": None,
        }

    def type_definition(self, description: tuple[str, Node | None]) -> Node:
        keyword = self.peek().value
        _, comment = self.expect_keyword(keyword)
        kind = {"scalar": "SCALAR", "type": "OBJECT", "interface": "INTERFACE"}
        kind.update(union="UNION", enum="ENUM", input="INPUT_OBJECT")
        node = self._definition(kind[keyword], description, comment)
        node["Position"] = self.peek_pos()
        node["Name"] = self.name()
        self._definition_body(node, keyword, const_directives=True)
        return node

    def _definition_body(self, node: Node, keyword: str, *, const_directives: bool) -> None:
        if keyword in ("type", "interface"):
            node["Interfaces"] = self.implements_interfaces()
        node["Directives"] = self.directives(const_directives)
        if keyword in ("type", "interface"):
            node["EndOfDefinitionComment"] = self.some(
                BRACE_L, BRACE_R, lambda: _append(node, "Fields", self.field_def())
            )
        elif keyword == "input":
            node["EndOfDefinitionComment"] = self.some(
                BRACE_L, BRACE_R, lambda: _append(node, "Fields", self.input_def())
            )
        elif keyword == "enum":
            node["EndOfDefinitionComment"] = self.some(
                BRACE_L, BRACE_R, lambda: _append(node, "EnumValues", self.enum_def())
            )
        elif keyword == "union":
            node["Types"], node["TypePositions"] = self.union_member_types()

    def schema_definition(self, description: tuple[str, Node | None]) -> Node:
        _, comment = self.expect_keyword("schema")
        node: Node = {"Description": description[0], "OperationTypes": None}
        node["Position"] = self.peek_pos()
        node["BeforeDescriptionComment"] = description[1]
        node["AfterDescriptionComment"] = comment
        node["Directives"] = self.directives(True)
        node["EndOfDefinitionComment"] = self.some(
            BRACE_L,
            BRACE_R,
            lambda: _append(node, "OperationTypes", self.operation_type_def()),
        )
        return node

    def operation_type_def(self) -> Node:
        node: Node = {"Position": self.peek_pos(), "Comment": self.comment}
        node["Operation"] = self.operation_type()
        self.expect(COLON)
        node["Type"] = self.name()
        return node

    def implements_interfaces(self) -> list[str]:
        types: list[str] = []
        if self.peek().value == "implements":
            self.next()
            self.skip(AMP)
            types.append(self.name())
            while self.skip(AMP) and self.err is None:
                types.append(self.name())
        return types

    def _described(self) -> Node:
        node: Node = {"Description": "", "BeforeDescriptionComment": None}
        text, comment = self.description()
        if text:
            node["BeforeDescriptionComment"] = comment
            node["Description"] = text
        self.peek()
        node["AfterDescriptionComment"] = self.comment
        node["Position"] = self.peek_pos()
        node["Name"] = self.name()
        return node

    def field_def(self) -> Node:
        node = self._described()
        node["Arguments"] = self.argument_defs()
        self.expect(COLON)
        node["Type"] = self.type_reference()
        node["Directives"] = self.directives(True)
        node["DefaultValue"] = None
        return node

    def argument_defs(self) -> list[Node]:
        found: list[Node] = []
        self.some(PAREN_L, PAREN_R, lambda: found.append(self.input_def()))
        return found

    def input_def(self) -> Node:
        node = self._described()
        self.expect(COLON)
        node["Type"] = self.type_reference()
        node["DefaultValue"] = self.value_literal(True) if self.skip(EQUALS) else None
        node["Directives"] = self.directives(True)
        return node

    def enum_def(self) -> Node:
        node = self._described()
        node["Directives"] = self.directives(True)
        return node

    def union_member_types(self) -> tuple[list[str], list[Position | None]]:
        types: list[str] = []
        positions: list[Position | None] = []
        if self.skip(EQUALS):
            self.skip(PIPE)
            positions.append(self.peek_pos())
            types.append(self.name())
            while self.skip(PIPE) and self.err is None:
                positions.append(self.peek_pos())
                types.append(self.name())
        return types, positions

    def type_system_extension(self, doc: Node) -> None:
        _, comment = self.expect_keyword("extend")
        keyword = self.peek().value
        if keyword == "schema":
            self.expect_keyword("schema")
            node: Node = {"Description": "", "OperationTypes": None}
            node["Position"] = self.peek_pos()
            node["AfterDescriptionComment"] = comment
            node["Directives"] = self.directives(True)
            node["EndOfDefinitionComment"] = self.some(
                BRACE_L,
                BRACE_R,
                lambda: _append(node, "OperationTypes", self.operation_type_def()),
            )
            if not node["Directives"] and not node["OperationTypes"]:
                self.unexpected()
            doc["SchemaExtension"].append(node)
            return
        kinds = {"scalar": "SCALAR", "type": "OBJECT", "interface": "INTERFACE"}
        kinds.update(union="UNION", enum="ENUM", input="INPUT_OBJECT")
        if keyword not in kinds:
            self.unexpected()
            return
        self.expect_keyword(keyword)
        node = self._definition(kinds[keyword], ("", None), comment)
        node["Position"] = self.peek_pos()
        node["Name"] = self.name()
        if keyword == "interface":
            # gqlparser's interface extensions take no "implements" clause.
            node["Directives"] = self.directives(True)
            node["EndOfDefinitionComment"] = self.some(
                BRACE_L, BRACE_R, lambda: _append(node, "Fields", self.field_def())
            )
        else:
            self._definition_body(node, keyword, const_directives=keyword != "input")
        parts = {
            "scalar": ("Directives",),
            "type": ("Interfaces", "Directives", "Fields"),
            "interface": ("Directives", "Fields"),
            "union": ("Directives", "Types"),
            "enum": ("Directives", "EnumValues"),
            "input": ("Directives", "Fields"),
        }[keyword]
        if not any(node[part] for part in parts):
            self.unexpected()
        doc["Extensions"].append(node)

    def directive_definition(self, description: tuple[str, Node | None]) -> Node:
        _, comment = self.expect_keyword("directive")
        self.expect(AT)
        node: Node = {"Description": description[0], "IsRepeatable": False}
        node["Position"] = self.peek_pos()
        node["BeforeDescriptionComment"] = description[1]
        node["AfterDescriptionComment"] = comment
        node["Name"] = self.name()
        node["Arguments"] = self.argument_defs()
        tok = self.peek()
        if tok.kind == NAME and tok.value == "repeatable":
            node["IsRepeatable"] = True
            self.skip(NAME)
        self.expect_keyword("on")
        self.skip(PIPE)
        locations = [self.directive_location()]
        while self.skip(PIPE) and self.err is None:
            locations.append(self.directive_location())
        node["Locations"] = locations
        return node

    def directive_location(self) -> str:
        tok, _ = self.expect(NAME)
        if tok.value in DIRECTIVE_LOCATIONS:
            return tok.value
        self.unexpected(tok)
        return ""


def _append(node: Node, key: str, item: Node) -> None:
    if node[key] is None:
        node[key] = []
    node[key].append(item)


def _position(tok: Token) -> Position:
    return Position(tok.line, tok.column)


def _value(
    raw: str,
    kind: int,
    children: list[Node] | None,
    comment: Node | None,
    position: Position | None,
) -> Node:
    return {
        "Position": position,
        "Raw": raw,
        "Children": children,
        "Kind": kind,
        "Comment": comment,
        "Definition": None,
        "VariableDefinition": None,
        "ExpectedType": None,
        "ExpectedTypeHasDefault": False,
    }


_UNEXPORTED = frozenset(("Position", "TypePositions"))


def prune(value: Any) -> Any:
    """OPA's pruning of a gqlparser AST: drop ``Position``, nulls, and empty
    arrays/objects (after pruning them), at every level."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in _UNEXPORTED or item is None:
                continue
            if isinstance(item, (dict, list)):
                item = prune(item)
                if not item:
                    continue
            out[key] = item
        return out
    if isinstance(value, list):
        items: list[Any] = []
        for item in value:
            if item is None:
                continue
            if isinstance(item, (dict, list)):
                item = prune(item)
                if not item:
                    continue
            items.append(item)
        return items
    return value


def parse_query(text: str) -> Node:
    """A query document (unpruned); raises :class:`GraphQLSyntaxError`."""
    parser = Parser(text)
    doc = parser.query_document()
    if parser.err is not None:
        raise parser.err
    return doc


def parse_schema(text: str) -> Node:
    """A schema document (unpruned); raises :class:`GraphQLSyntaxError`."""
    parser = Parser(text)
    doc = parser.schema_document()
    if parser.err is not None:
        raise parser.err
    assert doc is not None
    return doc
