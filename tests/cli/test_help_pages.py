"""Every ``--help`` page, word for word: the command line's contract with its users
(option spellings, types in angle brackets, defaults, the Arguments section)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from engine.cli.main import app

PAGES = Path(__file__).parent / "help_pages"
COMMANDS = [
    "eval",
    "state",
    "scan",
    "build",
    "rules",
    "relations",
    "test",
    "fixture",
    "diff",
    "graph",
    "version",
]


def _help(*args: str) -> str:
    # the width an 80-column terminal gives (two columns are kept free)
    result = CliRunner().invoke(app, [*args, "--help"], terminal_width=78)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_application_help_lists_the_options_and_the_commands_in_order() -> None:
    assert _help() == (PAGES / "rego-engine.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_help_is_unchanged(command: str) -> None:
    assert _help(command) == (PAGES / f"{command}.txt").read_text(encoding="utf-8")


def test_every_command_has_a_help_page() -> None:
    assert sorted(app.list_commands(click.Context(app))) == sorted(COMMANDS)
    assert {p.stem for p in PAGES.glob("*.txt")} == {"rego-engine", *COMMANDS}
