"""``rego-engine scan``: rules over inputs, written in every asked-for format."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import click

from engine.cli.app import EXIT_ERROR, debug_enabled, echo_problems, fail
from engine.cli.options import (
    FAIL_ON_CHOICES,
    SEVERITY_LEVELS,
    InputType,
    LoadTimeout,
    MaxFileSize,
    SkipPaths,
    SplitK8s,
    VarFiles,
    Variables,
    bundle_option,
    check_bounds,
    choice_of,
    completing,
    data_option,
    input_paths,
    memory_option,
    one_rule_source,
    option,
    seconds_option,
)
from engine.cli.settings import command, load_options, merged, settings
from engine.core import cancellation
from engine.core.atomic_files import write_atomically
from engine.core.yaml_nodes import YamlFileError
from engine.results.coverage import scan_coverage
from engine.results.formats import FORMATS, OutputPlanError, OutputTarget, plan_outputs, render
from engine.results.ignores import DEFAULT_IGNORE_FILE, IgnoreList, load_ignore_file
from engine.results.report import EXIT_FAILURES, EXIT_NO_INPUT, EXIT_OK
from engine.rules.opa import OpaNotFound
from engine.rules.rule_pack import shipped_rule_files
from engine.rules.selection import RuleSelection
from engine.scanning.config import CONFIG_FILE, ScanConfig, find_config, load_config
from engine.scanning.progress import scan_progress

if TYPE_CHECKING:
    from engine.results.report import ScanReport
    from engine.scanning.scanner import ScanOptions

T = TypeVar("T")


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
    show_code: bool = False,
    docs_url: str | None = None,
) -> bool:
    """Render the report once per target; False when an output file could not be written."""
    from engine.results.code_excerpts import CodeLines

    written = True
    terminal = sys.stdout.isatty()
    code = CodeLines.of(report) if show_code else None
    for target in targets:
        color = target.to_stdout and terminal and not no_color and "NO_COLOR" not in os.environ
        width = shutil.get_terminal_size().columns if target.to_stdout and terminal else 120
        text = render(
            report,
            target.format,
            color=color,
            width=width,
            quiet=quiet,
            show_ignored=show_ignored,
            code=code,
            docs_url=docs_url,
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
        if progress is not None:
            options = replace(options, progress=progress.scanning, load_progress=progress.loading)
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


@settings
class ScanSettings:
    paths: Annotated[
        list[Path] | None,
        input_paths("Input files or directories (IaC or State files); default: ."),
    ] = None
    rules: Annotated[
        list[Path] | None,
        data_option("Rule or data file or directory (repeatable); default: the shipped rule pack."),
    ] = None
    output_formats: Annotated[
        list[str] | None,
        option(
            "--format",
            "-f",
            label="<list[str]>",
            help=f"Output format: {', '.join(FORMATS)} (default: table on a terminal, else "
            "json). Repeat with one -o each to write several.",
        ),
    ] = None
    outputs: Annotated[
        list[str] | None,
        option(
            "-o",
            "--output",
            label="<list[str]>",
            help="Write the output to FILE ('-': stdout); one per --format.",
        ),
    ] = None
    fail_on: Annotated[
        str | None,
        option(
            "--fail-on",
            label="<str>",
            help="Fail only on results at or above this severity: low, medium, high, "
            "critical, or none (default: any failing result).",
            callback=choice_of(FAIL_ON_CHOICES),
            autocompletion=completing(FAIL_ON_CHOICES),
        ),
    ] = None
    severity: Annotated[
        str | None,
        option(
            "--severity",
            label="<str>",
            help="Show only results at or above this severity: low, medium, high, critical "
            "(in every format; the rest are not counted, nor in the exit code).",
            callback=choice_of(SEVERITY_LEVELS),
            autocompletion=completing(SEVERITY_LEVELS),
        ),
    ] = None
    rule_timeout: Annotated[
        float, seconds_option("Seconds one rule may take on one input.", "--rule-timeout")
    ] = 30.0
    max_memory: Annotated[int, memory_option("MiB of Wasm memory the rules may use.")] = 2048
    max_output: Annotated[
        float,
        option(
            "--max-output",
            label="<float>",
            help="MiB of results one rule may return per input.",
            show_default=True,
        ),
    ] = 16
    input_type: InputType = None
    skip_paths: SkipPaths = None
    var_files: VarFiles = None
    variables: Variables = None
    max_file_size: MaxFileSize = 256
    load_timeout: LoadTimeout = 120
    split_k8s: SplitK8s = False
    rule_ids: Annotated[
        list[str] | None,
        option(
            "--rule",
            label="<list[str]>",
            help="Run only this rule: metadata id or package (repeatable).",
        ),
    ] = None
    exclude_rule_ids: Annotated[
        list[str] | None,
        option(
            "--exclude-rule",
            label="<list[str]>",
            help="Do not run this rule: metadata id or package (repeatable).",
        ),
    ] = None
    ignore_file: Annotated[
        Path | None,
        option(
            "--ignore-file",
            label="<path>",
            help=f"Ignore file of accepted findings (default: {DEFAULT_IGNORE_FILE} when present).",
        ),
    ] = None
    config_file: Annotated[
        Path | None,
        option(
            "--config",
            label="<path>",
            help=f"Configuration file (default: {CONFIG_FILE} here or up to the git root).",
        ),
    ] = None
    bundle: Annotated[
        Path | None,
        bundle_option(
            "Take the rules from a bundle made by rego-engine build (instead of -d; no opa needed)."
        ),
    ] = None
    baseline_file: Annotated[
        Path | None,
        option(
            "--baseline",
            label="<path>",
            help="Baseline file of earlier failures: they are reported as ignored, not failed.",
        ),
    ] = None
    baseline_write: Annotated[
        Path | None,
        option(
            "--baseline-write",
            label="<path>",
            help="Write every failing result of this scan to FILE, a baseline for --baseline.",
        ),
    ] = None
    no_inline_suppressions: Annotated[
        bool,
        option(
            "--no-inline-suppressions",
            help="Disregard suppression comments in the scanned files (for untrusted trees).",
        ),
    ] = False
    show_suppressed: Annotated[
        bool,
        option(
            "--show-suppressed",
            help="Table: list ignored results (accepted, baselined, suppressed inline) with "
            "their reasons; they are counted either way.",
        ),
    ] = False
    show_code: Annotated[
        bool,
        option("--show-code", help="Table: show the source lines around each listed result."),
    ] = False
    fail_on_warn: Annotated[
        bool,
        option(
            "--fail-on-warn",
            help="Count warnings (results of a rule's warn) as failures in the exit code.",
        ),
    ] = False
    fail_on_uncovered: Annotated[
        bool,
        option(
            "--fail-on-uncovered",
            help="Exit 1 when some scanned resource was checked by no rule (the summary "
            "counts them by type).",
        ),
    ] = False
    docs_url: Annotated[
        str | None,
        option(
            "--docs-url",
            label="<str>",
            envvar="REGO_ENGINE_DOCS_URL",
            show_envvar=True,
            help="SARIF: each rule's helpUri, with {id} standing for the rule id (a URL "
            "without {id} is a base: URL/ID.md); default: the rule's first reference.",
        ),
    ] = None
    debug_print: Annotated[
        bool,
        option(
            "--debug-print",
            help="Write the rules' print() output to stderr (compiles them with their print "
            "calls).",
        ),
    ] = False
    no_color: Annotated[
        bool, option("--no-color", help="No colours in the table (as NO_COLOR=1).")
    ] = False
    quiet: Annotated[
        bool, option("--quiet", "-q", help="Table: leave out rules with nothing to report.")
    ] = False
    jobs: Annotated[
        int,
        option(
            "--jobs",
            "-j",
            label="<int range>",
            help="Evaluate inputs in N worker processes.",
            min=1,
            show_default=True,
        ),
    ] = 1
    cluster: Annotated[
        str | None,
        option(
            "--cluster",
            label="<str>",
            envvar="DASK_SCHEDULER_ADDRESS",
            show_envvar=True,
            help="Evaluate inputs on the Dask cluster whose scheduler is at ADDRESS "
            "(tcp://HOST:8786), or on N local worker processes (local:N); needs the "
            "cluster extra.",
        ),
    ] = None
    cluster_shared_fs: Annotated[
        bool,
        option(
            "--cluster-shared-fs",
            help="The cluster's workers see the input files at the same paths: they load "
            "the inputs themselves instead of receiving them loaded.",
        ),
    ] = False
    no_input_ok: Annotated[
        bool,
        option(
            "--no-input-ok",
            help="Exit 0, with a one-line note, when no supported input is found (as a "
            "pre-commit hook in a repository without infrastructure files).",
        ),
    ] = False


@command(ScanSettings)
def scan_command(given: ScanSettings) -> None:
    """Run rules (without -d, the shipped rule pack) over inputs and write the results document.

    Exit codes: 0 no failing results, 1 failing results (or, with
    --fail-on-uncovered, resources no rule checked; warnings only with
    --fail-on-warn), 2 an input or rule
    could not be processed (results for the rest are still written), 3 no
    supported input found, 130/143 cancelled by SIGINT/SIGTERM (nothing
    written). Ignored results never fail the scan.
    """
    config = _scan_config(given.config_file)
    settings = merged(given, config.values if config is not None else {})
    if settings.cluster_shared_fs and settings.cluster is None:
        raise click.BadParameter("needs --cluster", param_hint="--cluster-shared-fs")
    try:
        targets = plan_outputs(
            settings.output_formats or [],
            settings.outputs or [],
            stdout_is_terminal=sys.stdout.isatty(),
        )
    except OutputPlanError as exc:
        raise click.BadParameter(str(exc), param_hint="--format/-o") from None
    one_rule_source(settings.rules, settings.bundle)
    options = _scan_options(settings)
    # Signals only request cancellation here: the scan stops at its next
    # checkpoint, and an output being written is finished first.
    with cancellation.deferred():
        _scan_and_write(settings, options, targets, config)


def _scan_options(settings: ScanSettings) -> ScanOptions:
    """The library's scan options from the command's settings (bounds checked,
    the ignore and baseline files read)."""
    from engine.evaluation.shipped_pack import precompiled_pack
    from engine.scanning.scanner import ScanOptions

    check_bounds(
        "--rule-timeout/--max-memory/--max-output",
        settings.rule_timeout,
        settings.max_memory,
        settings.max_output,
    )
    baseline = None
    if settings.baseline_file:
        from engine.results.baseline import load_baseline

        baseline = _read_settings(settings.baseline_file, "baseline file", load_baseline)
    bundle = settings.bundle
    if not settings.rules and bundle is None:
        bundle = precompiled_pack()  # the shipped pack, when the install carries it
    return ScanOptions(
        rule_timeout=settings.rule_timeout,
        max_memory_mb=settings.max_memory,
        max_output_mb=settings.max_output,
        load=load_options(settings),
        selection=RuleSelection(
            tuple(settings.rule_ids or ()), tuple(settings.exclude_rule_ids or ())
        ),
        ignores=_ignore_list(settings.ignore_file),
        baseline=baseline,
        inline_suppressions=not settings.no_inline_suppressions,
        bundle=bundle,
        jobs=settings.jobs,
        cluster_shared_fs=settings.cluster_shared_fs,
        debug_print=settings.debug_print,
    )


def _scan_and_write(
    settings: ScanSettings,
    options: ScanOptions,
    targets: list[OutputTarget],
    config: ScanConfig | None,
) -> None:
    """Scan, report the problems and write every output; ends the command."""
    from engine.evaluation.bundle import BundleError
    from engine.results.formats.view import unlisted_rule_errors
    from engine.rules.compiler import CompileError
    from engine.wasm.host import EvalError

    try:
        report = _run_scan(
            settings.paths or [Path(".")],
            settings.rules or ([] if options.bundle is not None else shipped_rule_files()),
            options,
            settings.cluster,
            color=not settings.no_color,
        )
    except (CompileError, OpaNotFound, BundleError, EvalError) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    if config is not None and config.refused:
        report.errors[:0] = config.refused
    nothing_to_scan = settings.no_input_ok and report.exit_code(settings.fail_on) == EXIT_NO_INPUT
    echo_problems([] if nothing_to_scan else report.warnings, report.errors)
    for scan_input, package, error in unlisted_rule_errors(report):
        echo_problems([], [f"{scan_input.name}: {package}: {error}"])
    coverage = scan_coverage(report)
    if coverage.none_applied:
        report.warnings.append(coverage.line())
        echo_problems([coverage.line()], [])
    cancellation.check()  # cancelled while scanning: write nothing
    baseline_write = settings.baseline_write
    written = _write_baseline(report, baseline_write) if baseline_write is not None else True
    if settings.severity is not None:
        from engine.scanning.post_scan import at_or_above_severity

        filtered = at_or_above_severity(report, settings.severity)
        report = filtered.report
        click.echo(
            f"{filtered.left_out} results below severity {settings.severity} left out (--severity)",
            err=True,
        )
    shown = _write_outputs(
        report,
        targets,
        no_color=settings.no_color,
        quiet=settings.quiet,
        show_ignored=settings.show_suppressed,
        show_code=settings.show_code,
        docs_url=settings.docs_url,
    )
    if not shown or not written:
        raise click.exceptions.Exit(EXIT_ERROR)
    if nothing_to_scan:
        click.echo(f"note: {'; '.join(report.warnings)}: nothing to scan", err=True)
        raise click.exceptions.Exit(0)
    code = report.exit_code(settings.fail_on, fail_on_warn=settings.fail_on_warn)
    if code == EXIT_OK and settings.fail_on_uncovered and coverage.uncovered:
        code = EXIT_FAILURES
    raise click.exceptions.Exit(code)
