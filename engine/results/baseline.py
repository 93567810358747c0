"""Baselines: the failures a repository already has, so a scan reports only new ones.

``scan --baseline-write FILE`` records every failing result of a scan;
``scan --baseline FILE`` marks the failing results recorded there as ignored
(with the reason "in the baseline FILE"): they stay in every output, counted
as ignored, and never fail the scan. A finding is recorded by its identity:
the input it was found in (its path as shown), the rule (metadata id, else
package), the resource (namespace, type, id) and the result tag, so it
survives reordering, new resources and other rules' changes, and a resource
of the same name in another file is a new finding.

The file is JSON::

    {"format": "rego-engine-baseline", "format_version": 2,
     "findings": [{"input": "infra/main.tf", "rule": "RE-AWS-003",
                   "resource_namespace": "infra", "resource_type": "aws_s3_bucket",
                   "resource_id": "aws_s3_bucket.logs", "result_tag": ""}]}

Version 1 files (no input) are still read, matching a finding in any input,
with a warning to write the baseline again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.results.report import ScanReport

FORMAT = "rego-engine-baseline"
FORMAT_VERSION = 2
_FIELDS = ("input", "rule", "resource_namespace", "resource_type", "resource_id", "result_tag")
_FIELDS_V1 = _FIELDS[1:]
ANY_INPUT = None
"""The input of a version 1 finding: it matches the finding in every input."""

Finding = tuple[str | None, str, str, str, str, str]
"""(input, rule, resource namespace, resource type, resource id, result tag)."""


class BaselineError(ValueError):
    """A baseline file that cannot be used; the message names the file."""


@dataclass(frozen=True)
class Baseline:
    """The findings a baseline file records."""

    path: str
    findings: frozenset[Finding]
    warning: str | None = None
    """Why the file should be written again (an older format), if it should."""

    def records(self, finding: Finding) -> bool:
        """Whether ``finding`` is recorded (in its input, or in any for version 1)."""
        return finding in self.findings or (ANY_INPUT, *finding[1:]) in self.findings


def failing_findings(report: ScanReport) -> list[Finding]:
    """The identities of the report's failing results (ignored ones included), sorted."""
    found = {
        (
            entry.input.name,
            rule.metadata.id or rule.package,
            result.resource_namespace,
            result.resource_type,
            result.resource_id,
            result.result_tag,
        )
        for entry in report.inputs
        for rule in entry.rule_results
        for result in rule.results
        if not result.passed
    }
    return sorted(found)


def baseline_document(report: ScanReport) -> bytes:
    """The baseline file recording the report's failing results (deterministic)."""
    doc = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "findings": [dict(zip(_FIELDS, f, strict=True)) for f in failing_findings(report)],
    }
    return json.dumps(doc, indent=2, sort_keys=True).encode() + b"\n"


def load_baseline(path: Path) -> Baseline:
    """Read a baseline file; :class:`BaselineError` names the file (and line) when it
    cannot be used."""
    try:
        doc = json.loads(path.read_bytes())
    except OSError as exc:
        raise BaselineError(f"{path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise BaselineError(f"{path}: not valid UTF-8 ({exc.reason})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BaselineError(f"{path}: not a baseline file (format {FORMAT!r} expected)")
    version = doc.get("format_version")
    if version not in (1, FORMAT_VERSION):
        raise BaselineError(
            f"{path}: baseline format_version {version!r} is not {FORMAT_VERSION} (or 1)"
        )
    fields = _FIELDS if version == FORMAT_VERSION else _FIELDS_V1
    entries = doc.get("findings")
    if not isinstance(entries, list):
        raise BaselineError(f"{path}: 'findings' must be a list")
    findings: set[Finding] = set()
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in fields):
            raise BaselineError(
                f"{path}: finding {position} must have the strings {', '.join(fields)}"
            )
        values = [entry[k] for k in fields]
        if version == FORMAT_VERSION:
            input_name, rule, namespace, rtype, rid, tag = values
        else:
            input_name = ANY_INPUT
            rule, namespace, rtype, rid, tag = values
        findings.add((input_name, rule, namespace, rtype, rid, tag))
    warning = None
    if version == 1:
        warning = (
            f"{path}: a version 1 baseline names no input file, so its findings match in "
            "every input; write it again with --baseline-write"
        )
    return Baseline(str(path), frozenset(findings), warning)


def apply_baseline(report: ScanReport, baseline: Baseline) -> int:
    """Mark the failing results ``baseline`` records as ignored, with the baseline as
    the reason; returns how many were marked."""
    marked = 0
    if baseline.warning is not None and baseline.warning not in report.warnings:
        report.warnings.append(baseline.warning)
    for entry in report.inputs:
        for rule in entry.rule_results:
            rule_name = rule.metadata.id or rule.package
            for result in rule.results:
                identity = (
                    entry.input.name,
                    rule_name,
                    result.resource_namespace,
                    result.resource_type,
                    result.resource_id,
                    result.result_tag,
                )
                if not result.passed and not result.ignored and baseline.records(identity):
                    result.ignored = True
                    result.ignore_reason = f"in the baseline {baseline.path}"
                    marked += 1
    return marked
