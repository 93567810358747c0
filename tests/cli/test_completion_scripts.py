"""The completion scripts of each shell, where ``--install-completion`` puts them,
and the answer for a shell that is not supported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import completion
from engine.cli.main import app

ENGINE = str(Path(sys.executable).parent / "rego-engine")


@pytest.mark.parametrize("shell", completion.SHELLS)
def test_each_script_calls_the_command_back_for_its_shell(shell: str) -> None:
    script = completion.completion_script("rego-engine", shell)
    assert f"_REGO_ENGINE_COMPLETE=complete_{shell}" in script
    assert "_rego_engine_completion" in script and "COMP_WORDS=" in script


def test_the_zsh_and_fish_protocols_answer_like_bash() -> None:
    for shell in completion.SHELLS:
        env = {
            "_REGO_ENGINE_COMPLETE": f"complete_{shell}",
            "COMP_WORDS": "rego-engine scan --severity h",
            "COMP_CWORD": "3",
        }
        proc = subprocess.run([ENGINE], env=env, capture_output=True, text=True, check=True)
        assert proc.stdout.split() == ["high"], shell


def test_an_unknown_instruction_answers_nothing() -> None:
    env = {
        "_REGO_ENGINE_COMPLETE": "complete_tcsh",
        "COMP_WORDS": "rego-engine ",
        "COMP_CWORD": "1",
    }
    proc = subprocess.run([ENGINE], env=env, capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout == ""


@pytest.mark.parametrize(
    ("shell", "script", "rc_file"),
    [
        ("bash", ".bash_completions/rego-engine.sh", ".bashrc"),
        ("zsh", ".zsh_completions/rego-engine.zsh", ".zshrc"),
        ("fish", ".config/fish/completions/rego-engine.fish", None),
    ],
)
def test_installing_writes_the_script_and_sources_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shell: str, script: str, rc_file: str | None
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for _ in range(2):
        written = completion.install("rego-engine", shell)
    assert written == tmp_path / script
    assert written.read_text() == completion.completion_script("rego-engine", shell)
    if rc_file is not None:
        assert (tmp_path / rc_file).read_text().splitlines() == [f"source {written}"]


def test_install_completion_names_the_file_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(completion, "_current_shell", lambda: "bash")
    result = CliRunner().invoke(app, ["--install-completion"])
    assert result.exit_code == 0
    assert f"bash completion installed in {tmp_path / '.bash_completions/rego-engine.sh'}" in (
        result.stdout
    )


def test_an_unsupported_shell_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import shellingham

    def undetected() -> tuple[str, str]:
        raise shellingham.ShellDetectionFailure()

    monkeypatch.setattr(shellingham, "detect_shell", undetected)
    monkeypatch.setenv("SHELL", "/bin/tcsh")
    result = CliRunner().invoke(app, ["--show-completion"])
    assert result.exit_code == 2
    assert "completion for the shell 'tcsh' is not supported" in result.stderr
