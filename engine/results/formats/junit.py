"""JUnit XML, for CI systems that show test reports.

A ``testsuite`` per rule (named ``ID: title``), a ``testcase`` per result
(named by resource id and result tag, classed by input): a ``failure`` for a
failing result, its text giving the primary location and a ``related:``
line for each other located part of the result, ``skipped`` for an ignored
one. A rule's error on an input
is a testcase with an ``error``; errors outside any rule are testcases of a
suite named ``rego-engine``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from engine.core.terminal_text import printable
from engine.results.formats.view import (
    by_rule,
    resource_label,
    result_places,
    unlisted_rule_errors,
)
from engine.results.report import WARN_LEVEL, ScanReport

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold, even escaped."""


def _text(value: str) -> str:
    """``value`` on one line (line breaks of every kind and invisible characters
    shown as escapes, :func:`~engine.core.terminal_text.printable`), as XML can hold it:
    a CI printing the report never prints a line the rules or inputs began."""
    return _NOT_XML.sub("\ufffd", printable(value))


def _counted(suite: ET.Element) -> None:
    cases = suite.findall("testcase")
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
    suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))
    suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))


def render(report: ScanReport) -> bytes:
    """The JUnit XML document of a scan (UTF-8, deterministic)."""
    root = ET.Element("testsuites", {"name": "rego-engine"})
    rule_errors: dict[str, list[tuple[str, str]]] = {}
    for scan_input, package, error in unlisted_rule_errors(report):
        rule_errors.setdefault(package, []).append((scan_input.name, error))
    for group in by_rule(report):
        suite = ET.SubElement(root, "testsuite", {"name": _text(group.heading)})
        properties = ET.SubElement(suite, "properties")
        for name, value in (
            ("package", group.package),
            ("id", group.metadata.id),
            ("severity", group.metadata.severity),
        ):
            ET.SubElement(properties, "property", {"name": name, "value": _text(value)})
        for scan_input, result in group.results():
            case = ET.SubElement(
                suite,
                "testcase",
                {"name": _text(resource_label(result)), "classname": _text(scan_input.name)},
            )
            if result.ignored:
                reason = result.ignore_reason or "in the ignore file"
                ET.SubElement(case, "skipped", {"message": _text(f"ignored: {reason}")})
            elif not result.passed:
                failure = ET.SubElement(
                    case,
                    "failure",
                    {
                        "message": _text(result.message or group.heading),
                        "type": _text(
                            WARN_LEVEL
                            if result.level == WARN_LEVEL
                            else result.severity or "failure"
                        ),
                    },
                )
                details = [f"rule: {group.heading} ({group.package})"]
                details.append(f"resource: {resource_label(result)} ({result.resource_type})")
                places = result_places(result)
                if places.primary is not None:
                    details.append(f"location: {places.primary.point} ({places.primary.label})")
                details += [f"related: {p.label} at {p.point}" for p in places.related]
                if result.severity:
                    details.append(f"severity: {result.severity}")
                if result.remediation:
                    details.append(f"remediation: {result.remediation}")
                failure.text = "\n".join(_text(line) for line in details)
        for input_name, error in rule_errors.get(group.package, []):
            attributes = {"name": "(rule error)", "classname": _text(input_name)}
            case = ET.SubElement(suite, "testcase", attributes)
            ET.SubElement(case, "error", {"message": _text(error), "type": "error"})
        _counted(suite)
    if report.errors:
        suite = ET.SubElement(root, "testsuite", {"name": "rego-engine"})
        for error in report.errors:
            case = ET.SubElement(suite, "testcase", {"name": "(scan error)", "classname": "scan"})
            ET.SubElement(case, "error", {"message": _text(error), "type": "error"})
        _counted(suite)
    suites = root.findall("testsuite")
    for name in ("tests", "failures", "errors", "skipped"):
        root.set(name, str(sum(int(s.get(name, "0")) for s in suites)))
    ET.indent(root)
    document: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return document + b"\n"
