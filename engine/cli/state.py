"""``rego-engine state`` and ``fixture``: inputs as the documents rules see."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import click

from engine.cli.app import EXIT_ERROR, echo_problems, fail
from engine.cli.options import (
    InputType,
    MaxFileSize,
    SkipPaths,
    SplitK8s,
    VarFiles,
    Variables,
    format_option,
    input_paths,
    option,
    output_option,
)
from engine.cli.settings import command, load_options, settings
from engine.core.atomic_files import write_atomically
from engine.core.terminal_text import printable


@settings
class StateSettings:
    paths: Annotated[list[Path], input_paths("Input files or directories.")]
    input_type: InputType = None
    skip_paths: SkipPaths = None
    var_files: VarFiles = None
    variables: Variables = None
    max_file_size: MaxFileSize = 256
    split_k8s: SplitK8s = False
    output: Annotated[Path | None, output_option("Write the States to FILE.")] = None


@command(StateSettings)
def state_command(settings: StateSettings) -> None:
    """Print the States loaded from PATHs as a JSON array: the documents rules see.

    Problems go to stderr as path:line: message. Exit codes: 0 every input
    was loaded, 2 an input could not be (the other States are still printed).
    """
    from engine.core.address_space import no_room_message
    from engine.inputs.discovery import load_inputs
    from engine.wasm import values

    options = load_options(settings)
    loaded = load_inputs(settings.paths, options)
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
    output = settings.output
    if output is None:
        sys.stdout.buffer.write(text)
    else:
        try:
            write_atomically(output, text, create_parents=True)
        except OSError as exc:
            fail(f"{output}: {exc.strerror or exc}")
    raise click.exceptions.Exit(EXIT_ERROR if loaded.problems else 0)


@settings
class FixtureSettings:
    paths: Annotated[list[Path], input_paths("IaC files or directories (one State).")]
    output: Annotated[Path | None, output_option("Write the fixture to FILE.")] = None
    package: Annotated[
        str | None,
        option(
            "--package", label="<str>", help="Package of the Rego module (default fixtures.<name>)."
        ),
    ] = None
    output_format: Annotated[str, format_option("rego", "json")] = "rego"
    input_type: InputType = None
    var_files: VarFiles = None
    variables: Variables = None


@command(FixtureSettings)
def fixture_command(settings: FixtureSettings) -> None:
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

    paths = settings.paths
    load = load_options(settings)
    try:
        fixture = load_fixture(paths, load)
        text = (
            json_document(fixture)
            if settings.output_format == "json"
            else rego_module(fixture, settings.package or default_package(paths[0]))
        )
    except FixtureError as exc:
        fail(str(exc))
        return
    for problem in fixture.problems:
        echo_problems([str(problem)], [])
    if settings.output is None:
        sys.stdout.write(text)
        return
    try:
        write_atomically(settings.output, text.encode("utf-8"), create_parents=True)
    except OSError as exc:
        fail(f"{settings.output}: {exc.strerror or exc}")
