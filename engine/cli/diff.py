"""``rego-engine diff``: the changes between two inputs, judged by change policies."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import click

from engine.changes.rename_threshold import RENAME_THRESHOLD
from engine.cli.app import debug_enabled, echo_problems, fail
from engine.cli.options import (
    check_bounds,
    choice_of,
    completing,
    data_option,
    format_option,
    input_paths,
    memory_option,
    option,
    seconds_option,
)
from engine.cli.settings import command, settings
from engine.rules.opa import OpaNotFound

DIFF_FORMATS = ("table", "json", "sarif")
"""``--format`` choices (those :mod:`engine.changes.diff` writes)."""
RISK_LEVELS = ("low", "medium", "high")
"""``--fail-on`` choices (:mod:`engine.changes.change_policies`' risk levels)."""


@settings
class DiffSettings:
    paths: Annotated[
        list[Path],
        input_paths(
            "OLD NEW (two versions of a template, configuration or manifests), "
            "or one Terraform plan JSON."
        ),
    ]
    rules: Annotated[
        list[Path] | None, data_option("Change policy file or directory (repeatable).")
    ] = None
    output_format: Annotated[str, format_option(*DIFF_FORMATS)] = "table"
    fail_on: Annotated[
        str | None,
        option(
            "--fail-on",
            label="<str>",
            help="Fail on changes at or above this risk: low, medium, high.",
            callback=choice_of(
                RISK_LEVELS, message="unknown risk {value!r} (" + ", ".join(RISK_LEVELS) + ")"
            ),
            autocompletion=completing(RISK_LEVELS),
        ),
    ] = None
    rename_threshold: Annotated[
        float,
        option(
            "--rename-threshold",
            label="<float>",
            help="Attribute similarity (0-1) making a rename.",
            show_default=True,
        ),
    ] = RENAME_THRESHOLD
    timeout: Annotated[float, seconds_option("Seconds each change policy may take.")] = 30.0
    max_memory: Annotated[int, memory_option("MiB of Wasm memory the policies may use.")] = 2048


@command(DiffSettings)
def diff_command(settings: DiffSettings) -> None:
    """Report the changes between two inputs (or in a Terraform plan), each with
    the risk and decision of the change policies (packages under changes.).

    Exit codes: 0 nothing rejected nor at the --fail-on risk, 1 a change is
    rejected or at/above the --fail-on risk, 2 an input or policy could not be processed.
    """
    from engine.changes.diff import DiffError, diff_inputs, diff_plan_file
    from engine.rules.compiler import CompileError
    from engine.wasm.host import Limits

    paths, rules, timeout, max_memory = (
        settings.paths,
        settings.rules,
        settings.timeout,
        settings.max_memory,
    )
    fmt, rename_threshold = settings.output_format, settings.rename_threshold
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
    raise click.exceptions.Exit(report.exit_code(settings.fail_on))
