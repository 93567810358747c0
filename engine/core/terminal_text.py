"""Text from inputs and rules made safe to show on a terminal.

File names, rule ids, titles and messages come from whoever wrote the scanned
tree or the rules. Shown raw, an escape sequence could retitle the window,
clear the screen, forge a hyperlink or hide a finding, a carriage return could
overwrite a line, a line break of any kind (``\\n``, ``\\v``, NEL, U+2028,
U+2029, ...) could split a row or start a workflow command on a line of its
own, and an invisible format character (U+200B, U+FEFF, U+2060, a
bidirectional override) could make two different texts look the same. Every
control character (Unicode category Cc: C0, DEL, C1), format character (Cf),
line or paragraph separator (Zl, Zp) and surrogate is shown as an escape
instead (``\\x1b``, ``\\n``, ``\\u202e``); other text is unchanged.
"""

from __future__ import annotations

import re
import unicodedata

_CANDIDATE = re.compile("[^\x20-\x7e]")
"""Characters that may need an escape: everything but printable ASCII."""
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    if unicodedata.category(char) not in _ESCAPED_CATEGORIES:
        return char
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` on one line, with every character that would act on a terminal,
    break the line or hide itself shown as an escape."""
    return _CANDIDATE.sub(_escape, text)
