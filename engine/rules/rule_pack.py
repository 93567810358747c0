"""The shipped rule pack: the rules a scan runs when no ``-d`` is given.

The pack is ``rego/rules/`` (found beside ``rego/lib`` and ``rego/relations``,
see :mod:`engine.core.paths`): rule packages and the helper libraries they import.
Its ``*_test.rego`` files hold ``opa test`` fixtures, not rules, and are left
out of a scan.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.paths import REGO_RULES_DIR

TEST_SUFFIX = "_test.rego"


def shipped_rule_files(directory: Path = REGO_RULES_DIR) -> list[Path]:
    """The pack's policy files (``.rego``, not ``*_test.rego``), sorted by path."""
    return sorted(
        path
        for path in directory.rglob("*.rego")
        if not path.name.endswith(TEST_SUFFIX) and path.is_file()
    )
