"""``rego-engine test``: Rego tests compiled to Wasm, and golden scan cases."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from engine.cli.app import debug_enabled, echo_problems
from engine.cli.options import check_bounds
from engine.rules.opa import OpaNotFound


def test_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Files or directories of Rego tests (default: . unless --golden is given).",
            show_default=False,
        ),
    ] = None,
    verbose: Annotated[bool, typer.Option("-v", "--verbose", help="Report every test.")] = False,
    run: Annotated[
        str | None,
        typer.Option("-r", "--run", help="Only tests whose data.pkg.name matches REGEX."),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="pretty or json.", case_sensitive=False)
    ] = "pretty",
    update_snapshots: Annotated[
        bool,
        typer.Option(
            "--update-snapshots", help="Write snapshots and golden expected.json files."
        ),
    ] = False,
    golden: Annotated[
        list[Path] | None,
        typer.Option("--golden", help="Golden case directory (repeatable)."),
    ] = None,
    rules: Annotated[
        list[Path] | None,
        typer.Option("-d", "--data", help="Rules for golden cases without rules/ (repeatable)."),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds one test (or golden scan rule) may take.")
    ] = 5.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", help="MiB of Wasm memory the tests may use.")
    ] = 2048,
) -> None:
    """Run Rego tests (test_* rules) compiled to Wasm, and golden scan cases.

    Reports like opa test. Exit codes: 0 every test passed, 2 a test failed or
    errored, 1 a file could not be loaded or compiled.
    """
    from engine.rules.compiler import CompileError
    from engine.scanning.scanner import ScanOptions
    from engine.testing.golden import as_test_outcome, run_golden
    from engine.testing.report import pretty, to_json
    from engine.testing.runner import TestOptions, TestRun, run_tests

    fmt = output_format.lower()
    if fmt not in ("pretty", "json"):
        raise typer.BadParameter(
            f"unknown format {output_format!r} (pretty, json)", param_hint="--format"
        )
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    if run is not None:
        try:
            re.compile(run)
        except re.error as exc:
            raise typer.BadParameter(
                f"invalid regular expression: {exc}", param_hint="--run"
            ) from None
    test_paths = paths if paths else ([] if golden else [Path(".")])
    options = TestOptions(run, timeout, max_memory, update_snapshots)
    try:
        result = run_tests(test_paths, options) if test_paths else TestRun()
    except (CompileError, OpaNotFound) as exc:
        if debug_enabled():
            raise
        echo_problems([], [str(exc)])
        raise typer.Exit(1) from None
    for problem in result.problems:
        echo_problems([], [str(problem)])
    if golden:
        cases = run_golden(
            golden,
            rules or [],
            ScanOptions(rule_timeout=timeout, max_memory_mb=max_memory),
            update=update_snapshots,
        )
        result.outcomes += [as_test_outcome(c) for c in cases]
    if fmt == "json":
        typer.echo(to_json(result))
    else:
        typer.echo(pretty(result, verbose=verbose), nl=False)
    raise typer.Exit(result.exit_code())
