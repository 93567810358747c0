"""The ignore file: accepted findings that must not fail the build.

``.rego-engine-ignore.yaml``::

    ignores:
      - rule: EXAMPLE_001              # metadata id, or package (rules.x / data.rules.x)
        resource: arn:aws:s3:::public  # optional: the result's resource id
        result_tag: ingress[22]        # optional: the result's result_tag
        reason: The public website bucket serves static files.
        expires: 2027-01-31            # optional: applies up to the day before

A result of the named rule matching every field given is marked
``ignored``; ignored results never fail a scan. An entry whose ``expires``
date has come (UTC) no longer applies and is reported as a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.yaml_nodes import YamlFileError, compose_file, line_of, mapping_items, plain_value
from engine.rules.selection import names_rule

if TYPE_CHECKING:
    import yaml

    from engine.results.building import Result
    from engine.results.report import ScanReport

DEFAULT_IGNORE_FILE = ".rego-engine-ignore.yaml"

_ENTRY_KEYS = ("rule", "resource", "result_tag", "reason", "expires")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class IgnoreEntry:
    """One accepted finding: a rule, optionally narrowed to a resource and a result tag."""

    rule: str
    reason: str
    resource: str | None = None
    result_tag: str | None = None
    expires: date | None = None
    source: str = ""
    """Where the entry is written, ``file:line``."""

    def expired(self, today: date) -> bool:
        """Whether the entry no longer applies on ``today``."""
        return self.expires is not None and today >= self.expires

    def matches(self, package_ref: str, rule_id: str, result: Result) -> bool:
        """Whether the entry covers ``result`` of the rule ``package_ref``/``rule_id``."""
        if not names_rule(self.rule, package_ref, rule_id):
            return False
        if self.resource is not None and self.resource != result.resource_id:
            return False
        return self.result_tag is None or self.result_tag == result.result_tag

    def describe(self) -> str:
        """The entry in words, for warnings."""
        parts = [f"rule {self.rule}"]
        if self.resource is not None:
            parts.append(f"resource {self.resource}")
        if self.result_tag is not None:
            parts.append(f"result_tag {self.result_tag}")
        return ", ".join(parts)


@dataclass(frozen=True)
class IgnoreList:
    """The entries of one ignore file."""

    entries: tuple[IgnoreEntry, ...] = ()
    path: str = ""


def load_ignore_file(path: Path, root: Path | None = None) -> IgnoreList:
    """Read an ignore file; raises :class:`YamlFileError` (file and line) when it is
    malformed, or when ``root`` is given and its real path leaves ``root``."""
    import yaml

    document = compose_file(path, root)
    if document is None:
        return IgnoreList((), str(path))
    listing: yaml.Node | None = None
    for key, line, value_node in mapping_items(document, path, "the ignore file"):
        if key != "ignores":
            raise YamlFileError(path, line, f"unknown key {key!r} (the file holds 'ignores')")
        listing = value_node
    if listing is None or (
        isinstance(listing, yaml.ScalarNode) and plain_value(listing, path) is None
    ):
        return IgnoreList((), str(path))
    if not isinstance(listing, yaml.SequenceNode):
        raise YamlFileError(path, line_of(listing), "'ignores' must be a list of entries")
    return IgnoreList(tuple(_entry(node, path) for node in listing.value), str(path))


def _entry(node: yaml.Node, path: Path) -> IgnoreEntry:
    import yaml

    fields: dict[str, str] = {}
    expires: date | None = None
    for key, line, value_node in mapping_items(node, path, "an ignore entry"):
        if key not in _ENTRY_KEYS:
            known = ", ".join(_ENTRY_KEYS)
            raise YamlFileError(path, line, f"unknown key {key!r} in an ignore entry ({known})")
        if key == "expires":
            raw = value_node.value if isinstance(value_node, yaml.ScalarNode) else None
            expires = _expiry(raw, path, line_of(value_node))
            continue
        value = plain_value(value_node, path)
        if not isinstance(value, str):
            raise YamlFileError(path, line, f"{key!r} must be a string (quote it)")
        fields[key] = value
    for required in ("rule", "reason"):
        if not fields.get(required):
            raise YamlFileError(
                path, line_of(node), f"an ignore entry needs a non-empty {required!r}"
            )
    return IgnoreEntry(
        rule=fields["rule"],
        reason=fields["reason"],
        resource=fields.get("resource"),
        result_tag=fields.get("result_tag"),
        expires=expires,
        source=f"{path}:{line_of(node)}",
    )


def _expiry(value: str | None, path: Path, line: int) -> date:
    if value is not None and _DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise YamlFileError(path, line, f"'expires' must be a date YYYY-MM-DD, found {value!r}")


def utc_today() -> date:
    """Today's date in UTC: the day expiry dates are compared with."""
    return datetime.now(UTC).date()


def apply_ignores(
    report: ScanReport,
    ignores: IgnoreList,
    today: date,
    rules: Iterable[tuple[str, str]] | None = None,
) -> None:
    """Mark the results ``ignores`` covers as ignored; warn about expired entries and,
    when the scan's ``rules`` ((package reference, metadata id) pairs) are given,
    about entries naming none of them."""
    active = [e for e in ignores.entries if not e.expired(today)]
    report.warnings += [
        f"{e.source}: the ignore of {e.describe()} expired on {e.expires}; it no longer applies"
        for e in ignores.entries
        if e.expired(today)
    ]
    if rules is not None:
        known = list(rules)
        report.warnings += [
            f"{e.source}: the ignore names rule {e.rule!r}, which is none of the scan's rules"
            for e in ignores.entries
            if not any(names_rule(e.rule, ref, rule_id) for ref, rule_id in known)
        ]
    for input_report in report.inputs:
        for rule in input_report.rule_results:
            rule_id = rule.metadata.id
            for result in rule.results:
                entry = next((e for e in active if e.matches(rule.package, rule_id, result)), None)
                if entry is not None:
                    mark_ignored(result, entry.reason)


def mark_ignored(result: Result, reason: str) -> None:
    """Mark ``result`` as ignored, for ``reason``: what ignore-file entries and
    inline suppressions do to the results they cover."""
    result.ignored = True
    result.ignore_reason = reason
