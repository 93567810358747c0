"""pytest plugin: Rego tests and golden scan cases as pytest items.

Enabled through the ``pytest11`` entry point; it collects nothing until
configured (so a project's own ``.rego`` fixtures are left alone)::

    [tool.pytest.ini_options]
    rego_paths = ["policies"]        # trees of *_test.rego files
    rego_golden = ["tests/golden"]   # golden case directories
    rego_rules = ["rules"]           # rules for golden cases without rules/

Each ``test_*`` rule of a ``*_test.rego`` file below ``rego_paths`` is an
item (``policies/s3_test.rego::test_denies_public``); each tree compiles
once, on the first file collected from it. Each golden case (a directory
with ``inputs/`` and ``expected.json``) is an item of its ``expected.json``.
``--rego-update-snapshots`` writes snapshots and ``expected.json`` files.
The configured paths are collected even when outside ``testpaths``, unless
pytest is given explicit paths.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # the engine is imported only when something is collected
    from engine.testing.rego_tests import TestRule
    from engine.testing.runner import TestSuite

EXPECTED = "expected.json"  # the layout of a golden case (engine.testing.golden)
INPUTS = "inputs"
_SUITES = pytest.StashKey[dict[Path, "TestSuite"]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("rego_paths", "Directories of Rego *_test.rego files to collect.", "paths", [])
    parser.addini("rego_golden", "Directories of golden scan cases to collect.", "paths", [])
    parser.addini("rego_rules", "Rules for golden cases without a rules/ directory.", "paths", [])
    parser.addini("rego_timeout", "Seconds one Rego test may take.", "string", "5")
    parser.addoption(
        "--rego-update-snapshots",
        action="store_true",
        default=False,
        help="Write Rego test snapshots and golden expected.json files.",
    )


def _configured(config: pytest.Config, name: str) -> list[Path]:
    return [Path(p).resolve() for p in config.getini(name)]


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_SUITES] = {}
    for name in ("rego_paths", "rego_golden", "rego_rules"):
        missing = [str(p) for p in _configured(config, name) if not p.exists()]
        if missing:
            # a misspelt directory would otherwise collect nothing and pass
            raise pytest.UsageError(f"{name} names what does not exist: {', '.join(missing)}")
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return
    collected = [Path(a).resolve() for a in config.args]
    for path in _configured(config, "rego_paths") + _configured(config, "rego_golden"):
        if path.exists() and not any(path.is_relative_to(c) for c in collected):
            config.args.append(str(path))
            collected.append(path)


def pytest_unconfigure(config: pytest.Config) -> None:
    for suite in config.stash.get(_SUITES, {}).values():
        suite.close()


def _under(path: Path, roots: list[Path]) -> Path | None:
    for root in roots:
        if path.is_relative_to(root):
            return root
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    resolved = file_path.resolve()
    if file_path.name.endswith("_test.rego"):
        root = _under(resolved, _configured(config, "rego_paths"))
        if root is not None:
            return RegoTestFile.from_parent(parent, path=file_path, root=root)
    elif (
        file_path.name == EXPECTED
        and (resolved.parent / INPUTS).is_dir()
        and _under(resolved, _configured(config, "rego_golden")) is not None
    ):
        return GoldenCaseFile.from_parent(parent, path=file_path)
    return None


def _suite(config: pytest.Config, root: Path) -> TestSuite:
    from engine.testing.runner import TestOptions, TestSuite

    suites = config.stash[_SUITES]
    if root not in suites:
        options = TestOptions(
            timeout_seconds=float(config.getini("rego_timeout")),
            update_snapshots=config.getoption("rego_update_snapshots"),
        )
        suites[root] = TestSuite([root], options)
    return suites[root]


class RegoTestFile(pytest.File):
    """A ``*_test.rego`` file: one item per test rule."""

    def __init__(self, *, root: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.root = root

    def collect(self) -> Iterator[pytest.Item]:
        suite = _suite(self.config, self.root)
        mine = self.path.resolve()
        for display, errors in suite.suite.set_aside.items():
            source = suite.suite.files.get(display)
            if source is not None and source.path == mine:
                raise self.CollectError("\n".join(errors))
        for test in suite.tests:
            source = suite.suite.files.get(test.file)
            if source is not None and source.path == mine:
                yield RegoTestItem.from_parent(self, name=test.name, suite=suite, test=test)


class RegoTestFailure(Exception):
    """A Rego test that failed or errored; the message is the report."""


class RegoTestItem(pytest.Item):
    """One ``test_*`` rule."""

    def __init__(self, *, suite: TestSuite, test: TestRule, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.suite = suite
        self.test = test

    def runtest(self) -> None:
        from engine.testing.report import outcome_lines

        outcome = self.suite.run(self.test)
        if outcome.skip:
            pytest.skip("todo_test_ rule")
        if not outcome.passed:
            raise RegoTestFailure("\n".join(outcome_lines(outcome)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, RegoTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, self.test.row - 1, self.test.full_name


class GoldenCaseFile(pytest.File):
    """A golden case's ``expected.json``: one item, the case."""

    def collect(self) -> Iterator[pytest.Item]:
        directory = self.path.parent
        yield GoldenItem.from_parent(self, name=directory.name)


class GoldenItem(pytest.Item):
    """One golden case: its scan must produce ``expected.json``."""

    def runtest(self) -> None:
        from engine.testing.golden import GoldenCase, run_case

        directory = self.path.parent
        outcome = run_case(
            GoldenCase(directory, directory.name),
            _configured(self.config, "rego_rules"),
            update=self.config.getoption("rego_update_snapshots"),
        )
        if outcome.error:
            raise RegoTestFailure(outcome.error)
        if not outcome.passed:
            raise RegoTestFailure("\n".join(outcome.messages))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, RegoTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, 0, f"golden case {self.path.parent.name}"
