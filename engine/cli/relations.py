"""``rego-engine relations`` and ``graph``: the relations rules declare and the edges they give."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engine.cli.app import argument, debug_enabled, echo_problems, fail
from engine.cli.options import (
    PATHS,
    check_bounds,
    load_option_group,
    load_options,
    one_rule_source,
    repeatable,
    value_option,
)
from engine.core.atomic_files import write_atomically
from engine.rules.opa import OpaNotFound
from engine.rules.rule_pack import shipped_rule_files


@argument(
    "paths",
    nargs=-1,
    type=PATHS,
    label="<list[Path]>",
    help="Input files or directories to count edges on.",
)
@repeatable(
    "-d",
    "--data",
    "rules",
    type=PATHS,
    label="<list[Path]>",
    help="Rule or relation directory (repeatable); default: shipped only.",
)
@click.option("--edges", is_flag=True, help="Print every edge.")
@value_option(
    "--format", "-f", "output_format", label="<str>", default="table", help="table or json."
)
@value_option(
    "--timeout",
    type=float,
    default=30.0,
    label="<float>",
    help="Seconds the relations may take per input.",
)
@value_option(
    "--max-memory",
    type=int,
    default=2048,
    label="<int>",
    help="MiB of Wasm memory the relations may use.",
)
def relations_command(
    paths: list[Path] | None,
    rules: list[Path] | None,
    edges: bool,
    output_format: str,
    timeout: float,
    max_memory: int,
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
        raise click.BadParameter(
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
    raise click.exceptions.Exit(listing.exit_code())


@argument(
    "paths",
    nargs=-1,
    type=PATHS,
    label="<list[Path]>",
    help="Input files or directories; default: .",
)
@repeatable(
    "-d",
    "--data",
    "rules",
    type=PATHS,
    label="<list[Path]>",
    help="Rule or relation directory (repeatable); default: shipped only.",
)
@value_option(
    "--bundle", type=PATHS, label="<path>", help="Take rules and relations from a bundle."
)
@value_option(
    "--format", "-f", "output_format", label="<str>", default="dot", help="dot, mermaid or json."
)
@value_option("-o", "--output", type=PATHS, label="<path>", help="Write the graph to FILE.")
@click.option("--with-results", is_flag=True, help="Run the rules and highlight failing resources.")
@repeatable(
    "--type", "types", label="<list[str]>", help="Keep resources of this type (repeatable)."
)
@repeatable(
    "--relation",
    "relation_names",
    label="<list[str]>",
    help="Keep edges of this relation and their ends (repeatable).",
)
@value_option(
    "--timeout",
    type=float,
    default=30.0,
    label="<float>",
    help="Seconds a rule or the relations may take.",
)
@value_option(
    "--max-memory",
    type=int,
    default=2048,
    label="<int>",
    help="MiB of Wasm memory the rules may use.",
)
@load_option_group
def graph_command(
    paths: list[Path] | None,
    rules: list[Path] | None,
    bundle: Path | None,
    output_format: str,
    output: Path | None,
    with_results: bool,
    types: list[str] | None,
    relation_names: list[str] | None,
    timeout: float,
    max_memory: int,
    input_type: str | None,
    skip_paths: list[str] | None,
    var_files: list[Path] | None,
    variables: list[str] | None,
    max_file_size: float,
    split_k8s: bool,
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
        raise click.BadParameter(
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
    raise click.exceptions.Exit(graph.exit_code())
