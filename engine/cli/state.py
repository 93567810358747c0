"""``rego-engine state`` and ``fixture``: inputs as the documents rules see."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from engine.cli.app import EXIT_ERROR, echo_problems, fail
from engine.cli.options import (
    InputTypeOption,
    MaxFileSizeOption,
    SkipPathOption,
    SplitK8sOption,
    VarFileOption,
    VarOption,
    load_options,
)
from engine.core.atomic_files import write_atomically
from engine.core.terminal_text import printable


def state_command(
    paths: Annotated[list[Path], typer.Argument(help="Input files or directories.")],
    input_type: InputTypeOption = None,
    skip_paths: SkipPathOption = None,
    var_files: VarFileOption = None,
    variables: VarOption = None,
    max_file_size: MaxFileSizeOption = 256,
    split_k8s: SplitK8sOption = False,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the States to FILE.")
    ] = None,
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
        typer.echo(printable(str(problem)), err=True)
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
    raise typer.Exit(EXIT_ERROR if loaded.problems else 0)


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
    from engine.testing.fixture import (
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
