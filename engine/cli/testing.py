"""``rego-engine test``: Rego tests compiled to Wasm, and golden scan cases."""

from __future__ import annotations

import re
from pathlib import Path

import click

from engine.cli.app import argument, debug_enabled, echo_problems
from engine.cli.options import PATHS, check_bounds, repeatable, value_option
from engine.rules.opa import OpaNotFound


@argument(
    "paths",
    nargs=-1,
    type=PATHS,
    label="<list[Path]>",
    help="Files or directories of Rego tests (default: . unless --golden is given).",
)
@click.option("-v", "--verbose", is_flag=True, help="Report every test.")
@value_option("-r", "--run", label="<str>", help="Only tests whose data.pkg.name matches REGEX.")
@value_option(
    "--format", "-f", "output_format", label="<str>", default="pretty", help="pretty or json."
)
@click.option(
    "--update-snapshots", is_flag=True, help="Write snapshots and golden expected.json files."
)
@repeatable(
    "--golden", type=PATHS, label="<list[Path]>", help="Golden case directory (repeatable)."
)
@repeatable(
    "-d",
    "--data",
    "rules",
    type=PATHS,
    label="<list[Path]>",
    help="Rules for golden cases without rules/ (repeatable).",
)
@repeatable(
    "--ignore",
    label="<list[str]>",
    help="Glob of file and directory names to skip while loading (repeatable, comma-separated).",
)
@value_option(
    "--timeout",
    type=float,
    default=5.0,
    label="<float>",
    help="Seconds one test (or golden scan rule) may take.",
)
@value_option(
    "--max-memory",
    type=int,
    default=2048,
    label="<int>",
    help="MiB of Wasm memory the tests may use.",
)
def test_command(
    paths: list[Path] | None,
    verbose: bool,
    run: str | None,
    output_format: str,
    update_snapshots: bool,
    golden: list[Path] | None,
    rules: list[Path] | None,
    ignore: list[str] | None,
    timeout: float,
    max_memory: int,
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
        raise click.BadParameter(
            f"unknown format {output_format!r} (pretty, json)", param_hint="--format"
        )
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    if run is not None:
        try:
            re.compile(run)
        except re.error as exc:
            raise click.BadParameter(
                f"invalid regular expression: {exc}", param_hint="--run"
            ) from None
    test_paths = paths if paths else ([] if golden else [Path(".")])
    options = TestOptions(run, timeout, max_memory, update_snapshots, _patterns(ignore))
    try:
        result = run_tests(test_paths, options) if test_paths else TestRun()
    except (CompileError, OpaNotFound) as exc:
        if debug_enabled():
            raise
        echo_problems([], [str(exc)])
        raise click.exceptions.Exit(1) from None
    for problem in result.problems:
        echo_problems([], [str(problem)])
    if golden:
        cases = run_golden(
            golden,
            rules or [],
            ScanOptions(rule_timeout=timeout, max_memory_mb=max_memory, timeout_option="--timeout"),
            update=update_snapshots,
        )
        result.outcomes += [as_test_outcome(c) for c in cases]
    if fmt == "json":
        click.echo(to_json(result))
    else:
        click.echo(pretty(result, verbose=verbose), nl=False)
    raise click.exceptions.Exit(result.exit_code())


def _patterns(values: list[str] | None) -> tuple[str, ...]:
    """``--ignore`` values split at commas, as ``opa test --ignore`` reads them."""
    return tuple(p for v in values or () for p in v.split(",") if p)
