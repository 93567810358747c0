"""No tracebacks: an internal error is one line with a hint; --debug shows the traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine import cli


def _boom(*_args: object, **_kwargs: object) -> object:
    raise KeyError("injected failure")


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "argv", ["rego-engine", *argv])
    monkeypatch.setattr(cli, "_DEBUG", False)
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    return int(stopped.value.code or 0)


def test_internal_error_is_one_line_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "load_inputs", _boom)
    assert _run(["state", str(tmp_path)], monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "error: internal error: KeyError: 'injected failure' "
        "(a bug in rego-engine: rerun with --debug for the traceback and report it)"
    ]


def test_debug_shows_the_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "load_inputs", _boom)
    monkeypatch.setattr(sys, "argv", ["rego-engine", "--debug", "state", str(tmp_path)])
    with pytest.raises(KeyError, match="injected failure") as raised:
        cli.main()
    assert any(entry.name == "_boom" for entry in raised.traceback)
