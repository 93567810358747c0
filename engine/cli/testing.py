"""``rego-engine test``: Rego tests compiled to Wasm, and golden scan cases."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import click

from engine.cli.app import debug_enabled, echo_problems
from engine.cli.options import (
    check_bounds,
    data_option,
    format_option,
    input_paths,
    memory_option,
    option,
    seconds_option,
)
from engine.cli.settings import command, settings
from engine.rules.opa import OpaNotFound


@settings
class TestSettings:
    paths: Annotated[
        list[Path] | None,
        input_paths("Files or directories of Rego tests (default: . unless --golden is given)."),
    ] = None
    verbose: Annotated[bool, option("-v", "--verbose", help="Report every test.")] = False
    run: Annotated[
        str | None,
        option("-r", "--run", label="<str>", help="Only tests whose data.pkg.name matches REGEX."),
    ] = None
    output_format: Annotated[str, format_option("pretty", "json")] = "pretty"
    update_snapshots: Annotated[
        bool,
        option("--update-snapshots", help="Write snapshots and golden expected.json files."),
    ] = False
    golden: Annotated[
        list[Path] | None,
        option("--golden", label="<list[Path]>", help="Golden case directory (repeatable)."),
    ] = None
    rules: Annotated[
        list[Path] | None, data_option("Rules for golden cases without rules/ (repeatable).")
    ] = None
    ignore: Annotated[
        list[str] | None,
        option(
            "--ignore",
            label="<list[str]>",
            help="Glob of file and directory names to skip while loading (repeatable, "
            "comma-separated).",
        ),
    ] = None
    timeout: Annotated[
        float, seconds_option("Seconds one test (or golden scan rule) may take.")
    ] = 5.0
    max_memory: Annotated[int, memory_option("MiB of Wasm memory the tests may use.")] = 2048


@command(TestSettings)
def test_command(settings: TestSettings) -> None:
    """Run Rego tests (test_* rules) compiled to Wasm, and golden scan cases.

    Reports like opa test. Exit codes: 0 every test passed, 2 a test failed or
    errored, 1 a file could not be loaded or compiled.
    """
    from engine.rules.compiler import CompileError
    from engine.scanning.scanner import ScanOptions
    from engine.testing.golden import as_test_outcome, run_golden
    from engine.testing.report import pretty, to_json
    from engine.testing.runner import TestOptions, TestRun, run_tests

    run, golden, timeout, max_memory = (
        settings.run,
        settings.golden,
        settings.timeout,
        settings.max_memory,
    )
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    if run is not None:
        try:
            re.compile(run)
        except re.error as exc:
            raise click.BadParameter(
                f"invalid regular expression: {exc}", param_hint="--run"
            ) from None
    test_paths = settings.paths if settings.paths else ([] if golden else [Path(".")])
    options = TestOptions(
        run, timeout, max_memory, settings.update_snapshots, _patterns(settings.ignore)
    )
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
            settings.rules or [],
            ScanOptions(rule_timeout=timeout, max_memory_mb=max_memory, timeout_option="--timeout"),
            update=settings.update_snapshots,
        )
        result.outcomes += [as_test_outcome(c) for c in cases]
    if settings.output_format == "json":
        click.echo(to_json(result))
    else:
        click.echo(pretty(result, verbose=settings.verbose), nl=False)
    raise click.exceptions.Exit(result.exit_code())


def _patterns(values: list[str] | None) -> tuple[str, ...]:
    """``--ignore`` values split at commas, as ``opa test --ignore`` reads them."""
    return tuple(p for v in values or () for p in v.split(",") if p)
