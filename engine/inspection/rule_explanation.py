"""``rego-engine rules --explain ID``: one rule described for a user, and the
generated ``docs/rules/`` pages.

An explanation holds the rule's catalogue entry (metadata, input types,
relations it queries) and an example: the first failing result the rule
reports on the engine's own ``examples/`` tree (by file, line, resource), with
the lines of the file from the resource's location. The examples ship with a
source checkout, not with a wheel; without them there is no example.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.paths import REPO_ROOT, SHIPPED_DIR
from engine.inspection.rule_catalogue import CatalogueEntry, RuleCatalogue
from engine.wasm import values

if TYPE_CHECKING:
    from engine.results.report import ScanReport

SNIPPET_LINES = 15
"""Most lines of the example's file shown."""


def examples_dir() -> Path | None:
    """The ``examples/`` tree of a source checkout; None in an installed wheel."""
    if (SHIPPED_DIR / "rego").is_dir():
        return None
    examples = REPO_ROOT / "examples"
    return examples if examples.is_dir() else None


@dataclass(frozen=True)
class Example:
    """A failing result of the rule on the examples, with its place in the file."""

    file: str
    """Relative to the examples' parent (``examples/terraform/storage.tf``)."""
    line: int
    resource: str
    message: str
    snippet: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "file": self.file,
            "line": self.line,
            "resource": self.resource,
            "message": self.message,
            "snippet": list(self.snippet),
        }


@dataclass(frozen=True)
class RuleExplanation:
    """What ``--explain`` prints about one rule."""

    rule: CatalogueEntry
    example: Example | None

    def remediation(self) -> list[tuple[str, str]]:
        """(where, text) pairs: one per key of a remediation object, or ("", text)."""
        remediation = self.rule.metadata.remediation
        if isinstance(remediation, str):
            return [("", remediation)] if remediation else []
        if isinstance(remediation, dict):
            return [(k, v) for k, v in sorted(remediation.items()) if isinstance(v, str)]
        return []

    def references(self) -> list[str]:
        """The metadata's references (a list, or one string)."""
        refs = self.rule.metadata.references
        if isinstance(refs, str):
            return [refs] if refs else []
        return [r for r in refs if isinstance(r, str)] if isinstance(refs, list) else []

    def relations(self) -> list[str]:
        """The relation names the rule queries, ``(computed)`` last when some are not known."""
        names = sorted(self.rule.relations.names)
        return [*names, "(computed)"] if self.rule.relations.dynamic else names

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            **self.rule.to_dict(),
            "description": self.rule.metadata.description,
            "remediation": dict(self.remediation()),
            "references": self.references(),
            "example": None if self.example is None else self.example.to_dict(),
        }

    def to_text(self) -> str:
        """The terminal form."""
        rule = self.rule
        lines = [f"{rule.id or rule.package}: {rule.title}", ""]
        lines += [f"Severity:     {rule.severity or '-'}", f"Package:      {rule.package}"]
        lines.append(f"Input types:  {', '.join(rule.input_types)}")
        lines.append(f"Resource:     {rule.resource_type}")
        lines.append(f"Relations:    {', '.join(self.relations()) or '-'}")
        lines += ["", "Description:", f"  {rule.metadata.description or '-'}", "", "Remediation:"]
        lines += [f"  {k}: {v}" if k else f"  {v}" for k, v in self.remediation()] or ["  -"]
        if self.references():
            lines += ["", "References:", *(f"  {r}" for r in self.references())]
        lines += ["", "Example:"]
        if self.example is None:
            lines.append("  no failing result on the examples/ tree")
        else:
            ex = self.example
            lines.append(f"  {ex.file}:{ex.line}: {ex.resource}: {ex.message}")
            lines += ["", *(f"    {s}" if s else "" for s in ex.snippet)]
        return "\n".join(lines) + "\n"

    def to_markdown(self) -> str:
        """The ``docs/rules/<ID>.md`` page."""
        rule = self.rule
        out = [f"# {rule.id}: {rule.title}", ""]
        out += [
            "| | |",
            "|---|---|",
            f"| severity | {rule.severity} |",
            f"| input types | {', '.join(f'`{t}`' for t in rule.input_types)} |",
            f"| resource type | `{rule.resource_type}` |",
            f"| relations queried | {', '.join(f'`{r}`' for r in self.relations()) or '—'} |",
            f"| package | `{rule.package}` |",
            "",
            "## Description",
            "",
            rule.metadata.description or "—",
            "",
            "## Remediation",
            "",
        ]
        out += [f"- **{k}**: {v}" if k else v for k, v in self.remediation()] or ["—"]
        if self.references():
            out += ["", "## References", "", *(f"- <{r}>" for r in self.references())]
        out += ["", "## Example", ""]
        if self.example is None:
            out.append("The rule reports nothing on the `examples/` tree.")
        else:
            ex = self.example
            out += [
                f"On the examples, `rego-engine scan examples/` reports `{ex.resource}` at "
                f"`{ex.file}:{ex.line}`:",
                "",
                f"> {ex.message}",
                "",
                f"```{_fence_language(ex.file)}",
                *ex.snippet,
                "```",
            ]
        return "\n".join(out) + "\n"


def find_rule(catalogue: RuleCatalogue, name: str) -> CatalogueEntry | None:
    """The rule ``name`` names: its metadata id (any case) or its package."""
    for rule in catalogue.rules:
        if name.lower() == rule.id.lower() and rule.id:
            return rule
    package = name if name.startswith("data.") else f"data.{name}"
    return next((rule for rule in catalogue.rules if rule.package == package), None)


def examples_by_rule(report: ScanReport, root: Path) -> dict[str, Example]:
    """Rule package → its first failing result in ``report`` (a scan of ``root``),
    ordered by file, line, resource and result tag."""
    found: dict[str, list[tuple[tuple[str, int, str, str], Example]]] = {}
    for input_report in report.inputs:
        for rule in input_report.rule_results:
            for result in rule.results:
                if result.passed:
                    continue
                place = _place(result.resources, result.resource_id)
                if place is None:
                    continue
                file, line = place
                shown = _shown(file, root)
                example = Example(
                    shown, line, result.resource_id, result.message, _snippet(file, line)
                )
                key = (shown, line, result.resource_id, result.result_tag)
                found.setdefault(rule.package, []).append((key, example))
    return {package: min(items)[1] for package, items in found.items()}


def _place(resources: list[Any], resource_id: str) -> tuple[Path, int] | None:
    """The file and line of the result's own resource (else its first located one)."""
    located = []
    for resource in resources:
        location = values.to_json(resource.location)
        if isinstance(location, list):
            location = location[0] if location else None
        if isinstance(location, dict) and location.get("filepath") and location.get("line"):
            located.append((resource.id != resource_id, location))
    if not located:
        return None
    location = min(located, key=lambda item: item[0])[1]
    return Path(location["filepath"]), int(location["line"])


def _shown(file: Path, root: Path) -> str:
    absolute = file if file.is_absolute() else Path.cwd() / file
    try:
        return absolute.resolve().relative_to(root.resolve().parent).as_posix()
    except ValueError:
        return file.as_posix()


def _snippet(file: Path, line: int) -> tuple[str, ...]:
    """The lines of ``file`` from ``line``: up to the end of an HCL block or a JSON
    object at the same indentation, the next key at the same indentation (for an
    indented start), a blank line or a YAML document break; at most SNIPPET_LINES."""
    try:
        text = file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ()
    start = text[line - 1 : line] if 0 < line <= len(text) else []
    if not start:
        return ()
    indent = len(start[0]) - len(start[0].lstrip())
    lines: list[str] = []
    for current in text[line - 1 :]:
        if lines and (not current.strip() or current.startswith("---")):
            break
        if (
            lines
            and indent
            and len(current) - len(current.lstrip()) <= indent
            and (not current.strip().startswith(("}", "]", "-")))
        ):
            break  # the next key of a YAML mapping, or the next member of a JSON object
        lines.append(current.rstrip())
        closing = current.strip() in ("}", "},")
        if lines[1:] and closing and len(current) - len(current.lstrip()) == indent:
            break
        if len(lines) == SNIPPET_LINES:
            lines.append("...")
            break
    return tuple(lines)


def _fence_language(file: str) -> str:
    suffix = Path(file).suffix
    return {".tf": "hcl", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}.get(suffix, "")


def explain(rule: CatalogueEntry, rule_paths: list[Path], bundle: Path | None) -> RuleExplanation:
    """``rule`` (from ``rule_paths`` or ``bundle``) with its example: the rule alone
    scanned over the examples, when they are here."""
    from engine.rules.selection import RuleSelection
    from engine.scanning.scanner import ScanOptions, scan

    root = examples_dir()
    if root is None:
        return RuleExplanation(rule, None)
    options = ScanOptions(selection=RuleSelection((rule.package,)), bundle=bundle)
    report = scan([root], rule_paths, options)
    return RuleExplanation(rule, examples_by_rule(report, root).get(rule.package))
