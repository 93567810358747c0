"""Policies written for conftest, which a scan does not run as rules.

conftest asks ``deny``, ``violation`` and ``warn`` of ``package main`` (or any
package it is told) over a raw file; the engine runs packages under
``rules.`` over resources. A module outside ``rules.`` that defines one of
those names is most likely such a policy: the scan says so instead of
passing it over in silence (docs/rules.md, "Policies written for conftest").
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.rules.legacy_iac import is_legacy_package
from engine.rules.rego_outline import outline
from engine.rules.sources import RegoFile

CONFTEST_RULES = ("deny", "violation", "warn")
"""The rules conftest asks of a policy package."""

RULES_ROOT = "rules"


def conftest_style_warnings(files: Iterable[RegoFile]) -> list[str]:
    """One warning per user module (not shipped, not generated) whose package is not a
    rule package and that defines ``deny``, ``violation`` or ``warn``."""
    out: list[str] = []
    for file in files:
        if file.display.startswith("<"):
            continue  # the engine's own modules: <shipped>/..., <rule dispatch>
        shape = outline(file.text)
        package = shape.package
        if package is None or package == RULES_ROOT or package.startswith(RULES_ROOT + "."):
            continue
        if is_legacy_package(package):
            continue
        defined = [name for name in CONFTEST_RULES if name in shape.rules]
        if defined:
            out.append(
                f"{file.display}: not a rule: conftest-style package {package} "
                f"({', '.join(defined)}); a rule is a package under rules. that asks for "
                'resources (see docs/rules.md, "Policies written for conftest")'
            )
    return out
