"""Which rules a scan runs: ``--rule`` and ``--exclude-rule``.

A rule is named by its metadata ``id`` or by its package, written either as
``rules.x`` or as the data reference ``data.rules.x``. Names are matched
exactly (ids are case-sensitive, as rule corpora write them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def names_rule(name: str, package_ref: str, rule_id: str) -> bool:
    """Whether ``name`` names the rule with data reference ``package_ref``
    (``data.rules.x``) and metadata id ``rule_id`` ("" when it has none)."""
    if not name:
        return False
    if rule_id and name == rule_id:
        return True
    return name == package_ref or f"data.{name}" == package_ref


@dataclass(frozen=True)
class RuleSelection:
    """The rules to run: those named by ``include`` (all when empty), less
    those named by ``exclude``."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def selects(self, package_ref: str, rule_id: str = "") -> bool:
        """Whether the rule with this package reference and metadata id runs."""
        if self.include and not any(names_rule(n, package_ref, rule_id) for n in self.include):
            return False
        return not any(names_rule(n, package_ref, rule_id) for n in self.exclude)

    def problems(self, rules: Iterable[tuple[str, str]]) -> tuple[list[str], list[str]]:
        """(errors, warnings) about names that name none of ``rules`` ((package
        reference, metadata id) pairs), in the order given: an ``include`` name is
        an error (a rule the user asked for would not run), an ``exclude`` name a
        warning."""
        known = list(rules)

        def unknown(name: str) -> bool:
            return not any(names_rule(name, ref, rule_id) for ref, rule_id in known)

        errors = [f"--rule {name!r} names no rule" for name in self.include if unknown(name)]
        warnings = [
            f"--exclude-rule {name!r} names no rule" for name in self.exclude if unknown(name)
        ]
        return errors, warnings
