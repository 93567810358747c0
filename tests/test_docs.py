"""The README and docs/ stay true: the tutorial runs as shown, every link resolves."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli.main import app

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = [README, REPO / "SECURITY.md", *sorted((REPO / "docs").rglob("*.md"))]


def _blocks(text: str, language: str) -> list[str]:
    """The fenced code blocks of ``text`` opened with ```language (in order)."""
    blocks, current, opened = [], [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            if opened is None:
                opened, current = line[3:].strip(), []
            else:
                if opened == language:
                    blocks.append("".join(current))
                opened = None
        elif opened is not None:
            current.append(line)
    return blocks


def test_the_readme_is_a_short_page() -> None:
    assert len(README.read_bytes()) <= 12 * 1024


def test_the_first_rule_tutorial_runs_as_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    section = README.read_text().split("## Your first rule", 1)[1].split("\n## ", 1)[0]
    rule, test = _blocks(section, "rego")
    (hcl,) = _blocks(section, "hcl")
    shown = _blocks(section, "")[-1]
    (tmp_path / "policies").mkdir()
    (tmp_path / "infra").mkdir()
    (tmp_path / "policies" / "owner_tag.rego").write_text(rule)
    (tmp_path / "policies" / "owner_tag_test.rego").write_text(test)
    (tmp_path / "infra" / "main.tf").write_text(hcl)
    monkeypatch.chdir(tmp_path)
    tested = CliRunner().invoke(app, ["test", "policies/"])
    scanned = CliRunner().invoke(app, ["scan", "infra/", "-d", "policies/", "-f", "table"])
    assert (tested.exit_code, scanned.exit_code) == (0, 1)
    expected = (
        "$ rego-engine test policies/\n"
        + tested.stdout
        + "$ rego-engine scan infra/ -d policies/\n"
        + scanned.stdout
    )
    assert [line.rstrip() for line in shown.splitlines()] == [
        line.rstrip() for line in expected.splitlines()
    ]


def _slug(heading: str) -> str:
    heading = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_resolves(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path) if path else page
        missing_anchor = anchor and linked.suffix == ".md" and anchor not in _anchors(linked)
        if not linked.exists() or missing_anchor:
            broken.append(target)
    assert broken == [], f"{os.path.relpath(page, REPO)}: {broken}"
