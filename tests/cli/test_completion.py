"""Shell completion: ``--show-completion``/``--install-completion`` are offered, and
the completion protocol completes commands, options and severity levels."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from engine.cli.main import app

ENGINE = str(Path(sys.executable).parent / "rego-engine")


def _complete_bash(words: str) -> list[str]:
    """What bash completion offers after ``words`` (the last word being completed)."""
    env = {
        **os.environ,
        "_REGO_ENGINE_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split(" ")) - 1),
    }
    proc = subprocess.run([ENGINE], env=env, capture_output=True, text=True, check=True)
    return proc.stdout.split()


def test_the_completion_options_are_listed() -> None:
    help_text = CliRunner().invoke(app, ["--help"]).stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text


def test_the_bash_script_calls_back_into_the_command() -> None:
    proc = subprocess.run(
        [ENGINE, "--show-completion", "bash"], capture_output=True, text=True, check=True
    )
    assert "_REGO_ENGINE_COMPLETE=complete_bash" in proc.stdout
    assert "complete -o default -F _rego_engine_completion rego-engine" in proc.stdout


def test_commands_options_and_levels_complete() -> None:
    assert _complete_bash("rego-engine sc") == ["scan"]
    assert _complete_bash("rego-engine scan --sev") == ["--severity"]
    assert _complete_bash("rego-engine scan --severity h") == ["high"]
    assert _complete_bash("rego-engine scan --fail-on n") == ["none"]
    assert _complete_bash("rego-engine scan --severity ") == ["low", "medium", "high", "critical"]
