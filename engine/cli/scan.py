"""``rego-engine scan``: rules over inputs, written in every asked-for format."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from engine.cli.app import EXIT_ERROR, argument, debug_enabled, echo_problems, fail
from engine.cli.options import (
    PATHS,
    check_bounds,
    input_type_option,
    load_options,
    max_file_size_option,
    one_rule_source,
    repeatable,
    skip_path_option,
    split_k8s_option,
    value_option,
    var_file_option,
    var_option,
)
from engine.core import cancellation
from engine.core.atomic_files import write_atomically
from engine.core.yaml_nodes import YamlFileError
from engine.results.formats import FORMATS, OutputPlanError, OutputTarget, plan_outputs, render
from engine.results.ignores import DEFAULT_IGNORE_FILE, IgnoreList, load_ignore_file
from engine.results.report import SEVERITY_LEVELS
from engine.rules.opa import OpaNotFound
from engine.rules.rule_pack import shipped_rule_files
from engine.rules.selection import RuleSelection
from engine.scanning.config import CONFIG_FILE, ScanConfig, find_config, load_config
from engine.scanning.progress import scan_progress

if TYPE_CHECKING:
    from engine.results.report import ScanReport
    from engine.scanning.scanner import ScanOptions

T = TypeVar("T")


FAIL_ON_CHOICES = ("low", "medium", "high", "critical", "none")


def _fail_on(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    if value.lower() not in FAIL_ON_CHOICES:
        raise click.BadParameter(f"{value!r} is not one of {', '.join(FAIL_ON_CHOICES)}")
    return value.lower()


def _complete_levels(choices: tuple[str, ...]) -> Callable[..., list[str]]:
    """Shell completion of a severity option: the choices that start with what is typed."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        return [c for c in choices if c.startswith(incomplete.lower())]

    return complete


def _severity(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    if value.lower() not in SEVERITY_LEVELS:
        raise click.BadParameter(f"{value!r} is not one of {', '.join(SEVERITY_LEVELS)}")
    return value.lower()


def _read_settings(path: Path, what: str, read: Callable[[Path], T]) -> T:
    """Read a settings file with ``read``; a missing or malformed one ends the run (exit 2)."""
    from engine.results.baseline import BaselineError

    if not path.is_file():
        fail(f"{path}: no such {what}")
    try:
        return read(path)
    except (YamlFileError, BaselineError) as exc:
        fail(str(exc))
        raise  # unreachable: _fail exits


def _scan_config(explicit: Path | None) -> ScanConfig | None:
    """The configuration file named by ``--config`` (trusted), else the one found from
    here (part of the scanned tree: what it may set is limited)."""
    path = explicit if explicit is not None else find_config(Path.cwd())
    if path is None:
        return None
    return _read_settings(
        path, "configuration file", partial(load_config, trusted=explicit is not None)
    )


def _from_config(ctx: click.Context, config: ScanConfig | None, name: str, value: Any) -> Any:
    """A ``scan`` parameter's value: the command line's when given there, else the config's."""
    if config is None or name not in config.values:
        return value
    source = ctx.get_parameter_source(name)
    if getattr(source, "name", None) in ("COMMANDLINE", "ENVIRONMENT"):
        return value
    return config.values[name]


def _ignore_list(path: Path | None) -> IgnoreList | None:
    """The ignore file named by ``--ignore-file``, else the default one when present."""
    if path is None:
        # the default file is part of the scanned tree: read only inside it
        path = Path(DEFAULT_IGNORE_FILE)
        if not path.is_file():
            return None
        return _read_settings(path, "ignore file", partial(load_ignore_file, root=Path.cwd()))
    return _read_settings(path, "ignore file", load_ignore_file)


def _write_baseline(report: ScanReport, path: Path) -> bool:
    """Write the report's failures as a baseline; False (an error printed) when it cannot be."""
    from engine.results.baseline import baseline_document, failing_findings

    try:
        write_atomically(path, baseline_document(report), create_parents=True)
    except OSError as exc:
        echo_problems([], [f"{path}: {exc.strerror or exc}"])
        return False
    click.echo(f"{path}: {len(failing_findings(report))} findings recorded", err=True)
    return True


def _write_outputs(
    report: ScanReport,
    targets: list[OutputTarget],
    *,
    no_color: bool,
    quiet: bool,
    show_ignored: bool,
) -> bool:
    """Render the report once per target; False when an output file could not be written."""
    written = True
    terminal = sys.stdout.isatty()
    for target in targets:
        color = target.to_stdout and terminal and not no_color and "NO_COLOR" not in os.environ
        width = shutil.get_terminal_size().columns if target.to_stdout and terminal else 120
        text = render(
            report, target.format, color=color, width=width, quiet=quiet, show_ignored=show_ignored
        )
        if target.to_stdout:
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
            continue
        try:
            write_atomically(Path(target.destination), text, create_parents=True)
        except OSError as exc:
            echo_problems([], [f"{target.destination}: {exc.strerror or exc}"])
            written = False
    return written


def _run_scan(
    paths: list[Path],
    rules: list[Path],
    options: ScanOptions,
    cluster: str | None,
    *,
    color: bool,
) -> ScanReport:
    """The scan, with a progress bar, here or on the cluster at address ``cluster``;
    a cluster that cannot be reached or goes away ends the run (exit 2)."""
    from engine.scanning.scanner import scan

    with scan_progress(color=color) as progress:
        options = replace(options, progress=progress)
        if cluster is None:
            return scan(paths, rules, options)
        import logging

        from engine.scanning.cluster import ClusterError, cluster_client

        try:
            with cluster_client(cluster) as client:
                # Dask logs a lost scheduler with tracebacks; the error below says it once.
                for handler in logging.getLogger("distributed").handlers:
                    handler.setLevel(logging.CRITICAL)
                return scan(paths, rules, replace(options, cluster=client))
        except ClusterError as exc:
            fail(str(exc))
            raise  # unreachable: fail exits


@argument(
    "paths",
    nargs=-1,
    type=PATHS,
    label="<list[Path]>",
    help="Input files or directories (IaC or State files); default: .",
)
@repeatable(
    "-d",
    "--data",
    "rules",
    type=PATHS,
    label="<list[Path]>",
    help="Rule or data file or directory (repeatable); default: the shipped rule pack.",
)
@repeatable(
    "--format",
    "-f",
    "output_formats",
    label="<list[str]>",
    help=f"Output format: {', '.join(FORMATS)} (default: table on a terminal, else "
    "json). Repeat with one -o each to write several.",
)
@repeatable(
    "-o",
    "--output",
    "outputs",
    label="<list[str]>",
    help="Write the output to FILE ('-': stdout); one per --format.",
)
@value_option(
    "--fail-on",
    label="<str>",
    help="Fail only on results at or above this severity: low, medium, high, "
    "critical, or none (default: any failing result).",
    callback=_fail_on,
    shell_complete=_complete_levels(FAIL_ON_CHOICES),
)
@value_option(
    "--severity",
    label="<str>",
    help="Show only results at or above this severity: low, medium, high, critical "
    "(in every format; the rest are not counted, nor in the exit code).",
    callback=_severity,
    shell_complete=_complete_levels(SEVERITY_LEVELS),
)
@value_option(
    "--rule-timeout",
    type=float,
    default=30.0,
    label="<float>",
    help="Seconds one rule may take on one input.",
)
@value_option(
    "--max-memory",
    type=int,
    default=2048,
    label="<int>",
    help="MiB of Wasm memory the rules may use.",
)
@value_option(
    "--max-output",
    type=float,
    default=16,
    label="<float>",
    help="MiB of results one rule may return per input.",
)
@input_type_option()
@skip_path_option()
@var_file_option()
@var_option()
@max_file_size_option()
@split_k8s_option()
@repeatable(
    "--rule",
    "rule_ids",
    label="<list[str]>",
    help="Run only this rule: metadata id or package (repeatable).",
)
@repeatable(
    "--exclude-rule",
    "exclude_rule_ids",
    label="<list[str]>",
    help="Do not run this rule: metadata id or package (repeatable).",
)
@value_option(
    "--ignore-file",
    type=PATHS,
    label="<path>",
    help=f"Ignore file of accepted findings (default: {DEFAULT_IGNORE_FILE} when present).",
)
@value_option(
    "--config",
    "config_file",
    type=PATHS,
    label="<path>",
    help=f"Configuration file (default: {CONFIG_FILE} here or up to the git root).",
)
@value_option(
    "--bundle",
    type=PATHS,
    label="<path>",
    help="Take the rules from a bundle made by rego-engine build (instead of -d; no opa needed).",
)
@value_option(
    "--baseline",
    "baseline_file",
    type=PATHS,
    label="<path>",
    help="Baseline file of earlier failures: they are reported as ignored, not failed.",
)
@value_option(
    "--baseline-write",
    type=PATHS,
    label="<path>",
    help="Write every failing result of this scan to FILE, a baseline for --baseline.",
)
@click.option(
    "--no-inline-suppressions",
    is_flag=True,
    help="Disregard suppression comments in the scanned files (for untrusted trees).",
)
@click.option(
    "--show-suppressed",
    is_flag=True,
    help="Table: list ignored results (accepted, baselined, suppressed inline) with "
    "their reasons; they are counted either way.",
)
@click.option(
    "--debug-print",
    is_flag=True,
    help="Write the rules' print() output to stderr (compiles them with their print calls).",
)
@click.option("--no-color", is_flag=True, help="No colours in the table (as NO_COLOR=1).")
@click.option("--quiet", "-q", is_flag=True, help="Table: leave out rules with nothing to report.")
@value_option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    label="<int range>",
    help="Evaluate inputs in N worker processes.",
)
@value_option(
    "--cluster",
    label="<str>",
    envvar="DASK_SCHEDULER_ADDRESS",
    show_envvar=True,
    help="Evaluate inputs on the Dask cluster whose scheduler is at ADDRESS "
    "(tcp://HOST:8786), or on N local worker processes (local:N); needs the "
    "cluster extra.",
)
@click.option(
    "--cluster-shared-fs",
    is_flag=True,
    help="The cluster's workers see the input files at the same paths: they load "
    "the inputs themselves instead of receiving them loaded.",
)
@click.pass_context
def scan_command(
    ctx: click.Context,
    paths: list[Path] | None,
    rules: list[Path] | None,
    output_formats: list[str] | None,
    outputs: list[str] | None,
    fail_on: str | None,
    severity: str | None,
    rule_timeout: float,
    max_memory: int,
    max_output: float,
    input_type: str | None,
    skip_paths: list[str] | None,
    var_files: list[Path] | None,
    variables: list[str] | None,
    max_file_size: float,
    split_k8s: bool,
    rule_ids: list[str] | None,
    exclude_rule_ids: list[str] | None,
    ignore_file: Path | None,
    config_file: Path | None,
    bundle: Path | None,
    baseline_file: Path | None,
    baseline_write: Path | None,
    no_inline_suppressions: bool,
    show_suppressed: bool,
    debug_print: bool,
    no_color: bool,
    quiet: bool,
    jobs: int,
    cluster: str | None,
    cluster_shared_fs: bool,
) -> None:
    """Run rules (without -d, the shipped rule pack) over inputs and write the results document.

    Exit codes: 0 no failing results, 1 failing results, 2 an input or rule
    could not be processed (results for the rest are still written), 3 no
    supported input found, 130/143 cancelled by SIGINT/SIGTERM (nothing
    written). Ignored results never fail the scan.
    """
    from engine.evaluation.shipped_pack import precompiled_pack
    from engine.scanning.scanner import ScanOptions

    config = _scan_config(config_file)

    def setting(name: str, value: Any) -> Any:
        return _from_config(ctx, config, name, value)

    paths = setting("paths", paths)
    rules = setting("rules", rules)
    output_formats = setting("output_formats", output_formats)
    outputs = setting("outputs", outputs)
    fail_on = setting("fail_on", fail_on)
    rule_timeout = setting("rule_timeout", rule_timeout)
    max_memory = setting("max_memory", max_memory)
    input_type = setting("input_type", input_type)
    skip_paths = setting("skip_paths", skip_paths)
    var_files = setting("var_files", var_files)
    variables = setting("variables", variables)
    max_file_size = setting("max_file_size", max_file_size)
    split_k8s = setting("split_k8s", split_k8s)
    rule_ids = setting("rule_ids", rule_ids)
    exclude_rule_ids = setting("exclude_rule_ids", exclude_rule_ids)
    ignore_file = setting("ignore_file", ignore_file)
    max_output = setting("max_output", max_output)
    bundle = setting("bundle", bundle)
    jobs = setting("jobs", jobs)
    cluster = setting("cluster", cluster)
    if cluster_shared_fs and cluster is None:
        raise click.BadParameter("needs --cluster", param_hint="--cluster-shared-fs")
    try:
        targets = plan_outputs(
            output_formats or [], outputs or [], stdout_is_terminal=sys.stdout.isatty()
        )
    except OutputPlanError as exc:
        raise click.BadParameter(str(exc), param_hint="--format/-o") from None
    one_rule_source(rules, bundle)
    check_bounds("--rule-timeout/--max-memory/--max-output", rule_timeout, max_memory, max_output)
    load = load_options(input_type, skip_paths, var_files, variables, max_file_size, split_k8s)
    ignores = _ignore_list(ignore_file)
    baseline = None
    if baseline_file:
        from engine.results.baseline import load_baseline

        baseline = _read_settings(baseline_file, "baseline file", load_baseline)
    if not rules and bundle is None:
        bundle = precompiled_pack()  # the shipped pack, when the install carries it
    # Signals only request cancellation here: the scan stops at its next
    # checkpoint, and an output being written is finished first.
    with cancellation.deferred():
        _scan_and_write(
            paths,
            rules,
            bundle,
            targets,
            config,
            fail_on,
            ScanOptions(
                rule_timeout=rule_timeout,
                max_memory_mb=max_memory,
                max_output_mb=max_output,
                load=load,
                selection=RuleSelection(tuple(rule_ids or ()), tuple(exclude_rule_ids or ())),
                ignores=ignores,
                baseline=baseline,
                inline_suppressions=not no_inline_suppressions,
                bundle=bundle,
                jobs=jobs,
                cluster_shared_fs=cluster_shared_fs,
                debug_print=debug_print,
            ),
            baseline_write=baseline_write,
            no_color=no_color,
            quiet=quiet,
            severity=severity,
            show_suppressed=show_suppressed,
            cluster=cluster,
        )


def _scan_and_write(
    paths: list[Path] | None,
    rules: list[Path] | None,
    bundle: Path | None,
    targets: list[OutputTarget],
    config: ScanConfig | None,
    fail_on: str | None,
    options: ScanOptions,
    *,
    baseline_write: Path | None,
    no_color: bool,
    quiet: bool,
    severity: str | None,
    show_suppressed: bool,
    cluster: str | None,
) -> None:
    """Scan, report the problems and write every output; ends the command."""
    from engine.evaluation.bundle import BundleError
    from engine.results.formats.view import unlisted_rule_errors
    from engine.rules.compiler import CompileError
    from engine.wasm.host import EvalError

    try:
        report = _run_scan(
            paths or [Path(".")],
            rules or ([] if bundle is not None else shipped_rule_files()),
            options,
            cluster,
            color=not no_color,
        )
    except (CompileError, OpaNotFound, BundleError, EvalError) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    if config is not None and config.refused:
        report.errors[:0] = config.refused
    echo_problems(report.warnings, report.errors)
    for scan_input, package, error in unlisted_rule_errors(report):
        echo_problems([], [f"{scan_input.name}: {package}: {error}"])
    cancellation.check()  # cancelled while scanning: write nothing
    written = _write_baseline(report, baseline_write) if baseline_write is not None else True
    if severity is not None:
        from engine.results.severity_filter import at_or_above

        filtered = at_or_above(report, severity)
        report = filtered.report
        click.echo(
            f"{filtered.left_out} results below severity {severity} left out (--severity)",
            err=True,
        )
    shown = _write_outputs(
        report, targets, no_color=no_color, quiet=quiet, show_ignored=show_suppressed
    )
    if not shown or not written:
        raise click.exceptions.Exit(EXIT_ERROR)
    raise click.exceptions.Exit(report.exit_code(fail_on))
