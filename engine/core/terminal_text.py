"""Text from inputs and rules made safe to show on a terminal.

File names, rule ids, titles and messages come from whoever wrote the scanned
tree or the rules. Shown raw, an escape sequence could retitle the window,
clear the screen, forge a hyperlink or hide a finding, a carriage return could
overwrite a line, and a newline could split a table row. Every control
character (C0, DEL, C1) and every bidirectional override is shown as an
escape instead (``\\x1b``, ``\\n``, ``\\u202e``); other text is unchanged.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character that would act on a terminal shown as an escape."""
    return _UNSAFE.sub(_escape, text)
