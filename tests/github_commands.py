"""GitHub Actions workflow commands read back as the Actions runner reads them."""

from __future__ import annotations

import re


def decode_command(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command as the Actions runner reads it: name, properties, message."""
    match = re.fullmatch(r"::(\w+)(?: ([^:]*))?::(.*)", line)
    assert match, line
    name, props, message = match.groups()

    def unescape(value: str) -> str:
        for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
            value = value.replace(code, char)
        return value

    properties = {}
    for pair in (props or "").split(","):
        if pair:
            key, _, value = pair.partition("=")
            properties[key] = unescape(value)
    return name, properties, unescape(message)
