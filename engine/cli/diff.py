"""``rego-engine diff``: the changes between two inputs, judged by change policies."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from engine.changes.change_set import RENAME_THRESHOLD
from engine.cli.app import debug_enabled, echo_problems, fail
from engine.cli.options import check_bounds
from engine.rules.opa import OpaNotFound


def diff_command(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="OLD NEW (two versions of a template, configuration or manifests), "
            "or one Terraform plan JSON.",
            show_default=False,
        ),
    ],
    rules: Annotated[
        list[Path] | None,
        typer.Option("-d", "--data", help="Change policy file or directory (repeatable)."),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="table, json or sarif.", case_sensitive=False)
    ] = "table",
    fail_on: Annotated[
        str | None,
        typer.Option("--fail-on", help="Fail on changes at or above this risk: low, medium, high."),
    ] = None,
    rename_threshold: Annotated[
        float,
        typer.Option("--rename-threshold", help="Attribute similarity (0-1) making a rename."),
    ] = RENAME_THRESHOLD,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds each change policy may take.")
    ] = 30.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", help="MiB of Wasm memory the policies may use.")
    ] = 2048,
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
        raise typer.BadParameter(
            f"unknown format {output_format!r} ({', '.join(DIFF_FORMATS)})", param_hint="--format"
        )
    if fail_on is not None and fail_on.lower() not in RISK_LEVELS:
        raise typer.BadParameter(
            f"unknown risk {fail_on!r} ({', '.join(RISK_LEVELS)})", param_hint="--fail-on"
        )
    if len(paths) not in (1, 2):
        raise typer.BadParameter("give OLD NEW, or one plan", param_hint="paths")
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
    raise typer.Exit(report.exit_code(fail_on.lower() if fail_on else None))
