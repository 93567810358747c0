"""``rego-engine relations`` and ``graph``: the relations rules declare and the edges they give."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from engine.cli.app import debug_enabled, echo_problems, fail
from engine.cli.options import (
    InputTypeOption,
    MaxFileSizeOption,
    SkipPathOption,
    SplitK8sOption,
    VarFileOption,
    VarOption,
    check_bounds,
    load_options,
    one_rule_source,
)
from engine.core.atomic_files import write_atomically
from engine.rules.opa import OpaNotFound
from engine.rules.rule_pack import shipped_rule_files


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
    from engine.inspection.relation_listing import list_relations
    from engine.rules.compiler import CompileError
    from engine.wasm.host import Limits

    fmt = output_format.lower()
    if fmt not in ("table", "json"):
        raise typer.BadParameter(
            f"unknown format {output_format!r} (table, json)", param_hint="--format"
        )
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    try:
        listing = list_relations(
            rules or [],
            paths or [],
            with_edges=edges,
            limits=Limits(timeout, max_memory, timeout_option="--timeout"),
        )
    except (CompileError, OpaNotFound) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    echo_problems(listing.warnings, listing.errors)
    if fmt == "json":
        sys.stdout.buffer.write(listing.to_json(with_edges=edges) + b"\n")
    else:
        sys.stdout.write(listing.to_table(with_edges=edges))
    raise typer.Exit(listing.exit_code())


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
    from engine.evaluation.bundle import BundleError
    from engine.inspection.graph_export import FORMATS as GRAPH_FORMATS
    from engine.inspection.graph_export import build_graph
    from engine.rules.compiler import CompileError
    from engine.wasm.host import Limits

    fmt = output_format.lower()
    if fmt not in GRAPH_FORMATS:
        raise typer.BadParameter(
            f"unknown format {output_format!r} ({', '.join(GRAPH_FORMATS)})",
            param_hint="--format",
        )
    one_rule_source(rules, bundle)
    if with_results and bundle is None and not rules:
        rules = shipped_rule_files()
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    load = load_options(input_type, skip_paths, var_files, variables, max_file_size, split_k8s)
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
        if debug_enabled():
            raise
        fail(str(exc))
        return
    echo_problems(graph.warnings, graph.errors)
    rendered = graph.render(fmt)
    if output is None:
        sys.stdout.buffer.write(rendered)
    else:
        try:
            write_atomically(output, rendered, create_parents=True)
        except OSError as exc:
            fail(f"{output}: {exc.strerror or exc}")
    raise typer.Exit(graph.exit_code())
