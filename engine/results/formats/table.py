"""The terminal table: results grouped by rule, coloured by severity, the
failing results per severity, the resources no rule checked by type, and a
summary line with the scan's counts.

Each rule is a heading (severity, id, title, package) followed by its
failing, ignored and errored results (passing ones are counted, not listed)
and its counts; a rule without results or errors (nothing it checks was
scanned) is counted in the summary only. A result's row shows its primary
location; a dim sub-row under it gives each other located resource or
attribute path. Severity words are matched case-insensitively.
"""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from engine.core.terminal_text import printable
from engine.results.code_excerpts import CodeLines, excerpt
from engine.results.coverage import scan_coverage
from engine.results.formats.view import (
    RuleGroup,
    by_rule,
    failed_by_severity,
    input_file,
    resource_label,
    result_places,
    scan_counts,
    unlisted_rule_errors,
)
from engine.results.report import WARN_LEVEL, ScanReport

SEVERITY_STYLES = {
    "critical": "bold white on red",
    "high": "bold red",
    "medium": "yellow",
    "low": "cyan",
}
"""Style of each severity word (lower case); other words are dim."""

DEFAULT_WIDTH = 120


def severity_style(severity: str) -> str:
    """The style of a severity word, matched case-insensitively."""
    return SEVERITY_STYLES.get(severity.strip().lower(), "dim")


def _severity(severity: str) -> Text:
    return Text(printable(severity.upper()) or "-", style=severity_style(severity))


def _heading(group: RuleGroup) -> Text:
    meta = group.metadata
    heading = Text()
    heading.append_text(_severity(meta.severity))
    heading.append("  ")
    # separators end the span before them: leading spaces in a span are lost
    # by some SVG renderers of the screenshot
    heading.append(f"{printable(group.rule_id)}  ", style="bold")
    if meta.title:
        heading.append(f"{printable(meta.title)}  ")
    if group.rule_id != group.package:
        heading.append(printable(group.package), style="dim")
    return heading


def _rows(
    group: RuleGroup,
    rule_errors: list[tuple[str, str]],
    show_ignored: bool = True,
    code: CodeLines | None = None,
) -> Table | None:
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False, expand=False)
    table.add_column("status", no_wrap=True)
    table.add_column("severity", no_wrap=True)
    table.add_column("resource", overflow="fold", max_width=44)
    table.add_column("location", overflow="fold")
    table.add_column("message", overflow="fold", ratio=1)
    for scan_input, result in group.results():
        if (result.passed and not result.ignored) or (result.ignored and not show_ignored):
            continue
        places = result_places(result)
        if places.primary is not None:
            where = str(places.primary.point)
        else:
            where = input_file(scan_input) or scan_input.name
        if result.ignored:
            status = Text("IGNORED", style="dim")
            message = Text(
                printable(f"{result.message} (ignored: {result.ignore_reason})"), style="dim"
            )
        else:
            status = (
                Text("WARN", style="bold yellow")
                if result.level == WARN_LEVEL
                else Text("FAIL", style="bold red")
            )
            message = Text(printable(result.message))
        if code is not None and places.primary is not None:
            _add_excerpt(message, code, places.primary.point.filepath, places.primary.point.line)
        table.add_row(
            status,
            _severity(result.severity),
            Text(printable(resource_label(result))),
            Text(printable(where)),
            message,
        )
        for place in places.related:
            table.add_row(
                Text(""),
                Text(""),
                Text(printable(f"↳ {place.label}"), style="dim"),
                Text(printable(str(place.point)), style="dim"),
                Text("related", style="dim"),
            )
    for input_name, error in rule_errors:
        table.add_row(
            Text("ERROR", style="bold magenta"),
            Text(""),
            Text(""),
            Text(printable(input_name)),
            Text(printable(error)),
        )
    return table if table.row_count else None


def _add_excerpt(message: Text, code: CodeLines, path: str, line: int | None) -> None:
    """Append the source lines around ``path:line`` to a result's message cell."""
    if line is None:
        return
    for number, text in excerpt(code.lines(path), line):
        current = number == line
        message.append(
            f"\n{'>' if current else ' '}{number:>5} | ", style="bold" if current else "dim"
        )
        message.append(printable(text.rstrip()), style="" if current else "dim")


def _severity_line(report: ScanReport) -> Text | None:
    """``Failed: 1 critical, 3 high, 0 medium, 2 low`` (None when nothing failed)."""
    counts = failed_by_severity(report)
    if not any(n for _, n in counts):
        return None
    out = Text("Failed by severity: ")
    for position, (severity, count) in enumerate(counts):
        if position:
            out.append(", ")
        out.append(
            f"{count} {printable(severity)}", style=severity_style(severity) if count else "dim"
        )
    return out


def _group_counts(group: RuleGroup, errors: int) -> Text:
    results = [r for _, r in group.results()]
    passed = sum(1 for r in results if r.passed and not r.ignored)
    failing = [r for r in results if not r.passed and not r.ignored]
    failed = sum(1 for r in failing if r.level != WARN_LEVEL)
    warned = len(failing) - failed
    ignored = sum(1 for r in results if r.ignored)
    out = Text("  ")
    out.append(f"{passed} passed", style="green" if passed else "dim")
    out.append(", ")
    out.append(f"{failed} failed", style="red" if failed else "dim")
    if warned:
        out.append(f", {warned} warned", style="yellow")
    if ignored:
        out.append(f", {ignored} ignored", style="dim")
    if errors:
        out.append(f", {errors} error{'s' if errors > 1 else ''}", style="magenta")
    return out


def _renderables(
    report: ScanReport,
    quiet: bool = False,
    show_ignored: bool = True,
    code: CodeLines | None = None,
) -> list[object]:
    rule_errors: dict[str, list[tuple[str, str]]] = {}
    for scan_input, package, error in unlisted_rule_errors(report):
        rule_errors.setdefault(package, []).append((scan_input.name, error))
    listed = set(report.errors)
    out: list[object] = []
    for group in by_rule(report):
        # a compile error is the same on every input: shown once, without one
        compile_errors = sorted({e for _, e in group.errors() if f"{group.package}: {e}" in listed})
        errors = [("", e) for e in compile_errors] + rule_errors.get(group.package, [])
        if not errors and not group.results():
            continue  # the rule found nothing to check: counted in the summary only
        rows = _rows(group, errors, show_ignored, code)
        if quiet and rows is None:
            continue  # every result passed: nothing to report
        parts: list[RenderableType] = [_heading(group)]
        if rows is not None:
            parts.append(rows)
        parts.append(_group_counts(group, len(errors)))
        out.append(Group(*parts))
        out.append(Text())
    counts = scan_counts(report)
    summary = Text(counts.line(), style="bold")
    if counts.failed or counts.errors:
        summary.stylize("red")
    else:
        summary.stylize("green")
    severities = _severity_line(report)
    if severities is not None:
        out.append(severities)
    coverage = scan_coverage(report)
    if coverage.uncovered:
        out.append(Text(coverage.line(), style="yellow"))
    out.append(summary)
    return out


def _console(width: int, color: bool, record: bool = False) -> Console:
    return Console(
        file=io.StringIO(),
        width=width,
        color_system="truecolor" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        record=record,
        legacy_windows=False,
    )


def render(
    report: ScanReport,
    *,
    color: bool = False,
    width: int = DEFAULT_WIDTH,
    quiet: bool = False,
    show_ignored: bool = True,
    code: CodeLines | None = None,
) -> bytes:
    """The table as text: with ANSI colours when ``color``, ``width`` columns wide; with
    ``quiet``, rules whose every result passed are left out, and without ``show_ignored``
    ignored (accepted, baselined, suppressed) results are not listed (the counts keep both).
    With ``code``, each listed result is followed by the source lines around its place."""
    console = _console(width, color)
    for renderable in _renderables(report, quiet, show_ignored, code):
        console.print(renderable)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue().encode()


def render_svg(report: ScanReport, *, width: int = DEFAULT_WIDTH, title: str = "") -> str:
    """The coloured table as an SVG terminal screenshot (rich's export)."""
    console = _console(width, True, record=True)
    for renderable in _renderables(report):
        console.print(renderable)
    return console.export_svg(title=title or "rego-engine scan")
