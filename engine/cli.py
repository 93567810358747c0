"""The ``rego-engine`` command line: a thin layer over the library API."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import orjson
import typer

from engine import values
from engine.bundle import BundleError, build_bundle, read_bundle
from engine.compiler import CompileError
from engine.evaluation import eval_ref, read_input
from engine.graph_export import FORMATS as GRAPH_FORMATS
from engine.graph_export import build_graph
from engine.inputs import LoadOptions, load_inputs
from engine.loaders.detection import LOADER_INPUT_TYPES
from engine.opa import OpaNotFound
from engine.progress import scan_progress
from engine.relation_listing import list_relations
from engine.rule_catalogue import catalogue_of, rule_catalogue
from engine.scanner import ScanOptions, scan
from engine.sources import SourceError
from engine.version import version_info
from engine.wasm_host import EvalError, Limits

EXIT_ERROR = 2

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
            limits=Limits(timeout_seconds=timeout, max_memory_mb=max_memory),
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


def _fail_on(value: str | None) -> str | None:
    if value is None:
        return None
    if value.lower() not in FAIL_ON_CHOICES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FAIL_ON_CHOICES)}")
    return value.lower()


@app.command("scan")
def scan_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Input files or directories (IaC or State files); default: .",
            show_default=False,
        ),
    ] = None,
    rules: Annotated[
        list[Path] | None,
        typer.Option("-d", "--data", help="Rule or data file or directory (repeatable)."),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
    ] = "json",
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the results to FILE.")
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
    input_type: InputTypeOption = None,
    skip_paths: SkipPathOption = None,
    var_files: VarFileOption = None,
    variables: VarOption = None,
    max_file_size: MaxFileSizeOption = 256,
    split_k8s: SplitK8sOption = False,
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
    """Run rules over inputs and write the results document.

    Exit codes: 0 no failing results, 1 failing results, 2 an input or rule
    could not be processed (results for the rest are still written), 3 no
    supported input found.
    """
    if output_format.lower() != "json":
        raise typer.BadParameter(f"unknown format {output_format!r} (json)", param_hint="--format")
    if bundle is not None and rules:
        raise typer.BadParameter("give rules with -d or --bundle, not both", param_hint="--bundle")
    if not rules and bundle is None:
        raise typer.BadParameter("at least one rule path is required", param_hint="-d")
    if rule_timeout <= 0 or max_memory <= 0:
        raise typer.BadParameter(
            "bounds must be positive", param_hint="--rule-timeout/--max-memory"
        )
    load = _load_options(input_type, skip_paths, var_files, variables, max_file_size, split_k8s)
    try:
        with scan_progress() as progress:
            report = scan(
                paths or [Path(".")],
                rules or [],
                ScanOptions(
                    rule_timeout=rule_timeout,
                    max_memory_mb=max_memory,
                    progress=progress,
                    load=load,
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
    listed = set(report.errors)
    for input_report in report.inputs:
        for rule in input_report.rule_results:
            for error in rule.errors:
                if f"{rule.package}: {error}" in listed:
                    continue  # a compile error, already listed once
                typer.echo(f"error: {input_report.input.name}: {rule.package}: {error}", err=True)
    document = report.to_json()
    if output is None:
        sys.stdout.buffer.write(document + b"\n")
    else:
        try:
            output.write_bytes(document + b"\n")
        except OSError as exc:
            _fail(f"{output}: {exc.strerror or exc}")
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
    """List rules: package, id, title, severity, input types, resource type and
    the relations they query.

    Exit codes: 0 every rule could be read, 2 a file or rule could not be.
    """
    fmt = output_format.lower()
    if fmt not in ("table", "json"):
        raise typer.BadParameter(
            f"unknown format {output_format!r} (table, json)", param_hint="--format"
        )
    if (bundle is None) == (not rules):
        raise typer.BadParameter("give rules with -d or --bundle (one of them)", param_hint="-d")
    try:
        listed = catalogue_of(read_bundle(bundle)) if bundle else rule_catalogue(rules or [])
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
            limits=Limits(timeout_seconds=timeout, max_memory_mb=max_memory),
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
    if bundle is not None and rules:
        raise typer.BadParameter("give rules with -d or --bundle, not both", param_hint="--bundle")
    if with_results and bundle is None and not rules:
        raise typer.BadParameter("needs rules: -d or --bundle", param_hint="--with-results")
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
    """Console-script entry point."""
    app()
