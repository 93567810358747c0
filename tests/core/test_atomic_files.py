"""Output files are replaced whole or not at all."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from scan_fixtures import ENC_RULE, state, write, write_json

from engine.cli.main import app
from engine.core.atomic_files import write_atomically


def test_writes_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_atomically(target, b"first")
    assert target.read_bytes() == b"first"
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    target.chmod(0o640)
    write_atomically(target, b"second")
    assert target.read_bytes() == b"second"
    assert target.stat().st_mode & 0o777 == 0o640  # an existing file keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.json"
    target.write_bytes(b"previous run")

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, b"x" * 100_000)
    assert target.read_bytes() == b"previous run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_symlink_at_the_target_is_replaced_not_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep")
    link = tmp_path / "out.json"
    link.symlink_to(elsewhere)
    write_atomically(link, b"new")
    assert elsewhere.read_text() == "keep"
    assert not link.is_symlink() and link.read_bytes() == b"new"


def test_scan_output_is_not_truncated_when_the_disk_fills(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = write_json(tmp_path / "in" / "state.json", state({"a": {"acl": "private"}}))
    rules = write(tmp_path / "rules" / "enc.rego", ENC_RULE).parent
    out = tmp_path / "results.json"
    out.write_text('{"previous": "results"}')

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    result = CliRunner().invoke(
        app, ["scan", str(inputs), "-d", str(rules), "-f", "json", "-o", str(out)]
    )
    assert result.exit_code == 2
    assert f"error: {out}: No space left on device" in result.stderr
    assert out.read_text() == '{"previous": "results"}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "results.json", "rules"]


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current
