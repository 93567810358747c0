"""``rego-engine state`` and ``fixture``: inputs as the documents rules see."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engine.cli.app import EXIT_ERROR, argument, echo_problems, fail
from engine.cli.options import (
    PATHS,
    input_type_option,
    load_option_group,
    load_options,
    value_option,
    var_file_option,
    var_option,
)
from engine.core.atomic_files import write_atomically
from engine.core.terminal_text import printable


@argument(
    "paths",
    nargs=-1,
    required=True,
    type=PATHS,
    label="<list[Path]>",
    help="Input files or directories.",
)
@load_option_group
@value_option("-o", "--output", type=PATHS, label="<path>", help="Write the States to FILE.")
def state_command(
    paths: list[Path],
    input_type: str | None,
    skip_paths: list[str] | None,
    var_files: list[Path] | None,
    variables: list[str] | None,
    max_file_size: float,
    split_k8s: bool,
    output: Path | None,
) -> None:
    """Print the States loaded from PATHs as a JSON array: the documents rules see.

    Problems go to stderr as path:line: message. Exit codes: 0 every input
    was loaded, 2 an input could not be (the other States are still printed).
    """
    from engine.core.address_space import no_room_message
    from engine.inputs.discovery import load_inputs
    from engine.wasm import values

    options = load_options(input_type, skip_paths, var_files, variables, max_file_size, split_k8s)
    loaded = load_inputs(paths, options)
    for problem in loaded.problems:
        click.echo(printable(str(problem)), err=True)
    for warning in (w for scan_input in loaded.inputs for w in scan_input.warnings):
        click.echo(f"warning: {printable(warning)}", err=True)
    documents = [i.state.document for i in loaded.inputs]
    try:
        text = values.dumps_json(documents, indent=True) + b"\n"
    except MemoryError:
        fail(f"{no_room_message()} to write the States of {len(documents)} inputs")
        return
    if output is None:
        sys.stdout.buffer.write(text)
    else:
        try:
            write_atomically(output, text, create_parents=True)
        except OSError as exc:
            fail(f"{output}: {exc.strerror or exc}")
    raise click.exceptions.Exit(EXIT_ERROR if loaded.problems else 0)


@argument(
    "paths",
    nargs=-1,
    required=True,
    type=PATHS,
    label="<list[Path]>",
    help="IaC files or directories (one State).",
)
@value_option("-o", "--output", type=PATHS, label="<path>", help="Write the fixture to FILE.")
@value_option(
    "--package", label="<str>", help="Package of the Rego module (default fixtures.<name>)."
)
@value_option(
    "--format", "-f", "output_format", label="<str>", default="rego", help="rego or json."
)
@input_type_option()
@var_file_option()
@var_option()
def fixture_command(
    paths: list[Path],
    output: Path | None,
    package: str | None,
    output_format: str,
    input_type: str | None,
    var_files: list[Path] | None,
    variables: list[str] | None,
) -> None:
    """Turn IaC files into a test fixture: a Rego module holding mock_input (the
    State rules see), or the State as JSON.

    Exit codes: 0 written, 2 the paths did not load to exactly one State.
    """
    from engine.testing.fixture import (
        FixtureError,
        default_package,
        json_document,
        load_fixture,
        rego_module,
    )

    fmt = output_format.lower()
    if fmt not in ("rego", "json"):
        raise click.BadParameter(
            f"unknown format {output_format!r} (rego, json)", param_hint="--format"
        )
    load = load_options(input_type, None, var_files, variables, 256, False)
    try:
        fixture = load_fixture(paths, load)
        text = (
            json_document(fixture)
            if fmt == "json"
            else rego_module(fixture, package or default_package(paths[0]))
        )
    except FixtureError as exc:
        fail(str(exc))
        return
    for problem in fixture.problems:
        echo_problems([str(problem)], [])
    if output is None:
        sys.stdout.write(text)
        return
    try:
        write_atomically(output, text.encode("utf-8"), create_parents=True)
    except OSError as exc:
        fail(f"{output}: {exc.strerror or exc}")
