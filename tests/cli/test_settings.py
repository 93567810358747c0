"""Settings objects: a command's options are the fields of its settings class,
and the configuration file fills what the command line did not give."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import click
import typer
from click.testing import CliRunner

from engine.changes.change_policies import RISK_LEVELS
from engine.changes.diff import FORMATS as DIFF_LIBRARY_FORMATS
from engine.cli import diff, options, relations, scan
from engine.cli.app import Command, Group
from engine.cli.options import SkipPaths, option
from engine.cli.settings import command, merged, settings
from engine.inspection.graph_export import FORMATS as GRAPH_LIBRARY_FORMATS
from engine.scanning import config

Jobs = Annotated[int, option("--jobs", label="<int>", help="Workers.", show_default=True)]


@settings
class ProbeSettings:
    paths: Annotated[list[Path] | None, options.argument(label="<list[Path]>", help="P.")] = None
    skip_paths: SkipPaths = None
    jobs: Jobs = 1


def _app(configured: dict[str, object], seen: list[ProbeSettings]) -> click.Command:
    app = typer.Typer(cls=Group, add_completion=False, rich_markup_mode=None)

    @command(ProbeSettings)
    def probe(given: ProbeSettings) -> None:
        """Probe."""
        seen.append(merged(given, configured))

    app.command("probe", cls=Command)(probe)
    app.command("other", cls=Command)(lambda: None)
    return typer.main.get_command(app)


def _run(args: list[str], configured: dict[str, object], **env: str) -> ProbeSettings:
    seen: list[ProbeSettings] = []
    result = CliRunner().invoke(_app(configured, seen), ["probe", *args], env=env)
    assert result.exit_code == 0, result.output
    (given,) = seen
    return given


def test_each_field_is_an_option_in_field_order() -> None:
    result = CliRunner().invoke(_app({}, []), ["probe", "--help"], terminal_width=78)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "  paths... <list[Path]>  P." in lines
    named = [line.split()[0] for line in lines if line.startswith("  --")]
    assert named == ["--skip-path", "--jobs", "--help"]


def test_options_not_given_keep_their_defaults_and_repeatables_given_none_are_none() -> None:
    assert _run([], {}) == ProbeSettings(paths=None, skip_paths=None, jobs=1)


def test_the_command_line_wins_over_the_file_and_the_file_over_the_defaults() -> None:
    configured = {"jobs": 3, "skip_paths": ["vendor/**"], "unknown": 1}
    assert _run([], configured) == ProbeSettings(skip_paths=["vendor/**"], jobs=3)
    assert _run(["--jobs", "2", "x"], configured) == ProbeSettings(
        paths=[Path("x")], skip_paths=["vendor/**"], jobs=2
    )
    # given as its default still counts as given
    assert _run(["--jobs", "1"], configured).jobs == 1


def test_fail_on_choices_are_defined_once() -> None:
    assert options.FAIL_ON_CHOICES is config.FAIL_ON_CHOICES
    assert scan.FAIL_ON_CHOICES is config.FAIL_ON_CHOICES


def test_choices_listed_by_the_command_line_are_the_libraries() -> None:
    assert diff.DIFF_FORMATS == DIFF_LIBRARY_FORMATS
    assert diff.RISK_LEVELS == RISK_LEVELS
    assert relations.GRAPH_FORMATS == GRAPH_LIBRARY_FORMATS


def test_a_choice_is_validated_and_lower_cased_by_one_validator() -> None:
    validate = options.choice_of(("low", "high"))
    assert validate("HIGH") == "high"
    assert validate(None) is None
    try:
        validate("mid")
    except Exception as exc:
        assert "'mid' is not one of low, high" in str(exc)
    else:
        raise AssertionError("'mid' was accepted")


def test_scan_settings_cover_every_configuration_key() -> None:
    fields = set(scan.ScanSettings.__dataclass_fields__)
    assert {name for name, _kind in config.SCAN_KEYS.values()} <= fields
