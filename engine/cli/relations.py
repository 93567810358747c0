"""``rego-engine relations`` and ``graph``: the relations rules declare and the edges they give."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import click

from engine.cli.app import debug_enabled, echo_problems, fail
from engine.cli.options import (
    InputType,
    MaxFileSize,
    SkipPaths,
    SplitK8s,
    VarFiles,
    Variables,
    bundle_option,
    check_bounds,
    data_option,
    format_option,
    input_paths,
    memory_option,
    one_rule_source,
    option,
    output_option,
    seconds_option,
)
from engine.cli.settings import command, load_options, settings
from engine.core.atomic_files import write_atomically
from engine.rules.opa import OpaNotFound
from engine.rules.rule_pack import shipped_rule_files

GRAPH_FORMATS = ("dot", "mermaid", "json")
"""``graph --format`` choices (those :mod:`engine.inspection.graph_export` draws)."""

RelationPaths = Annotated[
    list[Path] | None,
    data_option("Rule or relation directory (repeatable); default: shipped only."),
]


@settings
class RelationsSettings:
    paths: Annotated[
        list[Path] | None, input_paths("Input files or directories to count edges on.")
    ] = None
    rules: RelationPaths = None
    edges: Annotated[bool, option("--edges", help="Print every edge.")] = False
    output_format: Annotated[str, format_option("table", "json")] = "table"
    timeout: Annotated[float, seconds_option("Seconds the relations may take per input.")] = 30.0
    max_memory: Annotated[int, memory_option("MiB of Wasm memory the relations may use.")] = 2048


@command(RelationsSettings)
def relations_command(settings: RelationsSettings) -> None:
    """List relations by name with the files that define them; with inputs, the
    number of edges per input (and with --edges, the edges themselves).

    Exit codes: 0 everything was read, 2 a file, input or relation could not be.
    """
    from engine.inspection.relation_listing import list_relations
    from engine.rules.compiler import CompileError
    from engine.wasm.host import Limits

    timeout, max_memory, edges = settings.timeout, settings.max_memory, settings.edges
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    try:
        listing = list_relations(
            settings.rules or [],
            settings.paths or [],
            with_edges=edges,
            limits=Limits(timeout, max_memory, timeout_option="--timeout"),
        )
    except (CompileError, OpaNotFound) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    echo_problems(listing.warnings, listing.errors)
    if settings.output_format == "json":
        sys.stdout.buffer.write(listing.to_json(with_edges=edges) + b"\n")
    else:
        sys.stdout.write(listing.to_table(with_edges=edges))
    raise click.exceptions.Exit(listing.exit_code())


@settings
class GraphSettings:
    paths: Annotated[list[Path] | None, input_paths("Input files or directories; default: .")] = (
        None
    )
    rules: RelationPaths = None
    bundle: Annotated[Path | None, bundle_option("Take rules and relations from a bundle.")] = None
    output_format: Annotated[str, format_option(*GRAPH_FORMATS)] = "dot"
    output: Annotated[Path | None, output_option("Write the graph to FILE.")] = None
    with_results: Annotated[
        bool, option("--with-results", help="Run the rules and highlight failing resources.")
    ] = False
    types: Annotated[
        list[str] | None,
        option("--type", label="<list[str]>", help="Keep resources of this type (repeatable)."),
    ] = None
    relation_names: Annotated[
        list[str] | None,
        option(
            "--relation",
            label="<list[str]>",
            help="Keep edges of this relation and their ends (repeatable).",
        ),
    ] = None
    timeout: Annotated[float, seconds_option("Seconds a rule or the relations may take.")] = 30.0
    max_memory: Annotated[int, memory_option("MiB of Wasm memory the rules may use.")] = 2048
    input_type: InputType = None
    skip_paths: SkipPaths = None
    var_files: VarFiles = None
    variables: Variables = None
    max_file_size: MaxFileSize = 256
    split_k8s: SplitK8s = False


@command(GraphSettings)
def graph_command(settings: GraphSettings) -> None:
    """Render resources as nodes and relation edges as edges (DOT, Mermaid or JSON).

    Exit codes: 0 everything was read, 2 a file, input, rule or relation could not be.
    """
    from engine.evaluation.bundle import BundleError
    from engine.inspection.graph_export import build_graph
    from engine.rules.compiler import CompileError
    from engine.wasm.host import Limits

    rules, bundle, with_results = settings.rules, settings.bundle, settings.with_results
    timeout, max_memory, output = settings.timeout, settings.max_memory, settings.output
    one_rule_source(rules, bundle)
    if with_results and bundle is None and not rules:
        rules = shipped_rule_files()
    check_bounds("--timeout/--max-memory", timeout, max_memory)
    load = load_options(settings)
    try:
        graph = build_graph(
            settings.paths or [Path(".")],
            rules or [],
            bundle=bundle,
            with_results=with_results,
            types=settings.types or (),
            relations=settings.relation_names or (),
            limits=Limits(timeout_seconds=timeout, max_memory_mb=max_memory),
            load=load,
        )
    except (CompileError, OpaNotFound, BundleError, ValueError) as exc:
        if debug_enabled():
            raise
        fail(str(exc))
        return
    echo_problems(graph.warnings, graph.errors)
    rendered = graph.render(settings.output_format)
    if output is None:
        sys.stdout.buffer.write(rendered)
    else:
        try:
            write_atomically(output, rendered, create_parents=True)
        except OSError as exc:
            fail(f"{output}: {exc.strerror or exc}")
    raise click.exceptions.Exit(graph.exit_code())
