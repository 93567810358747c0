"""Real paths resolved once per directory: the same paths as ``Path.resolve()``,
and loading a directory of many files resolves each directory once."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.inputs.discovery import load_inputs
from engine.inputs.real_paths import RealPaths

MANIFEST = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m{n}\ndata:\n  k: v\n"


def _tree(root: Path) -> list[Path]:
    """Files, links to files and directories, a dangling link, a loop, and names with dots."""
    real = root / "real"
    (real / "sub").mkdir(parents=True)
    (real / "a.yaml").write_text("a: 1\n")
    (real / "sub" / "b.yaml").write_text("b: 1\n")
    (root / "linked").symlink_to(real, target_is_directory=True)
    (real / "to-a.yaml").symlink_to(real / "a.yaml")
    (real / "relative-to-b.yaml").symlink_to(Path("sub") / "b.yaml")
    (real / "dangling.yaml").symlink_to(root / "missing.yaml")
    (real / "loop.yaml").symlink_to(real / "loop.yaml")
    return [
        real / "a.yaml",
        real / "sub" / "b.yaml",
        root / "linked" / "a.yaml",
        root / "linked" / "sub" / "b.yaml",
        root / "linked" / "to-a.yaml",
        real / "relative-to-b.yaml",
        real / "dangling.yaml",
        real / "loop.yaml",
        real / "sub" / ".." / "a.yaml",
        real / "sub" / "..",
        real / ".",
        root / "linked" / "not-there.yaml",
        Path("/"),
    ]


def _outcome(resolve: Callable[[Path | str], Path], path: Path | str) -> Path | str:
    try:
        return resolve(path)
    except RuntimeError as exc:  # a symbolic link loop
        return str(exc)


def test_paths_resolve_as_pathlib_resolves_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _tree(tmp_path)
    monkeypatch.chdir(tmp_path / "linked")
    paths += [Path("a.yaml"), Path("sub/b.yaml"), Path("to-a.yaml"), Path("."), Path("x")]
    real_paths = RealPaths()
    for path in paths:
        expected = _outcome(lambda p: Path(p).resolve(), path)
        assert _outcome(real_paths.resolve, path) == expected, path
        assert _outcome(real_paths.resolve, str(path)) == expected, path
    assert real_paths.directory(tmp_path / "linked" / "sub") == str(tmp_path / "real" / "sub")


def test_a_directory_of_manifests_is_resolved_once_not_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(30):
        (tmp_path / f"m{n:02d}.yaml").write_text(MANIFEST.format(n=f"{n:02d}"))
    calls: list[str] = []
    realpath = os.path.realpath

    def counted(path: str, *args: object, **kwargs: object) -> str:
        calls.append(os.fspath(path))
        return realpath(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os.path, "realpath", counted)
    loaded = load_inputs([tmp_path])
    assert not loaded.problems
    assert len(loaded.inputs) == 1
    assert sorted(r.key for r in loaded.inputs[0].state.resources["ConfigMap"]) == [
        f"default.m{n:02d}" for n in range(30)
    ]
    assert set(calls) == {str(tmp_path)}  # the directory, never one of its files
