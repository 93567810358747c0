"""Inline suppression comments in HCL and YAML files.

A comment on the line of a resource's declaration, or on the comment lines
directly above it (no blank line between), suppresses one rule for that
resource::

    # rego-engine:ignore RE-AWS-003 The logs bucket is private by policy
    # checkov:skip=CKV_AWS_20:Served through CloudFront
    # tfsec:ignore:aws-s3-enable-bucket-encryption Encrypted by the account default

HCL takes ``#`` and ``//`` comments, YAML ``#`` comments; a marker inside a
string, a heredoc or a block scalar is not a comment. Finding them is pure:
the text of one file gives its suppressions. Which resource and rule each
applies to is decided with the scan's results (``engine.results``).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Literal

Syntax = Literal["hcl", "yaml"]

_MARKERS = ("rego-engine:ignore", "checkov:skip=", "tfsec:ignore:")
_OURS = re.compile(r"rego-engine:ignore(?=\s|$)\s*(?P<rule>\S*)\s*(?P<reason>.*)", re.DOTALL)
_CHECKOV = re.compile(r"checkov:skip=(?P<rule>[^:\s]*)(?::(?P<reason>.*))?(?P<rest>.*)", re.DOTALL)
_TFSEC = re.compile(r"tfsec:ignore:(?P<rule>[^:\s]*)(?P<rest>.*)", re.DOTALL)
_HCL_TOKENS = re.compile(r'#|//|/\*|"|<<-?([A-Za-z_][\w-]*)[ \t]*\r?\n|\n')
_TEMPLATE_TOKENS = re.compile(r'\\.|\$\{|%\{|"|\n', re.DOTALL)
_CODE_IN_TEMPLATE = re.compile(r'[{}"\n]')


@dataclass(frozen=True, order=True)
class InlineSuppression:
    """One suppression comment: where it is written and what it names."""

    file: str
    """The display path of the file, as source locations give it."""
    line: int
    """The line of the comment (1-based)."""
    target_line: int | None
    """The line of the declaration it applies to; None when no line follows the
    comment block directly."""
    spelling: str
    """``rego-engine``, ``checkov`` or ``tfsec``: which tool's spelling."""
    rule: str
    """The rule id it names: a rule's id (ours) or one of its ``aliases`` (peers')."""
    reason: str
    problem: str = ""
    """Why the comment cannot apply (written wrongly); empty when it can."""

    @property
    def where(self) -> str:
        """``file:line`` of the comment."""
        return f"{self.file}:{self.line}"


def find_suppressions(
    text: str | bytes, path: str, syntax: Syntax
) -> tuple[InlineSuppression, ...]:
    """Every suppression comment of one file's ``text`` (``path``: its display path)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not any(marker in text for marker in _MARKERS):
        return ()
    lines = source_lines(text, syntax)
    starts = _hcl_comment_starts(text) if syntax == "hcl" else _yaml_comment_starts(text, lines)
    found: list[InlineSuppression] = []
    for line_no, column in sorted(starts.items()):
        content = lines[line_no - 1]
        skip = 2 if content.startswith("//", column) else 1
        body = content[column + skip :].strip()
        parsed = _parse(body)
        if parsed is None:
            continue
        spelling, rule, reason, problem = parsed
        target: int | None = line_no
        if not content[:column].strip():
            target = _declaration_below(line_no, lines, starts)
        found.append(InlineSuppression(path, line_no, target, spelling, rule, reason, problem))
    return tuple(found)


_LINE_BREAKS: dict[str, re.Pattern[str]] = {
    "hcl": re.compile(r"\r?\n"),
    "yaml": re.compile(r"\r\n|[\r\n\x85\u2028\u2029]"),
}
"""Where each syntax's parser ends a line: HCL at ``\n`` (``\r\n``); YAML
(libyaml, YAML 1.1) also at ``\r``, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
Never ``str.splitlines``, which also breaks at ``\v``, ``\f``, ``\x1c``-``\x1e``
and, for HCL, at the separators a string may hold: a comment's line must be
the line the parser reports for the declaration below it."""


def source_lines(text: str, syntax: Syntax) -> list[str]:
    """``text`` cut into lines as the parser of ``syntax`` numbers them."""
    return _LINE_BREAKS[syntax].split(text)


def _parse(body: str) -> tuple[str, str, str, str] | None:
    """(spelling, rule, reason, problem) of a comment's text; None when it is no suppression."""
    if (ours := _OURS.fullmatch(body)) is not None:
        rule = ours["rule"]
        problem = "" if rule else "names no rule id"
        return "rego-engine", rule, ours["reason"].strip(), problem
    if (checkov := _CHECKOV.fullmatch(body)) is not None:
        rule = checkov["rule"]
        problem = "" if rule else "names no check id"
        reason = (checkov["reason"] or "").strip()
        if checkov["reason"] is None and checkov["rest"].strip():
            problem = problem or "needs ':' between the check id and the reason"
        return "checkov", rule, reason, problem
    if (tfsec := _TFSEC.fullmatch(body)) is not None:
        rule, rest = tfsec["rule"], tfsec["rest"]
        problem = "" if rule else "names no check id"
        if rest.startswith(":"):
            problem = problem or "qualifiers after the check id (':exp:', ':ws:') are not supported"
        return "tfsec", rule, rest.strip(), problem
    return None


def _declaration_below(line_no: int, lines: list[str], starts: dict[int, int]) -> int | None:
    """The line a comment block starting at ``line_no`` sits directly above."""
    below = line_no + 1
    while below in starts and not lines[below - 1][: starts[below]].strip():
        below += 1
    if below > len(lines) or not lines[below - 1].strip():
        return None
    return below


def _hcl_comment_starts(text: str) -> dict[int, int]:
    """Line → column (0-based) where a ``#`` or ``//`` comment starts on it, in
    HCL native syntax: strings (with their templates), heredocs and block
    comments are skipped."""
    starts: dict[int, int] = {}
    line, line_start, pos = 1, 0, 0
    while (token := _HCL_TOKENS.search(text, pos)) is not None:
        kind, pos = token.group(), token.end()
        if kind == "\n":
            line, line_start = line + 1, pos
        elif kind in ("#", "//"):
            starts[line] = token.start() - line_start
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
        elif kind == "/*":
            end = text.find("*/", pos)
            end = len(text) if end < 0 else end + 2
            newlines = text.count("\n", pos, end)
            if newlines:
                line, line_start = line + newlines, text.rfind("\n", pos, end) + 1
            pos = end
        elif kind == '"':
            pos, added, last = _skip_string(text, pos)
            if added:
                line, line_start = line + added, last
        else:  # a heredoc: its lines up to the one holding only the delimiter
            line, line_start = line + 1, pos
            delimiter = token.group(1)
            while pos < len(text):
                end = text.find("\n", pos)
                end = len(text) if end < 0 else end
                closing = text[pos:end].strip() == delimiter
                pos = min(end + 1, len(text))
                if end < len(text):
                    line, line_start = line + 1, pos
                if closing:
                    break
    return starts


def _skip_string(text: str, pos: int) -> tuple[int, int, int]:
    """Past the quoted string whose body starts at ``pos`` (templates nested):
    (end, newlines crossed, offset after the last newline)."""
    newlines, last = 0, 0
    strings = 1  # open strings, each with the template depth it was opened at
    depth: list[int] = []  # brace depth of each open template
    while strings and pos < len(text):
        in_template = len(depth) >= strings
        pattern = _CODE_IN_TEMPLATE if in_template else _TEMPLATE_TOKENS
        token = pattern.search(text, pos)
        if token is None:
            return len(text), newlines, last
        kind, pos = token.group(), token.end()
        if kind == "\n":
            newlines, last = newlines + 1, pos
        elif kind in ("${", "%{"):
            depth.append(1)
        elif kind == '"':
            if in_template:
                strings += 1
            else:
                strings -= 1
        elif kind == "{":
            depth[-1] += 1
        elif kind == "}":
            depth[-1] -= 1
            if depth[-1] == 0:
                depth.pop()
    return pos, newlines, last


def _yaml_comment_starts(text: str, lines: list[str]) -> dict[int, int]:
    """Line → column (0-based) where a ``#`` comment starts on it: a ``#`` at
    the start of a line or after a space, outside every scalar."""
    import yaml

    spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
    try:
        for token in yaml.scan(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(token, yaml.ScalarToken):
                start, end = token.start_mark, token.end_mark
                spans.append(((start.line, start.column), (end.line, end.column)))
    except yaml.YAMLError:
        return {}  # the loader reports the file; it has no resources to suppress for
    spans.sort()
    starts: dict[int, int] = {}
    for index, content in enumerate(lines):
        column = content.find("#")
        while column >= 0:
            after_space = column == 0 or content[column - 1] in " \t"
            if after_space and not _inside(spans, (index, column)):
                starts[index + 1] = column
                break
            column = content.find("#", column + 1)
    return starts


def _inside(
    spans: list[tuple[tuple[int, int], tuple[int, int]]], position: tuple[int, int]
) -> bool:
    """Whether ``position`` (0-based line, column) lies within one of the sorted ``spans``."""
    at = bisect.bisect_right(spans, (position, (1 << 62, 0)))
    return at > 0 and spans[at - 1][0] <= position < spans[at - 1][1]
