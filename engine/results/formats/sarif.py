"""SARIF 2.1.0, for code-scanning UIs.

One run; the driver lists one ``reportingDescriptor`` per rule (id, name,
short and full description, help as text and Markdown, ``helpUri``, default
level and GitHub's ``security-severity`` from the metadata). A rule's
``helpUri`` is its documentation page when a docs URL is given (``{id}`` in
it replaced by the rule's metadata id; a URL without ``{id}`` is the base of
``URL/ID.md`` pages), else its first reference. Every failing result is a SARIF
result with its ``ruleId``, a level mapped from its severity, its message, a
physical location (file, line, column: the first attribute path's when the
result names any, else its resource's) when its resources are located, a
logical location naming the resource, ``relatedLocations`` for the result's
other located resources and attribute paths (each with a message naming
it), and a ``partialFingerprints`` entry hashed from the result identity.
Ignored results carry a suppression with the ignore entry's reason. Scan
and rule errors are tool notifications, located when they start with one.
"""

from __future__ import annotations

import importlib.metadata
from typing import Any
from urllib.parse import quote

from engine.inputs.discovery import ScanInput
from engine.results.building import Result
from engine.results.formats.view import (
    ErrorLocator,
    RuleGroup,
    SourcePoint,
    by_rule,
    input_file,
    result_fingerprint,
    result_level,
    result_places,
    severity_level,
    unlisted_rule_errors,
)
from engine.results.report import ScanReport
from engine.wasm import values

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "regoEngineResultIdentity/v2"

SECURITY_SEVERITY = {"critical": "9.5", "high": "8.0", "medium": "5.5", "low": "2.0"}
"""GitHub's numeric ``security-severity`` of each severity word (its ranges:
critical 9–10, high 7–8.9, medium 4–6.9, low 0.1–3.9)."""


def render(report: ScanReport, *, docs_url: str | None = None) -> bytes:
    """The SARIF log of a scan as JSON text (sorted keys, deterministic); ``docs_url``:
    the template of each rule's documentation address (:func:`help_uri`)."""
    groups = by_rule(report)
    ids = _descriptor_ids(groups)
    results: list[dict[str, Any]] = []
    for index, group in enumerate(groups):
        for scan_input, result in group.results():
            if not result.passed:
                results.append(_result(ids[index], index, group, scan_input, result))
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "rego-engine",
                "semanticVersion": _engine_version(),
                "version": _engine_version(),
                "rules": [_descriptor(ids[i], g, docs_url) for i, g in enumerate(groups)],
            }
        },
        "results": results,
        "invocations": [_invocation(report, groups, ids)],
    }
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return values.dumps_json(log, indent=True) + b"\n"


def _engine_version() -> str:
    try:
        return importlib.metadata.version("rego-engine")
    except importlib.metadata.PackageNotFoundError:
        return "0.0.0"


def _descriptor_ids(groups: list[RuleGroup]) -> list[str]:
    """Each rule's descriptor id: its metadata id, or its package when it has
    none or shares its id with another package."""
    claimed: dict[str, int] = {}
    for group in groups:
        claimed[group.rule_id] = claimed.get(group.rule_id, 0) + 1
    return [g.rule_id if claimed[g.rule_id] == 1 else g.package for g in groups]


def _help_text(group: RuleGroup) -> str:
    meta = group.metadata
    lines: list[str] = []
    if isinstance(meta.remediation, str) and meta.remediation:
        lines.append(meta.remediation)
    elif isinstance(meta.remediation, dict):
        for key in sorted(meta.remediation):
            text = meta.remediation[key]
            if isinstance(text, str) and text:
                lines.append(f"{key}: {text}")
    if meta.references:
        lines.append("References: " + ", ".join(meta.references))
    return "\n".join(lines) or meta.description or meta.title or group.package


def help_uri(group: RuleGroup, docs_url: str | None) -> str | None:
    """The address of a rule's documentation: ``docs_url`` with ``{id}`` replaced by the
    rule's metadata id (a ``docs_url`` without ``{id}`` gives ``docs_url/ID.md``) when
    both are given, else the rule's first http(s) reference, else None."""
    meta = group.metadata
    if docs_url and meta.id:
        ident = quote(meta.id, safe="")
        if "{id}" in docs_url:
            return docs_url.replace("{id}", ident)
        return f"{docs_url.rstrip('/')}/{ident}.md"
    return next((r for r in meta.references if r.startswith(("https://", "http://"))), None)


def _help_markdown(group: RuleGroup) -> str:
    meta = group.metadata
    parts: list[str] = []
    if meta.description:
        parts.append(meta.description)
    if isinstance(meta.remediation, str) and meta.remediation:
        parts.append(f"**Remediation**: {meta.remediation}")
    elif isinstance(meta.remediation, dict):
        items = [
            f"- **{key}**: {meta.remediation[key]}"
            for key in sorted(meta.remediation)
            if isinstance(meta.remediation[key], str) and meta.remediation[key]
        ]
        if items:
            parts.append("**Remediation**\n\n" + "\n".join(items))
    if meta.references:
        parts.append("**References**\n\n" + "\n".join(f"- <{r}>" for r in meta.references))
    if meta.controls:
        parts.append("**Controls**: " + ", ".join(meta.controls))
    return "\n\n".join(parts) or meta.title or group.package


def _descriptor(rule_id: str, group: RuleGroup, docs_url: str | None = None) -> dict[str, Any]:
    meta = group.metadata
    title = meta.title or group.package
    properties: dict[str, Any] = {"package": group.package, "tags": ["security"]}
    if meta.severity:
        properties["severity"] = meta.severity
        score = SECURITY_SEVERITY.get(meta.severity.strip().lower())
        if score is not None:
            properties["security-severity"] = score
    if meta.category:
        properties["category"] = meta.category
    if meta.labels:
        properties["labels"] = values.to_json(meta.labels)
    if meta.controls:
        properties["controls"] = list(meta.controls)
    descriptor: dict[str, Any] = {
        "id": rule_id,
        "name": title,
        "shortDescription": {"text": title},
        "fullDescription": {"text": meta.description or title},
        "help": {"text": _help_text(group), "markdown": _help_markdown(group)},
        "defaultConfiguration": {"level": severity_level(meta.severity)},
        "properties": properties,
    }
    uri = help_uri(group, docs_url)
    if uri is not None:
        descriptor["helpUri"] = uri
    return descriptor


def _uri(path: str) -> str:
    """A file path as a URI reference: relative paths stay relative."""
    posix = path.replace("\\", "/")
    if posix.startswith("/"):
        return "file://" + quote(posix, safe="/")
    return quote(posix, safe="/")


def _physical(point: SourcePoint) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(point.filepath)}}
    if point.line is not None:
        region: dict[str, Any] = {"startLine": point.line}
        if point.column is not None:
            region["startColumn"] = point.column
        physical["region"] = region
    return physical


def _result(
    rule_id: str, rule_index: int, group: RuleGroup, scan_input: ScanInput, result: Result
) -> dict[str, Any]:
    label = result.resource_id or result.resource_type
    message = result.message or f"{label} fails {group.metadata.title or rule_id}"
    logical: dict[str, Any] = {"name": label or group.package, "kind": "resource"}
    if result.resource_namespace or result.resource_type:
        logical["fullyQualifiedName"] = "/".join(
            (result.resource_namespace, result.resource_type, result.resource_id)
        )
    location: dict[str, Any] = {"logicalLocations": [logical]}
    places = result_places(result)
    point = places.primary.point if places.primary is not None else None
    if point is None and input_file(scan_input) is not None:
        point = SourcePoint(str(input_file(scan_input)))
    if point is not None:
        location["physicalLocation"] = _physical(point)
    if places.primary is not None:
        location["message"] = {"text": places.primary.label}
    out: dict[str, Any] = {
        "ruleId": rule_id,
        "ruleIndex": rule_index,
        "level": result_level(result),
        "message": {"text": message},
        "locations": [location],
        "partialFingerprints": {
            FINGERPRINT_KEY: result_fingerprint(scan_input.name, rule_id, result)
        },
        "properties": {
            "input": scan_input.name,
            "resourceId": result.resource_id,
            "resourceNamespace": result.resource_namespace,
            "resourceType": result.resource_type,
            "resultTag": result.result_tag,
            "severity": result.severity,
        },
    }
    if places.related:
        out["relatedLocations"] = [
            {"id": n, "physicalLocation": _physical(p.point), "message": {"text": p.label}}
            for n, p in enumerate(places.related, start=1)
        ]
    if result.remediation:
        out["properties"]["remediation"] = result.remediation
    if result.ignored:
        suppression: dict[str, Any] = {"kind": "external", "status": "accepted"}
        if result.ignore_reason:
            suppression["justification"] = result.ignore_reason
        out["suppressions"] = [suppression]
    return out


def _notification(level: str, text: str, point: SourcePoint | None) -> dict[str, Any]:
    notification: dict[str, Any] = {"level": level, "message": {"text": text}}
    if point is not None:
        notification["locations"] = [{"physicalLocation": _physical(point)}]
    return notification


def _invocation(report: ScanReport, groups: list[RuleGroup], ids: list[str]) -> dict[str, Any]:
    locate = ErrorLocator.of(report).locate
    notifications = [_notification("error", e, locate(e)) for e in report.errors]
    index_of = {g.package: i for i, g in enumerate(groups)}
    for scan_input, package, error in unlisted_rule_errors(report):
        notification = _notification(
            "error", f"{scan_input.name}: {package}: {error}", locate(error)
        )
        if package in index_of:
            position = index_of[package]
            notification["associatedRule"] = {"id": ids[position], "index": position}
        notifications.append(notification)
    notifications += [_notification("warning", w, locate(w)) for w in report.warnings]
    return {
        "executionSuccessful": not report.has_errors,
        "toolExecutionNotifications": notifications,
    }
