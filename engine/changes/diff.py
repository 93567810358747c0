"""``rego-engine diff``: the changes between two inputs (or in a Terraform plan),
judged by change policies.

The library API behind the command::

    report = diff_inputs(Path("old.yaml"), Path("new.yaml"), [Path("policies")])
    sys.stdout.buffer.write(report.to_json())
    report.exit_code(fail_on="high")

The change set is computed by :mod:`engine.changes.change_set` (pure) and judged by
:mod:`engine.changes.change_policies`; this module loads the inputs and renders the
report (JSON, a table, SARIF).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.changes.change_policies import RISK_LEVELS, PolicyVerdicts, Verdict, evaluate_policies
from engine.changes.change_set import (
    RENAME_THRESHOLD,
    Change,
    PlannedChange,
    diff_plan,
    diff_sides,
    side_of,
)
from engine.core.paths import display_path
from engine.inputs.discovery import LoadOptions, load_inputs
from engine.inputs.source_map import SourceLocation
from engine.inputs.state import State
from engine.wasm import values
from engine.wasm.host import Limits

CHANGES_FORMAT = "changes"
CHANGES_FORMAT_VERSION = "1.0"
FORMATS = ("table", "json", "sarif")


class DiffError(ValueError):
    """An input cannot be diffed (unreadable, or not one State)."""


@dataclass
class DiffReport:
    """The changes, each with its verdicts, and the problems met."""

    old: str | None
    new: str
    changes: list[Change]
    verdicts: PolicyVerdicts | None = None
    """None when no policies were given."""
    errors: list[str] = field(default_factory=list)
    old_state: State | None = field(default=None, repr=False)
    new_state: State | None = field(default=None, repr=False)
    _locations: dict[str, SourceLocation] | None = field(default=None, repr=False)

    def locations(self) -> dict[str, SourceLocation]:
        """Change id → where the change is (the new input; the old one for a
        removal); computed on first use (YAML source maps are costly)."""
        if self._locations is None:
            self._locations = (
                _locate(self.changes, self.old_state, self.new_state)
                if self.new_state is not None
                else {}
            )
        return self._locations

    def verdicts_of(self, change: Change) -> list[Verdict]:
        """The verdicts the policies gave ``change``."""
        return self.verdicts.by_change.get(change.id, []) if self.verdicts else []

    def risk(self, change: Change) -> str | None:
        """The highest risk level given to ``change``."""
        levels = [v.value for v in self.verdicts_of(change) if v.kind == "risk"]
        return max(levels, key=RISK_LEVELS.index) if levels else None

    def decision(self, change: Change) -> str | None:
        """``reject`` when any policy rejects ``change``, else ``approve`` when one approves."""
        decisions = {v.value for v in self.verdicts_of(change) if v.kind == "decision"}
        return "reject" if "reject" in decisions else "approve" if decisions else None

    def exit_code(self, fail_on: str | None = None) -> int:
        """2 on errors; 1 when a change is rejected or at/above ``fail_on`` risk; else 0."""
        if self.errors:
            return 2
        for change in self.changes:
            if self.decision(change) == "reject":
                return 1
            risk = self.risk(change)
            if fail_on and risk and RISK_LEVELS.index(risk) >= RISK_LEVELS.index(fail_on):
                return 1
        return 0

    def entries(self) -> list[dict[str, Any]]:
        """Each change with its risk, decision and verdicts."""
        return [
            {
                **change.to_dict(),
                "risk": self.risk(change),
                "decision": self.decision(change),
                "verdicts": [v.to_dict() for v in self.verdicts_of(change)],
            }
            for change in self.changes
        ]

    def to_dict(self) -> dict[str, Any]:
        """The changes document."""
        return {
            "format": CHANGES_FORMAT,
            "format_version": CHANGES_FORMAT_VERSION,
            "old": self.old,
            "new": self.new,
            "policies": self.verdicts.policies if self.verdicts else [],
            "changes": self.entries(),
            "errors": self.errors,
        }

    def to_json(self) -> bytes:
        """The changes document as indented JSON with sorted keys."""
        return values.dumps_json(self.to_dict(), indent=True)

    def to_table(self) -> str:
        """One line per change (with its risk and decision), then each verdict's message."""
        lines = []
        for change in self.changes:
            what = f"{change.resource_type} {change.resource_id}"
            if change.old_id:
                what += f" (was {change.old_id})"
            if change.path is not None:
                what += " " + _path_text(change.path)
            detail = _detail(change)
            verdict = " ".join(
                x for x in (self.risk(change), self.decision(change)) if x is not None
            )
            lines.append(
                f"{change.operation:<8} {what}{detail}" + (f"  [{verdict}]" if verdict else "")
            )
            lines += [
                f"    {v.kind} {v.value} ({v.policy})" + (f": {v.message}" if v.message else "")
                for v in self.verdicts_of(change)
            ]
        if not lines:
            lines.append("no changes")
        return "\n".join(lines) + "\n"

    def to_sarif(self) -> bytes:
        """SARIF 2.1.0: one result per change, its level from its risk (``error`` when rejected)."""
        levels = {"high": "error", "medium": "warning", "low": "note", None: "none"}
        results = []
        for change in self.changes:
            verdicts = self.verdicts_of(change)
            text = f"{change.operation} {change.resource_type} {change.resource_id}"
            if change.path is not None:
                text += " " + _path_text(change.path)
            text += _detail(change)
            text += "".join(f"; {v.kind} {v.value}: {v.message}" for v in verdicts if v.message)
            result: dict[str, Any] = {
                "ruleId": f"change/{change.operation}",
                "level": "error"
                if self.decision(change) == "reject"
                else levels[self.risk(change)],
                "message": {"text": text},
                "properties": {
                    "change": change.to_dict(),
                    "risk": self.risk(change),
                    "decision": self.decision(change),
                },
            }
            location = self.locations().get(change.id)
            if location is not None:
                result["locations"] = [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": location.path},
                            "region": {
                                "startLine": location.line,
                                "startColumn": location.column,
                            },
                        }
                    }
                ]
            results.append(result)
        rules = [
            {"id": f"change/{op}", "shortDescription": {"text": f"a resource {op}"}}
            for op in sorted({c.operation for c in self.changes})
        ]
        doc = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "rego-engine diff",
                            "rules": rules,
                        }
                    },
                    "results": results,
                }
            ],
        }
        return values.dumps_json(doc, indent=True)


def _path_text(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in path).lstrip(".")


def _short(value: Any) -> str:
    text = values.dumps_json(value).decode("utf-8")
    return text if len(text) <= 60 else text[:57] + "..."


def _detail(change: Change) -> str:
    if change.operation == "update":
        note = " (possibly)" if change.possible else ""
        if change.reason == "known after apply":
            note = " (known after apply)"
        return f": {_short(change.old)} -> {_short(change.new)}{note}"
    if change.operation == "move":
        return f": moved from index {change.old}"
    if change.reason and change.operation in ("replace", "rename"):
        return f": {change.reason}"
    return ""


def _one_state(path: Path, options: LoadOptions | None) -> State:
    loaded = load_inputs([path], options)
    if loaded.problems:
        raise DiffError("; ".join(str(p) for p in loaded.problems))
    if len(loaded.inputs) != 1:
        found = len(loaded.inputs)
        raise DiffError(f"{path}: expected one input to compare, found {found}")
    return loaded.inputs[0].state


def _locate(changes: list[Change], old: State | None, new: State) -> dict[str, SourceLocation]:
    out: dict[str, SourceLocation] = {}
    for change in changes:
        state = old if change.operation == "remove" else new
        if state is None or state.source_map is None:
            continue
        where = state.source_map
        location = None
        if change.path is not None:
            location = where.attribute_location(
                change.resource_type, change.resource_id, change.path
            )
        location = location or where.resource_location(change.resource_type, change.resource_id)
        if location is not None:
            out[change.id] = location
    return out


def _judge(
    report: DiffReport,
    rule_paths: list[Path],
    new: State,
    limits: Limits | None,
) -> DiffReport:
    if rule_paths:
        change_set = {
            "old": report.old,
            "new": report.new,
            "changes": [c.to_dict() for c in report.changes],
        }
        report.verdicts = evaluate_policies(rule_paths, change_set, new, limits)
        report.errors += report.verdicts.errors
    return report


def diff_inputs(
    old_path: Path,
    new_path: Path,
    rule_paths: list[Path] | None = None,
    *,
    rename_threshold: float = RENAME_THRESHOLD,
    limits: Limits | None = None,
    options: LoadOptions | None = None,
) -> DiffReport:
    """The changes from the input at ``old_path`` to the one at ``new_path``,
    judged by the change policies below ``rule_paths``.

    Raises :class:`DiffError` when an input cannot be loaded as one State.
    """
    old = _one_state(old_path, options)
    new = _one_state(new_path, options)
    if old.input_type != new.input_type:
        raise DiffError(
            f"{old_path} is {old.input_type} but {new_path} is {new.input_type}: "
            "compare two versions of one kind of input"
        )
    changes = diff_sides(side_of(old), side_of(new), rename_threshold=rename_threshold)
    report = DiffReport(
        display_path(old_path), display_path(new_path), changes, old_state=old, new_state=new
    )
    return _judge(report, rule_paths or [], new, limits)


def planned_changes(doc: Any) -> list[PlannedChange]:
    """The ``resource_changes`` of a Terraform plan (``terraform show -json``)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("resource_changes"), list):
        raise DiffError("a Terraform plan needs resource_changes (terraform show -json PLAN)")
    out = []
    for i, entry in enumerate(doc["resource_changes"]):
        change = entry.get("change") if isinstance(entry, dict) else None
        if not isinstance(change, dict):
            raise DiffError(f"resource_changes[{i}] has no change object")
        if entry.get("deposed"):
            continue
        address, rtype = entry.get("address"), entry.get("type")
        actions = change.get("actions")
        if not isinstance(address, str) or not isinstance(rtype, str):
            raise DiffError(f"resource_changes[{i}] needs a string address and type")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise DiffError(f"resource_changes[{i}].change.actions must be an array of strings")
        mode = entry.get("mode")
        previous = entry.get("previous_address")
        paths = change.get("replace_paths")
        out.append(
            PlannedChange(
                f"data.{rtype}" if mode == "data" else rtype,
                address,
                tuple(actions),
                change.get("before"),
                change.get("after"),
                previous if isinstance(previous, str) else None,
                tuple(tuple(p) for p in paths if isinstance(p, list))
                if isinstance(paths, list)
                else (),
                change.get("after_unknown"),
            )
        )
    return out


def diff_plan_file(
    plan_path: Path,
    rule_paths: list[Path] | None = None,
    *,
    rename_threshold: float = RENAME_THRESHOLD,
    limits: Limits | None = None,
) -> DiffReport:
    """The changes a Terraform plan makes, judged by the change policies below
    ``rule_paths``; the API answers over the planned values.

    Raises :class:`DiffError` when the plan cannot be read.
    """
    try:
        raw = plan_path.read_bytes()
    except OSError as exc:
        raise DiffError(f"{plan_path}: {exc.strerror or exc}") from None
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        raise DiffError(
            f"{plan_path}: not a Terraform plan in JSON ({exc}); "
            "give `terraform show -json PLAN`, or OLD NEW to compare two inputs"
        ) from None
    try:
        planned = planned_changes(doc)
    except DiffError as exc:
        raise DiffError(f"{plan_path}: {exc}") from None
    new = _one_state(plan_path, LoadOptions(input_type="tf_plan"))
    changes = diff_plan(planned, side_of(new), rename_threshold=rename_threshold)
    report = DiffReport(None, display_path(plan_path), changes, new_state=new)
    return _judge(report, rule_paths or [], new, limits)
