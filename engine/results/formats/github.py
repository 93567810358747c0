"""GitHub Actions workflow commands: one annotation per failing result.

``::error file=F,line=L,col=C,title=T::message``, the command chosen by the
result's severity (error for critical and high, warning for medium and
unknown words, notice for low), placed at the result's primary location,
values escaped as the Actions runner decodes them. The message ends with a
``related: <resource> at <file:line>`` line for each other located part of
the result. Ignored results are not annotated. Scan and rule errors are
``::error``, warnings ``::warning``, with ``file``/``line`` when the message
starts with a location; a plain summary line ends the output.
"""

from __future__ import annotations

from engine.core.terminal_text import printable
from engine.results.formats.view import (
    ErrorLocator,
    SourcePoint,
    by_rule,
    input_file,
    resource_label,
    result_level,
    result_places,
    scan_counts,
    unlisted_rule_errors,
)
from engine.results.report import ScanReport

COMMAND_BY_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(value: str) -> str:
    """A command's message: ``%``, CR and LF percent-encoded."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A command property value: as :func:`escape_data`, plus ``:`` and ``,``."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: str | int | None) -> str:
    """One workflow command line; properties that are None are left out."""
    given = [f"{k}={escape_property(str(v))}" for k, v in properties.items() if v is not None]
    head = f"::{name} {','.join(given)}" if given else f"::{name}"
    return f"{head}::{escape_data(message)}"


def located(name: str, message: str, point: SourcePoint | None, title: str) -> str:
    """A command placed at ``point`` (file, line and column as far as known)."""
    if point is None:
        return command(name, message, title=title)
    return command(
        name,
        message,
        file=printable(point.filepath),
        line=point.line,
        col=point.column,
        title=title,
    )


def render(report: ScanReport) -> bytes:
    """The annotations of a scan, one per line. Text from the rules and the inputs
    is shown on one line each (:func:`~engine.core.terminal_text.printable`):
    only the engine's own line breaks separate the lines of a message."""
    lines: list[str] = []
    for group in by_rule(report):
        for scan_input, result in group.results():
            if result.passed or result.ignored:
                continue
            places = result_places(result)
            point = places.primary.point if places.primary is not None else None
            filepath = point.filepath if point is not None else input_file(scan_input)
            text = result.message or group.metadata.title
            message = f"{printable(resource_label(result))}: {printable(text)}"
            if result.remediation:
                message += f"\n{printable(result.remediation)}"
            message += "".join(
                f"\nrelated: {printable(p.label)} at {printable(str(p.point))}"
                for p in places.related
            )
            title = f"{group.heading} [{result.severity}]" if result.severity else group.heading
            lines.append(
                command(
                    COMMAND_BY_LEVEL[result_level(result)],
                    message,
                    file=printable(filepath) if filepath is not None else None,
                    line=point.line if point is not None else None,
                    col=point.column if point is not None else None,
                    title=printable(title),
                )
            )
    locate = ErrorLocator.of(report).locate
    lines += [located("error", printable(e), locate(e), "rego-engine") for e in report.errors]
    lines += [
        located(
            "error",
            printable(f"{scan_input.name}: {error}"),
            locate(error),
            printable(f"rego-engine: {package}"),
        )
        for scan_input, package, error in unlisted_rule_errors(report)
    ]
    lines += [located("warning", printable(w), locate(w), "rego-engine") for w in report.warnings]
    lines.append(f"rego-engine: {scan_counts(report).line()}")
    return ("\n".join(lines) + "\n").encode()
