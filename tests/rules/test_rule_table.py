"""The table of shipped rules (docs/shipped-rules.md) is the one docs/rule_table.py generates."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from oracle import needs_opa

from engine.core.paths import REPO_ROOT

pytestmark = needs_opa


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rule_table", REPO_ROOT / "docs" / "rule_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_is_up_to_date() -> None:
    script = _script()
    table = script.rule_table()
    page = script.TABLE_PAGE.read_text(encoding="utf-8")
    assert script.page_with_table(page, table) == page, (
        "docs/shipped-rules.md is out of date: run python docs/rule_table.py --write"
    )


def test_the_table_lists_every_rule_with_its_relations() -> None:
    table = _script().rule_table()
    rows = table.splitlines()[2:]
    assert len(rows) >= 30
    assert sum("—" not in row.split("|")[5] for row in rows) >= 8
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert f"[{len(rows)} rules](docs/shipped-rules.md)" in readme
    ec2_admin = next(row for row in rows if row.startswith("| RE-AWS-013 "))
    assert "`aws_instance.iam_instance_profile`" in ec2_admin
    assert "`tf`" in ec2_admin and "| high |" in ec2_admin


def test_relations_are_read_from_queries_not_type_names() -> None:
    script = _script()
    text = 'x := snyk.resources("aws_kms_key")\nenc := "aws_s3_bucket.versioning"\n'
    text += 'a := snyk.relates(b, enc)\nc := snyk.back_relates_with("aws_security_group", d)\n'
    assert script.relations_queried(text) == {"aws_s3_bucket.versioning", "aws_security_group"}
