"""docs/rules/ holds the pages docs/rule_pages.py generates: one per shipped rule."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from oracle import needs_opa

from engine.core.paths import REPO_ROOT

pytestmark = needs_opa


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rule_pages", REPO_ROOT / "docs" / "rule_pages.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return _script().rule_pages()


def test_the_pages_are_up_to_date(pages: dict[str, str]) -> None:
    assert _script().stale(pages) == [], "run python docs/rule_pages.py --write"


def test_every_shipped_rule_has_a_page_with_its_example(pages: dict[str, str]) -> None:
    table = (REPO_ROOT / "docs" / "shipped-rules.md").read_text(encoding="utf-8")
    ids = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| RE-")]
    assert sorted(f"{i}.md" for i in ids) == sorted(set(pages) - {"index.md"})
    page = pages["RE-AWS-007.md"]
    assert page.startswith("# RE-AWS-007: S3 buckets disable ACLs (BucketOwnerEnforced)\n")
    assert "| relations queried | `aws_s3_bucket.ownership_controls` |" in page
    assert "## Description\n\nWith object ownership set to BucketOwnerEnforced" in page
    assert "- **terraform**: Add an aws_s3_bucket_ownership_controls" in page
    assert "at `examples/terraform/main.tf:12`" in page
    assert '```hcl\nresource "aws_s3_bucket" "app" {\n' in page
    with_examples = [p for name, p in pages.items() if "```" in p]
    assert len(with_examples) >= 30
    assert all(f"[{i}]({i}.md)" in pages["index.md"] for i in ids)


def test_changed_and_extra_pages_are_stale(tmp_path: Path) -> None:
    stale = _script().stale
    (tmp_path / "A.md").write_text("a")
    (tmp_path / "B.md").write_text("old")
    (tmp_path / "Z.md").write_text("gone")
    assert stale({"A.md": "a", "B.md": "new", "C.md": "c"}, tmp_path) == ["B.md", "C.md", "Z.md"]
