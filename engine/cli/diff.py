"""``rego-engine diff``: the changes between two inputs, judged by change policies."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engine.changes.rename_threshold import RENAME_THRESHOLD
from engine.cli.app import argument, debug_enabled, echo_problems, fail
from engine.cli.options import PATHS, check_bounds, repeatable
from engine.rules.opa import OpaNotFound


@argument(
    "paths",
    nargs=-1,
    required=True,
    type=PATHS,
    label="<list[Path]>",
    help="OLD NEW (two versions of a template, configuration or manifests), "
    "or one Terraform plan JSON.",
)
@repeatable(
    "-d",
    "--data",
    "rules",
    type=PATHS,
    label="<list[Path]>",
    help="Change policy file or directory (repeatable).",
)
@click.option(
    "--format",
    "-f",
    "output_format",
    default="table",
    show_default=True,
    metavar="<str>",
    help="table, json or sarif.",
)
@click.option(
    "--fail-on",
    metavar="<str>",
    help="Fail on changes at or above this risk: low, medium, high.",
)
@click.option(
    "--rename-threshold",
    type=float,
    default=RENAME_THRESHOLD,
    show_default=True,
    metavar="<float>",
    help="Attribute similarity (0-1) making a rename.",
)
@click.option(
    "--timeout",
    type=float,
    default=30.0,
    show_default=True,
    metavar="<float>",
    help="Seconds each change policy may take.",
)
@click.option(
    "--max-memory",
    type=int,
    default=2048,
    show_default=True,
    metavar="<int>",
    help="MiB of Wasm memory the policies may use.",
)
def diff_command(
    paths: list[Path],
    rules: list[Path] | None,
    output_format: str,
    fail_on: str | None,
    rename_threshold: float,
    timeout: float,
    max_memory: int,
) -> None:
    """Report the changes between two inputs (or in a Terraform plan), each with
    the risk and decision of the change policies (packages under changes.).

    Exit codes: 0 nothing rejected nor at the --fail-on risk, 1 a change is
    rejected or at/above the --fail-on risk, 2 an input or policy could not be processed.
    """
    from engine.changes.change_policies import RISK_LEVELS
    from engine.changes.diff import FORMATS as DIFF_FORMATS
    from engine.changes.diff import DiffError, diff_inputs, diff_plan_file
    from engine.rules.compiler import CompileError
    from engine.wasm.host import Limits

    fmt = output_format.lower()
    if fmt not in DIFF_FORMATS:
        raise click.BadParameter(
            f"unknown format {output_format!r} ({', '.join(DIFF_FORMATS)})", param_hint="--format"
        )
    if fail_on is not None and fail_on.lower() not in RISK_LEVELS:
        raise click.BadParameter(
            f"unknown risk {fail_on!r} ({', '.join(RISK_LEVELS)})", param_hint="--fail-on"
        )
    if len(paths) not in (1, 2):
        raise click.BadParameter("give OLD NEW, or one plan", param_hint="paths")
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    limits = Limits(timeout_seconds=timeout, max_memory_mb=max_memory)
    try:
        if len(paths) == 2:
            report = diff_inputs(
                paths[0], paths[1], rules or [], rename_threshold=rename_threshold, limits=limits
            )
        else:
            report = diff_plan_file(
                paths[0], rules or [], rename_threshold=rename_threshold, limits=limits
            )
    except (DiffError, CompileError, OpaNotFound) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    echo_problems([], report.errors)
    if fmt == "json":
        sys.stdout.buffer.write(report.to_json() + b"\n")
    elif fmt == "sarif":
        sys.stdout.buffer.write(report.to_sarif() + b"\n")
    else:
        sys.stdout.write(report.to_table())
    raise click.exceptions.Exit(report.exit_code(fail_on.lower() if fail_on else None))
