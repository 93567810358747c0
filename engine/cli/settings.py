"""Settings objects: what a command was asked to do, built from its options,
the configuration file and the defaults.

A command's settings class is a frozen dataclass whose fields are its
parameters, each annotated with an option type of :mod:`engine.cli.options`
and defaulting to the option's default; :func:`command` turns a function of
the settings into a Typer command taking those parameters, in field order.
Adding an option to a command is adding one field to its settings class.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import click

from engine.cli.options import check_bounds
from engine.inputs.loaders.input_types import LOADER_INPUT_TYPES

if typing.TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from engine.inputs.discovery import LoadOptions

S = TypeVar("S", bound="DataclassInstance")
T = TypeVar("T")


@typing.dataclass_transform(frozen_default=True, kw_only_default=True)
def settings(cls: type[T]) -> type[T]:
    """Declares a settings class: its fields are a command's parameters."""
    return dataclasses.dataclass(frozen=True, kw_only=True)(cls)


def command(settings_type: type[S]) -> Callable[[Callable[[S], None]], Callable[..., None]]:
    """Make ``run(settings)`` a command function whose parameters are the fields
    of ``settings_type``; its docstring is the command's help."""

    def decorate(run: Callable[[S], None]) -> Callable[..., None]:
        return SettingsCommand(settings_type, run)

    return decorate


class SettingsCommand(Generic[S]):
    """A command function taking the fields of a settings class as keyword
    parameters and calling ``run`` with the settings they make. Its signature
    is read (Typer reads it to build the command) only when the command is
    built, so registering commands costs no type evaluation."""

    def __init__(self, settings_type: type[S], run: Callable[[S], None]) -> None:
        self.settings_type = settings_type
        self.run = run
        self.__doc__ = run.__doc__
        self.__name__ = run.__name__
        self.__qualname__ = run.__qualname__
        self.__module__ = run.__module__

    def __call__(self, **values: Any) -> None:
        self.run(self.settings_type(**{name: _given(value) for name, value in values.items()}))

    @functools.cached_property
    def __signature__(self) -> inspect.Signature:
        hints = typing.get_type_hints(self.settings_type, include_extras=True)
        return inspect.Signature(
            [
                inspect.Parameter(
                    field.name,
                    inspect.Parameter.KEYWORD_ONLY,
                    annotation=hints[field.name],
                    default=(
                        inspect.Parameter.empty
                        if field.default is dataclasses.MISSING
                        else field.default
                    ),
                )
                for field in dataclasses.fields(self.settings_type)
            ]
        )

    @functools.cached_property
    # Typer reads a command's parameters from __annotations__ too, which object
    # declares as a plain attribute: computed here, on first use.
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]
        return {p.name: p.annotation for p in self.__signature__.parameters.values()}


def _given(value: Any) -> Any:
    """A repeatable option or argument given no values is None, as for any
    option not given."""
    return None if isinstance(value, (list, tuple)) and not value else value


def merged(given: S, configured: Mapping[str, Any], ctx: click.Context | None = None) -> S:
    """``given`` with each setting the configuration file sets (``configured``,
    by field name) taken from there, unless the command line or the environment
    set it: flags given win over the file, the file over the defaults."""
    ctx = ctx or click.get_current_context()

    def from_command_line(name: str) -> bool:
        source = ctx.get_parameter_source(name)
        return getattr(source, "name", None) in ("COMMANDLINE", "ENVIRONMENT")

    names = {field.name for field in dataclasses.fields(given)}
    changes = {
        name: value
        for name, value in configured.items()
        if name in names and not from_command_line(name)
    }
    return dataclasses.replace(given, **changes)


def load_options(given: object) -> LoadOptions:
    """How inputs are loaded, from the load options among a command's settings
    (``input_type``, ``skip_paths``, ...; those a command lacks keep their
    defaults), validated: a configuration file may have set them."""
    from engine.inputs.discovery import LoadOptions

    input_type = getattr(given, "input_type", None)
    if input_type is not None:
        _input_type(input_type)
    max_file_size = getattr(given, "max_file_size", 256)
    check_bounds("--max-file-size", max_file_size)
    load_timeout = getattr(given, "load_timeout", LoadOptions.load_timeout)
    if load_timeout is not None:
        check_bounds("--load-timeout", load_timeout)
    return LoadOptions(
        input_type=input_type,
        skip_paths=tuple(getattr(given, "skip_paths", None) or ()),
        max_file_mb=max_file_size,
        var_files=tuple(getattr(given, "var_files", None) or ()),
        variables=_named(getattr(given, "variables", None)),
        split_k8s=getattr(given, "split_k8s", False),
        load_timeout=load_timeout,
    )


def _input_type(value: str) -> None:
    if value not in LOADER_INPUT_TYPES:
        raise click.BadParameter(
            f"{value!r} is not one of {', '.join(LOADER_INPUT_TYPES)}", param_hint="--input-type"
        )


def _named(variables: list[str] | None) -> dict[str, str]:
    """``--var NAME=VALUE`` assignments by name."""
    named: dict[str, str] = {}
    for assignment in variables or []:
        name, equals, value = assignment.partition("=")
        if not equals or not name:
            raise click.BadParameter(f"{assignment!r} is not NAME=VALUE", param_hint="--var")
        named[name] = value
    return named
