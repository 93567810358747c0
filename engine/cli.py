"""The ``rego-engine`` command line: a thin layer over the library API."""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import orjson
import typer

from engine import values
from engine.bundle import BundleError, build_bundle, read_bundle
from engine.change_policies import RISK_LEVELS
from engine.change_set import RENAME_THRESHOLD
from engine.compiler import CompileError
from engine.config import CONFIG_FILE, ScanConfig, find_config, load_config
from engine.diff import FORMATS as DIFF_FORMATS
from engine.diff import DiffError, diff_inputs, diff_plan_file
from engine.evaluation import eval_ref, read_input
from engine.formats import FORMATS, OutputPlanError, OutputTarget, plan_outputs, render
from engine.formats.view import unlisted_rule_errors
from engine.graph_export import FORMATS as GRAPH_FORMATS
from engine.graph_export import build_graph
from engine.ignores import DEFAULT_IGNORE_FILE, IgnoreList, load_ignore_file
from engine.inputs import LoadOptions, load_inputs
from engine.internal_errors import internal_error
from engine.loaders.detection import LOADER_INPUT_TYPES
from engine.opa import OpaNotFound
from engine.progress import scan_progress
from engine.relation_listing import list_relations
from engine.report import ScanReport
from engine.rule_catalogue import catalogue_of, rule_catalogue
from engine.rule_pack import shipped_rule_files
from engine.scanner import ScanOptions, scan
from engine.selection import RuleSelection
from engine.sources import SourceError
from engine.version import version_info
from engine.wasm_host import EvalError, Limits
from engine.yaml_nodes import YamlFileError

EXIT_ERROR = 2

T = TypeVar("T")

app = typer.Typer(
    name="rego-engine",
    help="Run Rego policies over infrastructure resources, compiled to WebAssembly.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_DEBUG = False


def _echo_problems(warnings: list[str], errors: list[str]) -> None:
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    for error in errors:
        typer.echo(f"error: {error}", err=True)


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_ERROR)


@app.callback()
def _main(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
) -> None:
    global _DEBUG
    _DEBUG = debug


@app.command("eval")
def eval_command(
    ref: Annotated[str, typer.Argument(help="The data reference to evaluate, e.g. data.pkg.rule.")],
    data: Annotated[
        list[Path],
        typer.Option("-d", "--data", help="Policy or data file or directory (repeatable)."),
    ],
    input_path: Annotated[
        Path | None, typer.Option("-i", "--input", help="Input document (JSON or YAML).")
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds the evaluation may take.")
    ] = 30.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", help="MiB of Wasm memory the evaluation may use.")
    ] = 2048,
) -> None:
    """Evaluate REF and print its value as JSON (nothing when it is undefined)."""
    try:
        input_json = read_input(input_path) if input_path is not None else None
        result = eval_ref(
            data,
            ref,
            input_json=input_json,
            # The value asked for is the output: bounded only by the Wasm memory.
            limits=Limits(timeout, max_memory, max_memory, timeout_option="--timeout"),
        )
    except (SourceError, CompileError, EvalError, OpaNotFound, ValueError) as exc:
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    if result.defined:
        sys.stdout.buffer.write(values.dumps_json(result.value, indent=True) + b"\n")


InputTypeOption = Annotated[
    str | None,
    typer.Option(
        "--input-type",
        help="Load only inputs of this type: " + ", ".join(LOADER_INPUT_TYPES) + ".",
    ),
]
SkipPathOption = Annotated[
    list[str] | None,
    typer.Option(
        "--skip-path", help="Skip walked files and directories matching GLOB (repeatable)."
    ),
]
VarFileOption = Annotated[
    list[Path] | None,
    typer.Option("--var-file", help="Terraform variables file for root modules (repeatable)."),
]
VarOption = Annotated[
    list[str] | None,
    typer.Option("--var", help="Terraform variable NAME=VALUE (repeatable)."),
]
MaxFileSizeOption = Annotated[
    float, typer.Option("--max-file-size", help="Report files larger than this many MB.")
]
SplitK8sOption = Annotated[
    bool,
    typer.Option("--split-k8s", help="One State per Kubernetes file, not per directory."),
]


def _load_options(
    input_type: str | None,
    skip_paths: list[str] | None,
    var_files: list[Path] | None,
    variables: list[str] | None,
    max_file_size: float,
    split_k8s: bool,
) -> LoadOptions:
    if input_type is not None and input_type not in LOADER_INPUT_TYPES:
        raise typer.BadParameter(
            f"{input_type!r} is not one of {', '.join(LOADER_INPUT_TYPES)}",
            param_hint="--input-type",
        )
    if max_file_size <= 0:
        raise typer.BadParameter("must be positive", param_hint="--max-file-size")
    named: dict[str, str] = {}
    for assignment in variables or []:
        name, equals, value = assignment.partition("=")
        if not equals or not name:
            raise typer.BadParameter(f"{assignment!r} is not NAME=VALUE", param_hint="--var")
        named[name] = value
    return LoadOptions(
        input_type=input_type,
        skip_paths=tuple(skip_paths or ()),
        max_file_mb=max_file_size,
        var_files=tuple(var_files or ()),
        variables=named,
        split_k8s=split_k8s,
    )


@app.command("state")
def state_command(
    paths: Annotated[list[Path], typer.Argument(help="Input files or directories.")],
    input_type: InputTypeOption = None,
    skip_paths: SkipPathOption = None,
    var_files: VarFileOption = None,
    variables: VarOption = None,
    max_file_size: MaxFileSizeOption = 256,
    split_k8s: SplitK8sOption = False,
) -> None:
    """Print the States loaded from PATHs as a JSON array: the documents rules see.

    Problems go to stderr as path:line: message. Exit codes: 0 every input
    was loaded, 2 an input could not be (the other States are still printed).
    """
    options = _load_options(input_type, skip_paths, var_files, variables, max_file_size, split_k8s)
    loaded = load_inputs(paths, options)
    for problem in loaded.problems:
        typer.echo(str(problem), err=True)
    documents = [i.state.document for i in loaded.inputs]
    sys.stdout.buffer.write(values.dumps_json(documents, indent=True) + b"\n")
    raise typer.Exit(EXIT_ERROR if loaded.problems else 0)


FAIL_ON_CHOICES = ("low", "medium", "high", "critical", "none")


def _one_rule_source(rules: list[Path] | None, bundle: Path | None) -> None:
    """Rules come from -d paths or a bundle, never both (a usage error)."""
    if bundle is not None and rules:
        raise typer.BadParameter("give rules with -d or --bundle, not both", param_hint="--bundle")


def _fail_on(value: str | None) -> str | None:
    if value is None:
        return None
    if value.lower() not in FAIL_ON_CHOICES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FAIL_ON_CHOICES)}")
    return value.lower()


def _read_settings(path: Path, what: str, read: Callable[[Path], T]) -> T:
    """Read a settings file with ``read``; a missing or malformed one ends the run (exit 2)."""
    if not path.is_file():
        _fail(f"{path}: no such {what}")
    try:
        return read(path)
    except YamlFileError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


def _scan_config(explicit: Path | None) -> ScanConfig | None:
    """The configuration file named by ``--config``, else the one found from here."""
    path = explicit if explicit is not None else find_config(Path.cwd())
    if path is None:
        return None
    return _read_settings(path, "configuration file", load_config)


def _from_config(ctx: typer.Context, config: ScanConfig | None, name: str, value: Any) -> Any:
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
        path = Path(DEFAULT_IGNORE_FILE)
        if not path.is_file():
            return None
    return _read_settings(path, "ignore file", load_ignore_file)


def _write_outputs(report: ScanReport, targets: list[OutputTarget]) -> bool:
    """Render the report once per target; False when an output file could not be written."""
    written = True
    terminal = sys.stdout.isatty()
    for target in targets:
        color = target.to_stdout and terminal and "NO_COLOR" not in os.environ
        width = shutil.get_terminal_size().columns if target.to_stdout and terminal else 120
        text = render(report, target.format, color=color, width=width)
        if target.to_stdout:
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
            continue
        try:
            Path(target.destination).write_bytes(text)
        except OSError as exc:
            typer.echo(f"error: {target.destination}: {exc.strerror or exc}", err=True)
            written = False
    return written


@app.command("scan")
def scan_command(
    ctx: typer.Context,
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Input files or directories (IaC or State files); default: .",
            show_default=False,
        ),
    ] = None,
    rules: Annotated[
        list[Path] | None,
        typer.Option(
            "-d",
            "--data",
            help="Rule or data file or directory (repeatable); default: the shipped rule pack.",
        ),
    ] = None,
    output_formats: Annotated[
        list[str] | None,
        typer.Option(
            "--format",
            "-f",
            help=f"Output format: {', '.join(FORMATS)} (default: table on a terminal, else "
            "json). Repeat with one -o each to write several.",
            show_default=False,
        ),
    ] = None,
    outputs: Annotated[
        list[str] | None,
        typer.Option(
            "-o", "--output", help="Write the output to FILE ('-': stdout); one per --format."
        ),
    ] = None,
    fail_on: Annotated[
        str | None,
        typer.Option(
            "--fail-on",
            help="Fail only on results at or above this severity: low, medium, high, "
            "critical, or none (default: any failing result).",
            callback=_fail_on,
        ),
    ] = None,
    rule_timeout: Annotated[
        float, typer.Option("--rule-timeout", help="Seconds one rule may take on one input.")
    ] = 30.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", help="MiB of Wasm memory the rules may use.")
    ] = 2048,
    max_output: Annotated[
        float, typer.Option("--max-output", help="MiB of results one rule may return per input.")
    ] = 16,
    input_type: InputTypeOption = None,
    skip_paths: SkipPathOption = None,
    var_files: VarFileOption = None,
    variables: VarOption = None,
    max_file_size: MaxFileSizeOption = 256,
    split_k8s: SplitK8sOption = False,
    rule_ids: Annotated[
        list[str] | None,
        typer.Option("--rule", help="Run only this rule: metadata id or package (repeatable)."),
    ] = None,
    exclude_rule_ids: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude-rule", help="Do not run this rule: metadata id or package (repeatable)."
        ),
    ] = None,
    ignore_file: Annotated[
        Path | None,
        typer.Option(
            "--ignore-file",
            help=f"Ignore file of accepted findings (default: {DEFAULT_IGNORE_FILE} when present).",
        ),
    ] = None,
    config_file: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help=f"Configuration file (default: {CONFIG_FILE} here or up to the git root).",
        ),
    ] = None,
    bundle: Annotated[
        Path | None,
        typer.Option(
            "--bundle",
            help="Take the rules from a bundle made by rego-engine build (instead of -d; "
            "no opa needed).",
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", help="Evaluate inputs in N worker processes.", min=1),
    ] = 1,
) -> None:
    """Run rules (without -d, the shipped rule pack) over inputs and write the results document.

    Exit codes: 0 no failing results, 1 failing results, 2 an input or rule
    could not be processed (results for the rest are still written), 3 no
    supported input found. Ignored results never fail the scan.
    """
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
    try:
        targets = plan_outputs(
            output_formats or [], outputs or [], stdout_is_terminal=sys.stdout.isatty()
        )
    except OutputPlanError as exc:
        raise typer.BadParameter(str(exc), param_hint="--format/-o") from None
    _one_rule_source(rules, bundle)
    if rule_timeout <= 0 or max_memory <= 0 or max_output <= 0:
        raise typer.BadParameter(
            "bounds must be positive", param_hint="--rule-timeout/--max-memory/--max-output"
        )
    load = _load_options(input_type, skip_paths, var_files, variables, max_file_size, split_k8s)
    ignores = _ignore_list(ignore_file)
    try:
        with scan_progress() as progress:
            report = scan(
                paths or [Path(".")],
                rules or ([] if bundle is not None else shipped_rule_files()),
                ScanOptions(
                    rule_timeout=rule_timeout,
                    max_memory_mb=max_memory,
                    max_output_mb=max_output,
                    progress=progress,
                    load=load,
                    selection=RuleSelection(tuple(rule_ids or ()), tuple(exclude_rule_ids or ())),
                    ignores=ignores,
                    bundle=bundle,
                    jobs=jobs,
                ),
            )
    except (CompileError, OpaNotFound, BundleError) as exc:
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    _echo_problems(report.warnings, report.errors)
    for scan_input, package, error in unlisted_rule_errors(report):
        typer.echo(f"error: {scan_input.name}: {package}: {error}", err=True)
    if not _write_outputs(report, targets):
        raise typer.Exit(EXIT_ERROR)
    raise typer.Exit(report.exit_code(fail_on))


@app.command("build")
def build_command(
    rules: Annotated[
        list[Path],
        typer.Option("-d", "--data", help="Rule or data file or directory (repeatable)."),
    ],
    output: Annotated[Path, typer.Option("-o", "--output", help="The bundle to write.")] = Path(
        "bundle.tar.gz"
    ),
) -> None:
    """Compile rules into a bundle that scan --bundle runs with no opa binary.

    Rules or files that cannot be compiled are reported and recorded in the
    bundle (a scan with it reports them as a scan from source does).
    Exit codes: 0 everything compiled, 2 something was set aside or nothing
    could be built.
    """
    try:
        prepared = build_bundle(rules, output)
    except (CompileError, OpaNotFound, ValueError) as exc:
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    except OSError as exc:
        _fail(f"{output}: {exc.strerror or exc}")
        return
    errors = prepared.errors
    if not prepared.rule_set.rules and not prepared.rule_set.failed:
        errors.append(
            "no rules found: a rule is a package under rules. that defines deny "
            f"(searched {prepared.origin})"
        )
    _echo_problems(prepared.warnings, errors)
    typer.echo(f"{output}: {len(prepared.rule_set.rules)} rules", err=True)
    raise typer.Exit(EXIT_ERROR if errors else 0)


@app.command("rules")
def rules_command(
    rules: Annotated[
        list[Path] | None,
        typer.Option("-d", "--data", help="Rule or data file or directory (repeatable)."),
    ] = None,
    bundle: Annotated[
        Path | None, typer.Option("--bundle", help="List the rules of a bundle instead.")
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="table or json.", case_sensitive=False)
    ] = "table",
) -> None:
    """List rules (without -d or --bundle, the shipped rule pack): package, id,
    title, severity, input types, resource type and the relations they query.

    Exit codes: 0 every rule could be read, 2 a file or rule could not be.
    """
    fmt = output_format.lower()
    if fmt not in ("table", "json"):
        raise typer.BadParameter(
            f"unknown format {output_format!r} (table, json)", param_hint="--format"
        )
    _one_rule_source(rules, bundle)
    try:
        listed = (
            catalogue_of(read_bundle(bundle))
            if bundle
            else rule_catalogue(rules or shipped_rule_files())
        )
    except (CompileError, OpaNotFound, BundleError) as exc:
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    _echo_problems(listed.warnings, listed.errors)
    if fmt == "json":
        sys.stdout.buffer.write(listed.to_json() + b"\n")
    else:
        sys.stdout.write(listed.to_table())
    raise typer.Exit(listed.exit_code())


@app.command("relations")
def relations_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Input files or directories to count edges on.", show_default=False),
    ] = None,
    rules: Annotated[
        list[Path] | None,
        typer.Option(
            "-d", "--data", help="Rule or relation directory (repeatable); default: shipped only."
        ),
    ] = None,
    edges: Annotated[bool, typer.Option("--edges", help="Print every edge.")] = False,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="table or json.", case_sensitive=False)
    ] = "table",
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds the relations may take per input.")
    ] = 30.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", help="MiB of Wasm memory the relations may use.")
    ] = 2048,
) -> None:
    """List relations by name with the files that define them; with inputs, the
    number of edges per input (and with --edges, the edges themselves).

    Exit codes: 0 everything was read, 2 a file, input or relation could not be.
    """
    fmt = output_format.lower()
    if fmt not in ("table", "json"):
        raise typer.BadParameter(
            f"unknown format {output_format!r} (table, json)", param_hint="--format"
        )
    try:
        listing = list_relations(
            rules or [],
            paths or [],
            with_edges=edges,
            limits=Limits(timeout, max_memory, timeout_option="--timeout"),
        )
    except (CompileError, OpaNotFound) as exc:
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    _echo_problems(listing.warnings, listing.errors)
    if fmt == "json":
        sys.stdout.buffer.write(listing.to_json(with_edges=edges) + b"\n")
    else:
        sys.stdout.write(listing.to_table(with_edges=edges))
    raise typer.Exit(listing.exit_code())


@app.command("test")
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
    from engine.golden import as_test_outcome, run_golden
    from engine.test_report import pretty, to_json
    from engine.test_runner import TestOptions, TestRun, run_tests

    fmt = output_format.lower()
    if fmt not in ("pretty", "json"):
        raise typer.BadParameter(
            f"unknown format {output_format!r} (pretty, json)", param_hint="--format"
        )
    if timeout <= 0 or max_memory <= 0:
        raise typer.BadParameter("bounds must be positive", param_hint="--timeout/--max-memory")
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
        if _DEBUG:
            raise
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    for problem in result.problems:
        typer.echo(f"error: {problem}", err=True)
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


@app.command("fixture")
def fixture_command(
    paths: Annotated[list[Path], typer.Argument(help="IaC files or directories (one State).")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the fixture to FILE.")
    ] = None,
    package: Annotated[
        str | None,
        typer.Option("--package", help="Package of the Rego module (default fixtures.<name>)."),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="rego or json.", case_sensitive=False)
    ] = "rego",
    input_type: InputTypeOption = None,
    var_files: VarFileOption = None,
    variables: VarOption = None,
) -> None:
    """Turn IaC files into a test fixture: a Rego module holding mock_input (the
    State rules see), or the State as JSON.

    Exit codes: 0 written, 2 the paths did not load to exactly one State.
    """
    from engine.fixture import (
        FixtureError,
        default_package,
        json_document,
        load_fixture,
        rego_module,
    )

    fmt = output_format.lower()
    if fmt not in ("rego", "json"):
        raise typer.BadParameter(
            f"unknown format {output_format!r} (rego, json)", param_hint="--format"
        )
    load = _load_options(input_type, None, var_files, variables, 256, False)
    try:
        fixture = load_fixture(paths, load)
        text = (
            json_document(fixture)
            if fmt == "json"
            else rego_module(fixture, package or default_package(paths[0]))
        )
    except FixtureError as exc:
        _fail(str(exc))
        return
    for problem in fixture.problems:
        typer.echo(f"warning: {problem}", err=True)
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        _fail(f"{output}: {exc.strerror or exc}")
@app.command("diff")
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
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    _echo_problems([], report.errors)
    if fmt == "json":
        sys.stdout.buffer.write(report.to_json() + b"\n")
    elif fmt == "sarif":
        sys.stdout.buffer.write(report.to_sarif() + b"\n")
    else:
        sys.stdout.write(report.to_table())
    raise typer.Exit(report.exit_code(fail_on.lower() if fail_on else None))


@app.command("graph")
def graph_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Input files or directories; default: .", show_default=False),
    ] = None,
    rules: Annotated[
        list[Path] | None,
        typer.Option(
            "-d", "--data", help="Rule or relation directory (repeatable); default: shipped only."
        ),
    ] = None,
    bundle: Annotated[
        Path | None, typer.Option("--bundle", help="Take rules and relations from a bundle.")
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="dot, mermaid or json.", case_sensitive=False)
    ] = "dot",
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the graph to FILE.")
    ] = None,
    with_results: Annotated[
        bool,
        typer.Option("--with-results", help="Run the rules and highlight failing resources."),
    ] = False,
    types: Annotated[
        list[str] | None,
        typer.Option("--type", help="Keep resources of this type (repeatable)."),
    ] = None,
    relation_names: Annotated[
        list[str] | None,
        typer.Option(
            "--relation", help="Keep edges of this relation and their ends (repeatable)."
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds a rule or the relations may take.")
    ] = 30.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", help="MiB of Wasm memory the rules may use.")
    ] = 2048,
    input_type: InputTypeOption = None,
    skip_paths: SkipPathOption = None,
    var_files: VarFileOption = None,
    variables: VarOption = None,
    max_file_size: MaxFileSizeOption = 256,
    split_k8s: SplitK8sOption = False,
) -> None:
    """Render resources as nodes and relation edges as edges (DOT, Mermaid or JSON).

    Exit codes: 0 everything was read, 2 a file, input, rule or relation could not be.
    """
    fmt = output_format.lower()
    if fmt not in GRAPH_FORMATS:
        raise typer.BadParameter(
            f"unknown format {output_format!r} ({', '.join(GRAPH_FORMATS)})",
            param_hint="--format",
        )
    _one_rule_source(rules, bundle)
    if with_results and bundle is None and not rules:
        rules = shipped_rule_files()
    load = _load_options(input_type, skip_paths, var_files, variables, max_file_size, split_k8s)
    try:
        graph = build_graph(
            paths or [Path(".")],
            rules or [],
            bundle=bundle,
            with_results=with_results,
            types=types or (),
            relations=relation_names or (),
            limits=Limits(timeout_seconds=timeout, max_memory_mb=max_memory),
            load=load,
        )
    except (CompileError, OpaNotFound, BundleError, ValueError) as exc:
        if _DEBUG:
            raise
        _fail(str(exc))
        return
    _echo_problems(graph.warnings, graph.errors)
    rendered = graph.render(fmt)
    if output is None:
        sys.stdout.buffer.write(rendered)
    else:
        try:
            output.write_bytes(rendered)
        except OSError as exc:
            _fail(f"{output}: {exc.strerror or exc}")
    raise typer.Exit(graph.exit_code())


@app.command("version")
def version_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the engine, OPA, wasmtime and Wasm ABI versions."""
    info = version_info()
    if as_json:
        sys.stdout.buffer.write(orjson.dumps(info.to_dict(), option=orjson.OPT_INDENT_2) + b"\n")
        return
    typer.echo(f"rego-engine {info.engine}")
    typer.echo(f"opa         {info.opa_version} ({info.opa_path or 'not found: run make opa'})")
    typer.echo(f"wasmtime    {info.wasmtime}")
    typer.echo(f"wasm abi    {info.abi or 'unknown (no opa to compile a probe)'}")


def main() -> None:
    """Console-script entry point. An unexpected failure is one line on stderr
    (exit 2); ``--debug`` shows its traceback instead."""
    try:
        app()
    except Exception as exc:
        if _DEBUG:
            raise
        typer.echo(f"error: {internal_error(exc)}", err=True)
        sys.exit(EXIT_ERROR)
