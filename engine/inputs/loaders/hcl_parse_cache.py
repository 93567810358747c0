"""Each Terraform configuration file parsed once per run, whatever number of root
modules reach it through module calls.

Inside :func:`parse_once` (one run of :func:`engine.inputs.discovery.load_inputs`),
parsed files are kept by their display path and their text: a file reached again
with the same text is not parsed again. Outside it nothing is kept. Parsed
blocks are read, never changed, by the loader, so sharing them is safe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_PARSED: ContextVar[dict[tuple[str, str], Any] | None] = ContextVar("hcl_parsed", default=None)


@contextmanager
def parse_once() -> Iterator[None]:
    """A run in which each configuration file (by display path and text) is parsed once."""
    token = _PARSED.set({})
    try:
        yield
    finally:
        _PARSED.reset(token)


def parsed(display: str, text: str, parse: Callable[[str, str], T]) -> T:
    """``parse(text, display)``, or what it gave for the same file and text earlier
    in this run.
    A file that does not parse is not kept: its error is raised each time."""
    kept = _PARSED.get()
    if kept is None:
        return parse(text, display)
    key = (display, text)
    if key not in kept:
        kept[key] = parse(text, display)
    return kept[key]
