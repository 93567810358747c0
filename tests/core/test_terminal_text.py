"""Terminal injection: text from inputs and rules never acts on the terminal."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from scan_fixtures import state, write, write_json

from engine.cli.main import app
from engine.core.terminal_text import printable
from engine.results.formats import render
from engine.scanning.scanner import scan

HOSTILE_RULE = """\
package rules.hostile
import rego.v1

metadata := {
\t"id": "HOST\\u001b[2J-1",
\t"title": "Title\\u001b]0;pwned\\u0007 with\\rcarriage",
\t"severity": "high",
}

deny contains {"resource": r, "message": msg} if {
\tsome r in input.resources.aws_s3_bucket
\tmsg := "line one\\nFAIL  fake row \\u001b]8;;http://x\\u001b\\\\link\\u202e"
}
"""


def test_printable_escapes_what_a_terminal_acts_on() -> None:
    assert printable("plain text, ünïcödé ✓") == "plain text, ünïcödé ✓"
    assert printable("a\x1b[31mb") == "a\\x1b[31mb"
    assert printable("one\ntwo\rthree\tfour") == "one\\ntwo\\rthree\\tfour"
    assert printable("\x00\x07\x7f\x9b") == "\\x00\\x07\\x7f\\x9b"
    assert printable("abc\u202edef\u2066") == "abc\\u202edef\\u2066"


def _hostile_scan(tmp_path: Path):
    name = "bad\x1b]0;title\x07.json"
    inputs = write_json(tmp_path / "in" / name, state({"x": {"acl": "private"}}))
    rules = write(tmp_path / "rules" / "hostile.rego", HOSTILE_RULE).parent
    return inputs, rules


def test_the_table_shows_hostile_text_escaped(tmp_path: Path) -> None:
    inputs, rules = _hostile_scan(tmp_path)
    report = scan([inputs.parent], [rules])
    plain = render(report, "table", color=False, width=400).decode()
    assert "\x1b" not in plain and "\r" not in plain and "\u202e" not in plain
    assert "HOST\\x1b[2J-1" in plain
    assert "Title\\x1b]0;pwned\\x07 with\\rcarriage" in plain
    assert "line one\\nFAIL  fake row \\x1b]8;;http://x\\x1b\\link\\u202e" in plain
    assert sum(line.startswith("FAIL") for line in plain.splitlines()) == 1
    coloured = render(report, "table", color=True).decode()
    assert "\x1b]" not in coloured  # rich's own colours only: no OSC sequence
    assert "\x1b[2J" not in coloured and "\x07" not in coloured


def test_stderr_lines_show_hostile_text_escaped(tmp_path: Path) -> None:
    bad = tmp_path / "in" / "evil\x1b[2J.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("{not json")
    result = CliRunner().invoke(app, ["scan", str(bad.parent), "-f", "json"])
    assert result.exit_code in (2, 3)
    assert "\x1b" not in result.stderr
    assert "evil\\x1b[2J.json" in result.stderr
