"""The ``docs/rules/`` pages: one per shipped rule, generated from the rules themselves.

    python docs/rule_pages.py            # list the pages that would be written
    python docs/rule_pages.py --write    # rewrite docs/rules/ (stale pages removed)
    python docs/rule_pages.py --check    # exit 1 when docs/rules/ is out of date

Each page is what ``rego-engine rules --explain ID`` prints, as Markdown: the
rule's metadata, input types and the relations it queries (from the rule
catalogue), and its first failing result on ``examples/`` (one scan of the
examples with the whole shipped pack). ``index.md`` lists the pages.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.core.paths import REPO_ROOT
from engine.inspection.rule_catalogue import rule_catalogue
from engine.inspection.rule_explanation import RuleExplanation, examples_by_rule
from engine.rules.rule_pack import shipped_rule_files
from engine.scanning.scanner import scan

PAGES = REPO_ROOT / "docs" / "rules"
INDEX = "index.md"


def rule_pages() -> dict[str, str]:
    """File name → Markdown text, for every shipped rule and the index."""
    rules = shipped_rule_files()
    catalogue = rule_catalogue(rules)
    if catalogue.errors or any(rule.errors for rule in catalogue.rules):
        raise SystemExit(f"shipped rules do not compile: {catalogue.errors or catalogue.rules}")
    examples = REPO_ROOT / "examples"
    report = scan([examples], rules)
    if report.errors:
        raise SystemExit(f"the scan of {examples} failed: {report.errors}")
    found = examples_by_rule(report, examples)
    pages = {}
    index = [
        "# Shipped rules",
        "",
        "One page per rule of the shipped pack, as `rego-engine rules --explain ID` prints it.",
        "",
        "| id | severity | title |",
        "|---|---|---|",
    ]
    for rule in sorted(catalogue.rules, key=lambda r: r.id):
        if not rule.id:
            raise SystemExit(f"{rule.package}: a shipped rule needs a metadata id")
        pages[f"{rule.id}.md"] = RuleExplanation(rule, found.get(rule.package)).to_markdown()
        index.append(f"| [{rule.id}]({rule.id}.md) | {rule.severity} | {rule.title} |")
    pages[INDEX] = "\n".join(index) + "\n"
    return pages


def stale(pages: dict[str, str], directory: Path = PAGES) -> list[str]:
    """Names of the files in ``directory`` that differ from ``pages`` or are not among them."""
    on_disk = {p.name for p in directory.glob("*.md")} if directory.is_dir() else set()
    changed = [
        name
        for name, text in pages.items()
        if not (directory / name).is_file() or (directory / name).read_text("utf-8") != text
    ]
    return sorted(set(changed) | (on_disk - set(pages)))


def main(argv: list[str]) -> int:
    pages = rule_pages()
    if not argv:
        sys.stdout.write("".join(f"{name}\n" for name in sorted(pages)))
        return 0
    if argv == ["--check"]:
        out_of_date = stale(pages)
        if out_of_date:
            print(f"{PAGES} is out of date ({', '.join(out_of_date)}): "
                  "run python docs/rule_pages.py --write")
            return 1
        return 0
    if argv == ["--write"]:
        PAGES.mkdir(exist_ok=True)
        for name in stale(pages):
            if name in pages:
                (PAGES / name).write_text(pages[name], encoding="utf-8")
            else:
                (PAGES / name).unlink()
        return 0
    raise SystemExit("usage: rule_pages.py [--write | --check]")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
