"""Rules ready to scan with: the compiled rule set and what a scan derives from it.

Compiling rules from ``-d`` paths and reading a precompiled bundle
(:mod:`engine.evaluation.bundle`) both give :class:`PreparedRules`; a scan starts from
either the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.evaluation.evaluator import RuleStatics
from engine.rules.conftest_style import conftest_style_warnings
from engine.rules.rule_set import CompiledRuleSet, compile_rule_set
from engine.rules.sources import SourceError, load_sources


@dataclass
class PreparedRules:
    """A compiled rule set, the policy files that could not be read, and (from a
    bundle) each rule's static facts, so no evaluation is needed to learn them."""

    rule_set: CompiledRuleSet
    source_errors: list[str] = field(default_factory=list)
    """Policy files skipped because they could not be read (path: message)."""
    statics: list[RuleStatics] | None = None
    """Per rule, in rule order; None: evaluate them from the module."""
    origin: str = ""
    """What the rules were read from, for messages (``-d`` paths or the bundle)."""

    @property
    def warnings(self) -> list[str]:
        """User files defining ``snyk``, skipped in favour of the shipped API, and
        conftest-style policies, which are not rules."""
        policy = self.rule_set.policy
        return [
            *(
                f"{f}: skipped: it defines the snyk package the engine ships"
                for f in self.rule_set.replaced_api_files
            ),
            *conftest_style_warnings(policy.rego_files if policy is not None else ()),
        ]

    @property
    def file_errors(self) -> list[str]:
        """Files that could not be read, and helper libraries that did not compile."""
        return [
            *(f"{e} (skipped)" for e in self.source_errors),
            *(f"{m} (file skipped)" for m in self.rule_set.library_errors),
        ]

    @property
    def errors(self) -> list[str]:
        """:attr:`file_errors`, then the errors of rules that did not compile."""
        failed = self.rule_set.failed
        return [*self.file_errors, *(f"{f.rule.ref}: {m}" for f in failed for m in f.messages)]


def rules_origin(rule_paths: list[Path]) -> str:
    """How messages name rules read from ``rule_paths``."""
    return ", ".join(str(p) for p in rule_paths)


def compile_rules(
    rule_paths: list[Path], *, use_cache: bool = True, include_print: bool = False
) -> PreparedRules:
    """Load the policy files below ``rule_paths`` and compile them (bad files
    are skipped); ``include_print`` keeps ``print()`` calls in the module."""
    source_errors: list[SourceError] = []
    sources = load_sources(rule_paths, on_error=source_errors.append)
    return PreparedRules(
        compile_rule_set(sources, use_cache=use_cache, include_print=include_print),
        [str(e) for e in source_errors],
        origin=rules_origin(rule_paths),
    )
