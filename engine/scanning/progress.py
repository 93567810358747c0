"""Progress of long scans on stderr: a bar on a terminal, nothing otherwise."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def scan_progress(*, color: bool = True) -> Iterator[Callable[[int, int], None] | None]:
    """A progress hook drawing a bar when stderr is a terminal (in colour unless
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
        TextColumn("scanning"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True, no_color=not color or None),
        transient=True,
    )
    task = progress.add_task("scan", total=None)

    def update(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    with progress:
        yield update
