"""``rego-engine build`` and ``rules``: compiling rules into a bundle, listing them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click

from engine.cli.app import EXIT_ERROR, debug_enabled, echo_problems, fail
from engine.cli.options import bundle_option, data_option, format_option, one_rule_source, option
from engine.cli.settings import command, settings
from engine.rules.opa import OpaNotFound
from engine.rules.rule_pack import shipped_rule_files

if TYPE_CHECKING:
    from engine.inspection.rule_catalogue import RuleCatalogue


@settings
class BuildSettings:
    rules: Annotated[list[Path], data_option("Rule or data file or directory (repeatable).")]
    output: Annotated[
        Path,
        option("-o", "--output", label="<path>", help="The bundle to write.", show_default=True),
    ] = Path("bundle.tar.gz")


@command(BuildSettings)
def build_command(settings: BuildSettings) -> None:
    """Compile rules into a bundle that scan --bundle runs with no opa binary.

    Rules or files that cannot be compiled are reported and recorded in the
    bundle (a scan with it reports them as a scan from source does).
    Exit codes: 0 everything compiled, 2 something was set aside or nothing
    could be built.
    """
    from engine.evaluation.bundle import build_bundle
    from engine.rules.compiler import CompileError

    output = settings.output
    try:
        prepared = build_bundle(settings.rules, output)
    except (CompileError, OpaNotFound, ValueError) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    except OSError as exc:
        fail(f"{output}: {exc.strerror or exc}")
        return
    errors = prepared.errors
    if not prepared.rule_set.rules and not prepared.rule_set.failed:
        errors.append(
            "no rules found: a rule is a package under rules. that defines deny "
            f"(searched {prepared.origin})"
        )
    echo_problems(prepared.warnings, errors)
    click.echo(f"{output}: {len(prepared.rule_set.rules)} rules", err=True)
    raise click.exceptions.Exit(EXIT_ERROR if errors else 0)


@settings
class RulesSettings:
    rules: Annotated[
        list[Path] | None, data_option("Rule or data file or directory (repeatable).")
    ] = None
    bundle: Annotated[Path | None, bundle_option("List the rules of a bundle instead.")] = None
    output_format: Annotated[str, format_option("table", "json")] = "table"
    explain: Annotated[
        str | None,
        option(
            "--explain",
            label="ID",
            help="Describe one rule (metadata id or package): description, remediation, "
            "input types, relations it queries and an example from examples/.",
        ),
    ] = None


@command(RulesSettings)
def rules_command(settings: RulesSettings) -> None:
    """List rules (without -d or --bundle, the shipped rule pack): package, id,
    title, severity, input types, resource type and the relations they query.

    Exit codes: 0 every rule could be read, 2 a file or rule could not be (or
    --explain names no rule).
    """
    from engine.evaluation.bundle import BundleError, read_bundle
    from engine.evaluation.shipped_pack import precompiled_pack
    from engine.inspection.rule_catalogue import catalogue_of, rule_catalogue
    from engine.rules.compiler import CompileError

    rules, bundle, explain = settings.rules, settings.bundle, settings.explain
    fmt = settings.output_format
    one_rule_source(rules, bundle)
    if not rules and bundle is None:
        bundle = precompiled_pack()
    try:
        listed = (
            catalogue_of(read_bundle(bundle))
            if bundle
            else rule_catalogue(rules or shipped_rule_files())
        )
    except (CompileError, OpaNotFound, BundleError) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    echo_problems(listed.warnings, listed.errors)
    if explain is not None:
        _explain(listed, explain, rules or ([] if bundle else shipped_rule_files()), bundle, fmt)
    if fmt == "json":
        sys.stdout.buffer.write(listed.to_json() + b"\n")
    else:
        sys.stdout.write(listed.to_table())
    raise click.exceptions.Exit(listed.exit_code())


def _explain(
    listed: RuleCatalogue, name: str, rule_paths: list[Path], bundle: Path | None, fmt: str
) -> None:
    """Print the explanation of the rule ``name`` names and end the command."""
    from engine.evaluation.bundle import BundleError
    from engine.inspection.rule_explanation import explain, find_rule
    from engine.rules.compiler import CompileError
    from engine.wasm import values

    rule = find_rule(listed, name)
    if rule is None:
        fail(f"--explain {name}: no rule has this id or package (rego-engine rules lists them)")
        return
    try:
        explanation = explain(rule, rule_paths, bundle)
    except (CompileError, OpaNotFound, BundleError) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    if fmt == "json":
        sys.stdout.buffer.write(values.dumps_json(explanation.to_dict(), indent=True) + b"\n")
    else:
        sys.stdout.write(explanation.to_text())
    raise click.exceptions.Exit(EXIT_ERROR if rule.errors else 0)
