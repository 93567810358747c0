"""ARM template expressions as text: which strings are expressions (``"[...]"``,
``[[`` escaping a literal ``[``), and an expression's tokens."""

from __future__ import annotations

import re


class ExpressionSyntaxError(ValueError):
    """Text that is not an ARM expression."""


_TOKEN = re.compile(
    r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>-?[0-9]+)"
    r"|(?P<name>[A-Za-z_$][A-Za-z0-9_$]*)|(?P<punct>[()\[\],.]))"
)


def expression_source(value: str) -> str | None:
    """The expression inside ``value`` (without brackets), or None when it is
    plain text."""
    if len(value) >= 2 and value[0] == "[" and value[-1] == "]" and value[1] != "[":
        return value[1:-1]
    return None


def literal_text(value: str) -> str:
    """A plain string's value: a leading ``[[`` stands for ``[``."""
    return value[1:] if value.startswith("[[") else value


def tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        found = _TOKEN.match(text, position)
        if found is None or found.lastgroup is None:
            raise ExpressionSyntaxError(f"unexpected {text[position:].strip()[:10]!r}")
        tokens.append((found.lastgroup, found.group(found.lastgroup)))
        position = found.end()
    return tokens
