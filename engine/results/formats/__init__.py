"""Output formats of a scan: each a pure function from a ScanReport to bytes.

``table`` (terminal), ``json`` (the results document), ``sarif`` (SARIF
2.1.0), ``junit`` (JUnit XML) and ``github`` (workflow-command annotations).
:func:`plan_outputs` pairs ``--format`` and ``-o`` options.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.results.code_excerpts import CodeLines
    from engine.results.report import ScanReport

FORMATS = ("table", "json", "sarif", "junit", "github")
STDOUT = "-"
"""The ``-o`` value that means standard output."""


_MODULES = {
    "table": "table",
    "json": "json_document",
    "sarif": "sarif",
    "junit": "junit",
    "github": "github",
}
"""The module rendering each format, imported on first use (``table`` loads rich)."""


def render(
    report: ScanReport,
    fmt: str,
    *,
    color: bool = False,
    width: int | None = None,
    quiet: bool = False,
    show_ignored: bool = True,
    code: CodeLines | None = None,
    docs_url: str | None = None,
) -> bytes:
    """The report in format ``fmt`` (one of :data:`FORMATS`); ``color``, ``width``
    (default: the table's 120 columns) and ``quiet`` (leave out rules with nothing to
    report), ``show_ignored`` (list ignored results) and ``code`` (source lines under
    each result) apply to ``table`` only, ``docs_url`` (the template of each rule's
    documentation address) to ``sarif`` only."""
    if fmt not in _MODULES:
        raise ValueError(f"unknown format {fmt!r} ({', '.join(FORMATS)})")
    module = importlib.import_module(f"engine.results.formats.{_MODULES[fmt]}")
    render_format: Callable[..., bytes] = module.render
    if fmt == "table":
        if width is None:
            return render_format(
                report, color=color, quiet=quiet, show_ignored=show_ignored, code=code
            )
        return render_format(
            report, color=color, width=width, quiet=quiet, show_ignored=show_ignored, code=code
        )
    if fmt == "sarif":
        return render_format(report, docs_url=docs_url)
    return render_format(report)


@dataclass(frozen=True)
class OutputTarget:
    """One rendering of a scan: a format and where it goes (``-`` for stdout)."""

    format: str
    destination: str = STDOUT

    @property
    def to_stdout(self) -> bool:
        """Whether this rendering goes to standard output."""
        return self.destination == STDOUT


class OutputPlanError(ValueError):
    """``--format`` and ``-o`` options that do not pair up."""


def plan_outputs(
    formats: list[str], outputs: list[str], *, stdout_is_terminal: bool
) -> list[OutputTarget]:
    """Pair ``--format`` options with ``-o`` options, in the order given.

    - No ``-o``: at most one ``--format``, written to stdout; without one,
      ``table`` on a terminal, else ``json``.
    - With ``-o``: one ``--format`` per ``-o`` (the n-th format goes to the
      n-th output), or none at all for a single ``-o``, which gets ``json``
      (``table`` when it is ``-`` on a terminal). ``-`` is stdout.
    - Formats are case-insensitive; an output may be named once, stdout too.
    """
    wanted = [f.lower() for f in formats]
    unknown = [f for f in formats if f.lower() not in FORMATS]
    if unknown:
        raise OutputPlanError(f"unknown format {unknown[0]!r} ({', '.join(FORMATS)})")
    default = "table" if stdout_is_terminal else "json"
    if not outputs:
        if len(wanted) > 1:
            raise OutputPlanError(
                f"{len(wanted)} --format options need one -o each "
                "(e.g. --format sarif -o scan.sarif --format json -o -; '-' is stdout)"
            )
        return [OutputTarget(wanted[0] if wanted else default)]
    if not wanted and len(outputs) == 1:
        fmt = default if outputs[0] == STDOUT else "json"
        return [OutputTarget(fmt, outputs[0])]
    if len(wanted) != len(outputs):
        raise OutputPlanError(
            f"{len(wanted)} --format and {len(outputs)} -o options: give one --format "
            "per -o, in the same order (e.g. --format sarif -o scan.sarif --format json -o -)"
        )
    seen: set[str] = set()
    for destination in outputs:
        if destination in seen:
            shown = "stdout (-)" if destination == STDOUT else destination
            raise OutputPlanError(f"-o {shown} is given more than once")
        seen.add(destination)
    return [OutputTarget(f, o) for f, o in zip(wanted, outputs, strict=True)]
