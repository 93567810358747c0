"""Progress of long scans on stderr: a bar on a terminal, nothing otherwise.

The bar counts files while the inputs load (files loaded of files found), then
rule evaluations while the rules run (one per rule and input).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

ProgressHook = Callable[[int, int], None]
"""Called with (steps done, total steps)."""


@dataclass(frozen=True)
class ScanProgress:
    """The hooks of one progress display: loading files, then evaluating rules."""

    loading: ProgressHook
    scanning: ProgressHook


def progress_hooks(progress: Any, task: Any) -> ScanProgress:
    """Hooks updating the ``rich`` task ``task`` of ``progress``, each naming its phase."""

    def phase(name: str) -> ProgressHook:
        def update(done: int, total: int) -> None:
            progress.update(task, description=name, completed=done, total=total)

        return update

    return ScanProgress(loading=phase("loading files"), scanning=phase("scanning"))


@contextmanager
def scan_progress(*, color: bool = True) -> Iterator[ScanProgress | None]:
    """Progress hooks drawing a bar when stderr is a terminal (in colour unless
    ``color`` is False); None otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True, no_color=not color or None),
        transient=True,
    )
    task = progress.add_task("finding files", total=None)
    with progress:
        yield progress_hooks(progress, task)
