"""Reading files only inside the root they were found under."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.core import confined_files
from engine.core.confined_files import (
    NotRegularFileError,
    OutsideRootError,
    is_inside,
    read_confined,
)
from engine.core.paths import REPO_ROOT


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "secret.txt").write_text("TOKEN")
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "real.txt").write_text("inside")
    return root


def test_a_regular_file_inside_the_root_is_read(tree: Path) -> None:
    assert read_confined(tree / "sub" / "real.txt", tree) == b"inside"


def test_a_link_staying_inside_the_root_is_read(tree: Path) -> None:
    (tree / "link.txt").symlink_to("sub/real.txt")
    assert read_confined(tree / "link.txt", tree) == b"inside"


@pytest.mark.parametrize("relative", [True, False])
def test_a_link_leaving_the_root_is_refused(tree: Path, relative: bool) -> None:
    link = tree / "sub" / "leak.txt"
    link.symlink_to("../../secret.txt" if relative else tree.parent / "secret.txt")
    with pytest.raises(OutsideRootError) as refused:
        read_confined(link, tree)
    assert refused.value.strerror.startswith("symbolic link leads outside ")
    assert refused.value.filename == str(link)


def test_a_file_below_a_linked_directory_leaving_the_root_is_refused(tree: Path) -> None:
    (tree / "escape").symlink_to(tree.parent, target_is_directory=True)
    with pytest.raises(OutsideRootError):
        read_confined(tree / "escape" / "secret.txt", tree)


def test_a_root_that_is_itself_a_link_is_taken_as_given(tree: Path) -> None:
    alias = tree.parent / "alias"
    alias.symlink_to(tree, target_is_directory=True)
    assert read_confined(alias / "sub" / "real.txt", alias) == b"inside"


def test_without_a_root_the_path_is_read_as_given(tree: Path) -> None:
    (tree / "named.txt").symlink_to(tree.parent / "secret.txt")
    assert read_confined(tree / "named.txt", None) == b"TOKEN"


def test_a_fifo_is_refused_without_blocking(tree: Path) -> None:
    os.mkfifo(tree / "pipe.txt")
    with pytest.raises(NotRegularFileError):
        read_confined(tree / "pipe.txt", tree)


def test_the_check_is_on_the_opened_file_not_the_path(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link swapped to point outside after the path was looked at is still
    refused: what counts is the file the descriptor holds."""
    link = tree / "swap.txt"
    link.symlink_to("sub/real.txt")
    real_open = os.open

    def swapping_open(path: str | os.PathLike[str], flags: int, *args: int) -> int:
        if Path(path) == link:  # the race: the link changes just before the open
            link.unlink()
            link.symlink_to(tree.parent / "secret.txt")
        return real_open(path, flags, *args)

    monkeypatch.setattr(confined_files.os, "open", swapping_open)
    with pytest.raises(OutsideRootError):
        read_confined(link, tree)


def test_the_inode_check_refuses_a_path_changed_after_the_open(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``/proc``, the opened file must be the one the resolved path names."""
    link = tree / "swap.txt"
    link.symlink_to(tree.parent / "secret.txt")
    real_realpath = os.path.realpath

    def no_proc(path: str) -> str:
        raise OSError(2, "no /proc")

    def realpath(path: str | os.PathLike[str]) -> str:
        if Path(path) == link:  # swapped between the open and the check
            return real_realpath(tree / "sub" / "real.txt")
        return real_realpath(path)

    monkeypatch.setattr(confined_files.os, "readlink", no_proc)
    monkeypatch.setattr(confined_files.os.path, "realpath", realpath)
    with pytest.raises(OutsideRootError):
        read_confined(link, tree)


def test_is_inside_compares_whole_path_segments() -> None:
    assert is_inside("/a/b", "/a/b") and is_inside("/a/b/c", "/a/b") and is_inside("/x", "/")
    assert not is_inside("/a/bc", "/a/b") and not is_inside("/a", "/a/b")


def test_a_hard_link_is_read_as_the_file_it_is_and_the_limit_is_documented(
    tmp_path: Path,
) -> None:
    """A hard link has no target to check: the file inside the tree is the outside
    file. Refusing files with more than one link would refuse pnpm and Nix trees,
    so the limit is stated in SECURITY.md instead (archives extracted with their
    hard links)."""
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"runner secret")
    tree = tmp_path / "tree"
    tree.mkdir()
    os.link(outside, tree / "linked.txt")
    assert read_confined(tree / "linked.txt", tree) == b"runner secret"
    security = (REPO_ROOT / "SECURITY.md").read_text(encoding="utf-8")
    assert "hard link" in security
    assert "test_a_hard_link_is_read_as_the_file_it_is_and_the_limit_is_documented" in security
