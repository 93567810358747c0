"""The error of a document that cannot be read: its message and, when known, its line."""

from __future__ import annotations


class DocumentError(ValueError):
    """A file cannot be loaded; ``line`` (1-based) when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
