"""Shell completion for bash, zsh and fish.

``--show-completion`` prints the completion script for the current shell and
``--install-completion`` installs it. The script calls the command back with
``_REGO_ENGINE_COMPLETE=complete_<shell>`` and the words typed so far in
``COMP_WORDS`` (the word being completed at index ``COMP_CWORD``); the
command prints the candidates, one per line, and exits.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

SHELLS = ("bash", "zsh", "fish")

_BASH = """\
{func}() {{
    local IFS=$'\\n'
    COMPREPLY=($(COMP_WORDS="${{COMP_WORDS[*]}}" COMP_CWORD=$COMP_CWORD \\
        {var}=complete_bash "$1"))
    return 0
}}

complete -o default -F {func} {prog}
"""

_ZSH = """\
#compdef {prog}

{func}() {{
    local -a candidates
    candidates=("${{(@f)$(COMP_WORDS="${{words[*]}}" COMP_CWORD=$((CURRENT - 1)) \\
        {var}=complete_zsh {prog})}}")
    if [[ -n "${{candidates[*]}}" ]]; then
        compadd -U -- "${{candidates[@]}}"
    else
        _files
    fi
}}

(( $+functions[compdef] )) || {{ autoload -Uz compinit && compinit }}
compdef {func} {prog}
"""

_FISH = """\
function {func}
    set -l words (commandline -opc) (commandline -ct)
    env COMP_WORDS="$words" COMP_CWORD=(math (count $words) - 1) \\
        {var}=complete_fish {prog}
end

complete -c {prog} -a '({func})'
"""

_SCRIPTS = {"bash": _BASH, "zsh": _ZSH, "fish": _FISH}


def complete_var(prog_name: str) -> str:
    """The environment variable the completion script sets: ``_REGO_ENGINE_COMPLETE``."""
    return f"_{prog_name.replace('-', '_').upper()}_COMPLETE"


def completion_script(prog_name: str, shell: str) -> str:
    """The completion script of ``prog_name`` for ``shell`` (one of :data:`SHELLS`)."""
    func = f"_{prog_name.replace('-', '_').lower()}_completion"
    return _SCRIPTS[shell].format(func=func, var=complete_var(prog_name), prog=prog_name)


def _current_shell() -> str:
    """The shell this command runs under; a usage error when it is not supported."""
    import shellingham

    try:
        name = shellingham.detect_shell()[0]
    except shellingham.ShellDetectionFailure:
        name = Path(os.environ.get("SHELL", "")).name
    if name not in SHELLS:
        raise click.UsageError(
            f"completion for the shell {name or '(unknown)'!r} is not supported "
            f"(supported: {', '.join(SHELLS)})"
        )
    return name


def _install_target(shell: str, prog_name: str) -> tuple[Path, Path | None]:
    """Where the script of ``shell`` goes, and the start-up file that must source it."""
    home = Path.home()
    if shell == "fish":  # fish loads completions from this directory by itself
        return home / ".config" / "fish" / "completions" / f"{prog_name}.fish", None
    if shell == "zsh":
        return home / ".zsh_completions" / f"{prog_name}.zsh", home / ".zshrc"
    return home / ".bash_completions" / f"{prog_name}.sh", home / ".bashrc"


def install(prog_name: str, shell: str) -> Path:
    """Write the script of ``shell`` and source it from the shell's start-up file
    (once); returns where the script was written."""
    script, rc_file = _install_target(shell, prog_name)
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(completion_script(prog_name, shell), encoding="utf-8")
    if rc_file is not None:
        line = f"source {script}"
        existing = rc_file.read_text(encoding="utf-8") if rc_file.is_file() else ""
        if line not in existing.splitlines():
            with rc_file.open("a", encoding="utf-8") as rc:
                rc.write(("\n" if existing and not existing.endswith("\n") else "") + line + "\n")
    return script


def show_completion(ctx: click.Context, value: bool) -> None:
    """``--show-completion``: print the script of the current shell and exit."""
    if value and not ctx.resilient_parsing:
        click.echo(completion_script(ctx.find_root().info_name or "rego-engine", _current_shell()))
        ctx.exit()


def install_completion(ctx: click.Context, value: bool) -> None:
    """``--install-completion``: install the script of the current shell and exit."""
    if value and not ctx.resilient_parsing:
        shell = _current_shell()
        path = install(ctx.find_root().info_name or "rego-engine", shell)
        click.echo(f"{shell} completion installed in {path}")
        click.echo("Completion will take effect once you restart the terminal")
        ctx.exit()


def run_completion(command: click.Command, ctx_args: Any, prog_name: str) -> None:
    """Answer a completion request when the completion variable is set: print
    the candidates for the words in ``COMP_WORDS`` and exit."""
    instruction = os.environ.get(complete_var(prog_name))
    if not instruction:
        return
    shell = instruction.removeprefix("complete_")
    if not instruction.startswith("complete_") or shell not in SHELLS:
        sys.exit(1)
    from click.shell_completion import ShellComplete, split_arg_string

    words = split_arg_string(os.environ.get("COMP_WORDS", ""))
    try:
        cword = int(os.environ.get("COMP_CWORD", ""))
    except ValueError:
        cword = len(words)
    incomplete = words[cword] if 0 <= cword < len(words) else ""
    completer = ShellComplete(command, ctx_args, prog_name, complete_var(prog_name))
    for item in completer.get_completions(words[1:cword], incomplete):
        if item.type == "plain":
            click.echo(item.value)
    sys.exit(0)
