"""Bytes as a Go string reaches Rego: each invalid UTF-8 byte becomes U+FFFD."""

from __future__ import annotations

import codecs


def _go_replace(err: UnicodeError) -> tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)
    return "\ufffd", err.start + 1


codecs.register_error("rego_go_replace", _go_replace)


def go_string(data: bytes) -> str:
    """Bytes as a Go string reaches Rego: each invalid UTF-8 byte becomes U+FFFD."""
    return data.decode("utf-8", "rego_go_replace")
