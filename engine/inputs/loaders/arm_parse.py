"""ARM template expressions parsed: function calls on string and integer literals,
with property access (``.name``) and indexing (``[expr]``), as a tree of nodes."""

from __future__ import annotations

from dataclasses import dataclass

from engine.inputs.loaders.arm_tokens import ExpressionSyntaxError, tokens


@dataclass(frozen=True)
class Literal:
    value: str | int | bool | None


KEYWORDS: dict[str, bool | None] = {"true": True, "false": False, "null": None}
"""Bare words that are literals (the functions ``true()`` ... are also known)."""


@dataclass(frozen=True)
class Call:
    name: str
    arguments: tuple[Node, ...]


@dataclass(frozen=True)
class Member:
    target: Node
    name: str


@dataclass(frozen=True)
class Index:
    target: Node
    index: Node


Node = Literal | Call | Member | Index


@dataclass
class _Parser:
    tokens: list[tuple[str, str]]
    position: int = 0

    def peek(self, offset: int = 0) -> tuple[str, str] | None:
        at = self.position + offset
        return self.tokens[at] if at < len(self.tokens) else None

    def take(self, text: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (text is not None and token[1] != text):
            raise ExpressionSyntaxError(f"expected {text or 'more'}")
        self.position += 1
        return token

    def expression(self) -> Node:
        node = self.primary()
        while (token := self.peek()) is not None and token[1] in (".", "["):
            self.take()
            if token[1] == ".":
                kind, name = self.take()
                if kind != "name":
                    raise ExpressionSyntaxError("expected a property name")
                node = Member(node, name)
            else:
                node = Index(node, self.expression())
                self.take("]")
        return node

    def primary(self) -> Node:
        kind, text = self.take()
        if kind == "string":
            return Literal(text[1:-1].replace("''", "'"))
        if kind == "number":
            return Literal(int(text))
        if kind != "name":
            raise ExpressionSyntaxError(f"unexpected {text!r}")
        following = self.peek()
        if text.lower() in KEYWORDS and (following is None or following[1] != "("):
            return Literal(KEYWORDS[text.lower()])
        name = text
        while self._namespaced():  # user-defined functions: namespace.name(...)
            self.take()
            name = f"{name}.{self.take()[1]}"
        self.take("(")
        arguments: list[Node] = []
        if (token := self.peek()) is not None and token[1] == ")":
            self.take()
            return Call(name.lower(), ())
        while True:
            arguments.append(self.expression())
            if self.take()[1] == ")":
                return Call(name.lower(), tuple(arguments))
            if self.tokens[self.position - 1][1] != ",":
                raise ExpressionSyntaxError("expected , or )")

    def _namespaced(self) -> bool:
        dot, name, paren = self.peek(), self.peek(1), self.peek(2)
        return (
            dot is not None
            and dot[1] == "."
            and name is not None
            and name[0] == "name"
            and paren is not None
            and paren[1] == "("
        )


def parse_expression(text: str) -> Node:
    """The syntax tree of an expression (the text inside the brackets)."""
    parser = _Parser(tokens(text))
    node = parser.expression()
    left = parser.peek()
    if left is not None:
        raise ExpressionSyntaxError(f"unexpected {left[1]!r}")
    return node
