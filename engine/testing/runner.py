"""Running Rego tests compiled to Wasm: the library side of ``rego-engine test``.

All test files below the given paths compile into one Wasm module (cached by
content hash, as every compilation is) whose entrypoints are generated rules
wrapping the tests (:mod:`engine.testing.test_entrypoints`); each test is
then one Wasm evaluation. When only the Wasm build rejects some packages'
tests, those packages are found by halving and their tests error with
OPA's message; the others still run. Verdicts follow
``opa test``: a test passes when its value is ``true`` (partial-object tests
when every leaf is ``true``), fails when it is undefined or anything else,
and errors when evaluation fails (a conflict, the time or memory bound, a
refused builtin). ``todo_test_*`` rules are skipped.

In test mode the ``snyk`` API is the pure-Rego library over ``input``
(``rego/lib/test/snyk.rego``), with ``fugue`` written over it and the shipped
relations; a tree that ships its own ``snyk`` or ``fugue`` package uses its
own. ``snyk.test.matches_snapshot`` is served by the host (:mod:`engine.testing.snapshots`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.paths import REGO_LIB_DIR, display_path
from engine.evaluation.print_statements import PRINT_BUILTIN, print_handler
from engine.relations import type_hierarchy
from engine.rules.compiler import CompiledPolicy, CompileError, CompileMessage, compile_policy
from engine.rules.conflicts import CONFLICT_CODE
from engine.rules.rule_set import SHIPPED_TERRAFORM_FILE, TERRAFORM_PACKAGE, shipped_relations
from engine.rules.sources import PolicySources, RegoFile, SourceError, load_sources
from engine.testing import package_closures
from engine.testing.package_closures import SourceModule, parts
from engine.testing.rego_tests import TestRule, find_tests
from engine.testing.snapshots import (
    SNAPSHOT_BUILTIN,
    SnapshotPathError,
    check_snapshot,
    resolve_snapshot,
)
from engine.testing.test_entrypoints import TestEntrypoints, wrap_tests
from engine.wasm import values
from engine.wasm.host import (
    BuiltinUnavailable,
    EvalConflict,
    EvalError,
    EvalTimeout,
    Limits,
    MemoryLimitExceeded,
    PolicyInstance,
)

_SET_ASIDE_ROUNDS = 8
_LIB_PACKAGES = ("snyk", "fugue")


@dataclass(frozen=True)
class TestOptions:
    """What to run and the bounds of each test."""

    __test__ = False  # not a pytest test class

    run: str | None = None
    """Only tests whose ``data.pkg.name`` matches this regular expression."""
    timeout_seconds: float = 5.0
    """Seconds one test may take (``opa test``'s default)."""
    max_memory_mb: int = 2048
    update_snapshots: bool = False
    ignore: tuple[str, ...] = ()
    """Glob patterns of file and directory names not loaded (``opa test --ignore``)."""


@dataclass(frozen=True)
class TestError:
    """Why a test errored, in ``opa test``'s terms."""

    __test__ = False  # not a pytest test class

    code: str
    message: str
    file: str | None = None
    row: int | None = None
    col: int | None = None
    as_list: bool = False
    """Compile-time errors are reported as a list (``opa test`` does so)."""

    def to_json(self) -> Any:
        """The ``error`` field of ``opa test --format json``."""
        doc: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.file is not None or self.as_list:
            doc["location"] = {"file": self.file or "", "row": self.row or 1, "col": self.col or 1}
        return [doc] if self.as_list else doc

    def __str__(self) -> str:
        where = f"{self.file}:{self.row}: " if self.file and self.row else ""
        return f"{where}{self.code}: {self.message}"


@dataclass
class TestOutcome:
    """One test's verdict."""

    __test__ = False  # not a pytest test class

    test: TestRule
    fail: bool = False
    skip: bool = False
    error: TestError | None = None
    duration_ns: int = 0
    sub_results: dict[str, Any] | None = None
    output: list[str] = field(default_factory=list)
    """Messages for the reader (snapshot diffs, snapshots written)."""
    printed: list[str] = field(default_factory=list)
    """Lines the test's ``print()`` calls wrote."""

    @property
    def passed(self) -> bool:
        """Neither failed, skipped nor errored."""
        return not (self.fail or self.skip or self.error)

    @property
    def verdict(self) -> str:
        """PASS, FAIL, SKIPPED or ERROR (``opa test``'s words)."""
        if self.passed:
            return "PASS"
        if self.fail:
            return "FAIL"
        return "SKIPPED" if self.skip else "ERROR"


@dataclass
class TestRun:
    """Every selected test's outcome, plus files that could not be used."""

    __test__ = False  # not a pytest test class

    outcomes: list[TestOutcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Files that could not be read or compiled (their tests did not run)."""
    policy_key: str | None = None

    def exit_code(self) -> int:
        """``opa test``'s codes: 0 all passed, 2 a test failed or errored,
        1 some file could not be loaded or compiled."""
        if self.problems:
            return 1
        if any(o.fail or o.error for o in self.outcomes):
            return 2
        return 0


# ---------------------------------------------------------------- sources


def _lib_file(path: Path) -> RegoFile:
    text = path.read_text(encoding="utf-8")
    return RegoFile(path, f"<shipped>/{path.relative_to(REGO_LIB_DIR)}", text, 1)


def test_mode_library(user_packages: Collection[str | None]) -> list[RegoFile]:
    """The API modules test mode adds: pure-Rego ``snyk`` with the shipped
    relations, ``fugue`` and ``snyk.terraform`` (each unless the tree ships its own), and
    ``snyk.test``."""
    lib: list[RegoFile] = []
    if "fugue" not in user_packages:
        lib.append(_lib_file(REGO_LIB_DIR / "fugue.rego"))
    if TERRAFORM_PACKAGE not in user_packages:
        lib.append(_lib_file(REGO_LIB_DIR / SHIPPED_TERRAFORM_FILE))
    for path in sorted((REGO_LIB_DIR / "test").glob("*.rego")):
        if path.name != "snyk.rego":
            lib.append(_lib_file(path))
    if "snyk" in user_packages:
        return lib  # the shipped relations are written over the shipped snyk API
    return [_lib_file(REGO_LIB_DIR / "test" / "snyk.rego"), *lib, *shipped_relations()]


def test_mode_data(data: dict[str, Any], user_packages: Collection[str | None]) -> dict[str, Any]:
    """``data`` with the type hierarchy the test-mode ``snyk`` reads
    (``data.rego_engine.type_hierarchy``; the host supplies it in a scan),
    unless the tree ships its own ``snyk`` or its data already sets it."""
    if "snyk" in user_packages:
        return data
    ours = data.get("rego_engine", {})
    if not isinstance(ours, dict) or "type_hierarchy" in ours:
        return data
    return {**data, "rego_engine": {**ours, "type_hierarchy": type_hierarchy.load()}}


test_mode_data.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def _is_engine_library(path: Path) -> bool:
    """Whether ``path`` is one of the engine's shipped API files (``rego/lib/``)."""
    return path.resolve().is_relative_to(REGO_LIB_DIR.resolve())


test_mode_library.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


@dataclass
class CompiledTests:
    """The compiled module of a test tree, its tests, and the files set aside."""

    policy: CompiledPolicy | None
    tests: list[TestRule]
    files: dict[str, RegoFile]
    set_aside: dict[str, list[str]] = field(default_factory=dict)
    """Display path → compile errors, for files whose tests could not run."""
    entrypoints: dict[TestRule, str] = field(default_factory=dict)
    """The entrypoint that evaluates each test in ``policy``."""
    unbuilt: dict[str, list[CompileMessage]] = field(default_factory=dict)
    """Package → OPA's errors, for packages whose tests the Wasm build rejects."""
    policies: dict[TestRule, CompiledPolicy] = field(default_factory=dict)
    """The module holding each test's entrypoint (a large tree compiles in parts)."""


def compile_tests(sources: PolicySources, pattern: re.Pattern[str] | None = None) -> CompiledTests:
    """Compile the tests of ``sources`` (those matching ``pattern``) into one
    module; files that do not compile are set aside with their errors, and
    packages whose tests only the Wasm build rejects are left out."""
    # The engine's own API files (a run over the engine's rego/ tree) are
    # replaced by their test-mode versions, as in any other tree.
    user = [f for f in sources.rego_files if not _is_engine_library(f.path)]
    lib: list[RegoFile] | None = None
    data = sources.data
    excluded: dict[str, list[str]] = {}
    for _ in range(_SET_ASIDE_ROUNDS):
        files = [f for f in user if f.display not in excluded]
        found = find_tests([(f.display, f.text, f.rego_version) for f in files])
        if lib is None:
            module_packages = {m.package for m in found}
            lib = test_mode_library(module_packages)
            data = test_mode_data(sources.data, module_packages)
        tests = [t for m in found for t in m.tests]
        if pattern is not None:
            tests = [t for t in tests if pattern.search(t.full_name)]
        staged = [
            RegoFile(f.path, f.display, m.staged_text, f.rego_version)
            for f, m in zip(files, found, strict=True)
        ]
        by_display = {f.display: f for f in files}
        every_file = {f.display: f for f in user}
        modules = [
            SourceModule(f.display, m.package, f.text) for f, m in zip(files, found, strict=True)
        ]
        runnable = [t for t in tests if not (t.skip or t.is_function)]
        compiled = CompiledTests(None, tests, every_file, excluded)
        try:
            library = [f.text for f in lib]
            packages = [t.package for t in runnable]
            size = package_closures.PACKAGES_PER_PART
            for group, needed in parts(modules, packages, library, size):
                wanted = set(needed)
                chosen = set(group)
                attempt = PolicySources(
                    [*lib, *(f for f in staged if f.display in wanted)], data, sources.data_files
                )
                part_tests = [t for t in tests if t.package in chosen]
                policy, wrapped, unbuilt = _build_by_package(attempt, part_tests)
                compiled.unbuilt.update(unbuilt)
                compiled.entrypoints.update(wrapped.by_test)
                if policy is not None:
                    compiled.policy = compiled.policy or policy
                    compiled.policies.update(dict.fromkeys(wrapped.by_test, policy))
        except CompileError as exc:
            if not exc.errors or any(m.file not in by_display for m in exc.errors):
                raise
            for message in exc.errors:
                excluded.setdefault(str(message.file), []).append(str(message))
            continue
        return compiled
    raise CompileError([CompileMessage("tests still fail to compile after setting files aside")])


def _compile_wrapped(
    sources: PolicySources, tests: list[TestRule]
) -> tuple[CompiledPolicy | None, TestEntrypoints]:
    wrapped = wrap_tests(tests)
    if not wrapped.by_test:
        return None, wrapped
    with_wrapper = PolicySources(
        [*sources.rego_files, wrapped.module], sources.data, sources.data_files
    )
    policy = compile_policy(with_wrapper, list(wrapped.by_test.values()), include_print=True)
    return policy, wrapped


def _build_by_package(
    sources: PolicySources, tests: list[TestRule]
) -> tuple[CompiledPolicy | None, TestEntrypoints, dict[str, list[CompileMessage]]]:
    """One module for every test; when only the Wasm build fails, the
    packages it rejects are found by halving and the rest built without them."""
    try:
        policy, wrapped = _compile_wrapped(sources, tests)
        return policy, wrapped, {}
    except CompileError as exc:
        if not exc.build_only:
            raise
        first_errors = exc.errors
    packages = sorted({t.package for t in tests if not (t.skip or t.is_function)})
    unbuilt = _rejected_packages(sources, tests, packages, first_errors)
    policy, wrapped = _compile_wrapped(sources, [t for t in tests if t.package not in unbuilt])
    return policy, wrapped, unbuilt


def _rejected_packages(
    sources: PolicySources,
    tests: list[TestRule],
    packages: list[str],
    errors: list[CompileMessage],
) -> dict[str, list[CompileMessage]]:
    """The packages among ``packages`` (which fail to build together, with
    ``errors``) that fail to build on their own, with OPA's errors."""
    if len(packages) <= 1:
        return dict.fromkeys(packages, errors)
    half = len(packages) // 2
    rejected: dict[str, list[CompileMessage]] = {}
    for part in (packages[:half], packages[half:]):
        chosen = set(part)
        try:
            _compile_wrapped(sources, [t for t in tests if t.package in chosen])
        except CompileError as exc:
            if not exc.build_only:
                raise
            rejected.update(_rejected_packages(sources, tests, part, exc.errors))
    return rejected


# ---------------------------------------------------------------- running


class SnapshotError(EvalError):
    """A snapshot path was refused."""


class TestSuite:
    """A compiled test tree whose tests run one Wasm evaluation each.

    ``problems`` lists files that could not be read or compiled; their tests
    are not in ``tests``.
    """

    __test__ = False  # not a pytest test class

    def __init__(self, paths: list[Path], options: TestOptions | None = None) -> None:
        options = options or TestOptions()
        pattern = re.compile(options.run) if options.run else None
        source_errors: list[SourceError] = []
        sources = load_sources(paths, on_error=source_errors.append, ignore=options.ignore)
        self.suite = compile_tests(sources, pattern)
        self.tests = self.suite.tests
        self.problems = [str(e) for e in source_errors] + [
            m for messages in self.suite.set_aside.values() for m in messages
        ]
        self.roots = [r.resolve() for r in paths]
        self.options = options
        self.limits = Limits(
            options.timeout_seconds, options.max_memory_mb, timeout_option="--timeout"
        )
        self.current: TestOutcome | None = None
        self.instance: PolicyInstance | None = None
        self.instance_policy: CompiledPolicy | None = None

    def _instance(self, policy: CompiledPolicy) -> PolicyInstance:
        if self.instance is not None and self.instance_policy is not policy:
            self._drop_instance()  # one instance at a time: the next part's module
        if self.instance is None:
            self.instance_policy = policy
            self.instance = PolicyInstance(
                policy,
                limits=self.limits,
                custom={
                    SNAPSHOT_BUILTIN: self._snapshot,
                    PRINT_BUILTIN: print_handler(self._print),
                },
                print_hook=self._print,
            )
        return self.instance

    def close(self) -> None:
        """Free the Wasm instance now (it holds reference cycles the garbage
        collector would otherwise free late, possibly at interpreter exit)."""
        self._drop_instance()

    def _drop_instance(self) -> None:
        if self.instance is not None:
            self.instance.close()
            self.instance = None

    def _print(self, line: str) -> None:
        if self.current is not None:
            self.current.printed.append(line)

    def _root_of(self, path: Path) -> Path:
        for root in self.roots:
            if path == root or path.is_relative_to(root):
                return root if root.is_dir() else root.parent
        return path.parent

    def _snapshot(self, instance: PolicyInstance, value_addr: int, path_addr: int) -> int:
        outcome = self.current
        assert outcome is not None
        value = instance.to_python(value_addr)
        relative = instance.to_python(path_addr)
        test_file = self.suite.files[outcome.test.file].path
        try:
            target = resolve_snapshot(self._root_of(test_file), test_file, str(relative))
        except SnapshotPathError as exc:
            raise SnapshotError(str(exc)) from None
        check = check_snapshot(
            target,
            value,
            update=self.options.update_snapshots,
            shown=display_path(target),
        )
        if check.message:
            outcome.output.append(check.message)
        return instance.from_python(check.ok)

    def run(self, test: TestRule) -> TestOutcome:
        outcome = TestOutcome(test)
        if test.skip:
            outcome.skip = True
            return outcome
        if test.is_function:
            outcome.error = TestError(
                "rego_type_error",
                f"function {test.full_name} used as reference, not called",
                as_list=True,
            )
            return outcome
        unbuilt = self.suite.unbuilt.get(test.package)
        if unbuilt:
            first = unbuilt[0]
            outcome.error = TestError(
                first.code or "rego_compile_error",
                first.message,
                first.file,
                first.line,
                first.col,
                as_list=True,
            )
            return outcome
        instance = self._instance(self.suite.policies[test])
        self.current = outcome
        start = time.perf_counter_ns()
        try:
            results = instance.evaluate(self.suite.entrypoints[test])
        except EvalError as exc:
            outcome.duration_ns = time.perf_counter_ns() - start
            outcome.error = self._error(exc)
            if outcome.error.code != "eval_conflict_error" or isinstance(exc, SnapshotError):
                # An interrupted or trapped evaluation may leave the instance
                # unusable; a conflict aborts cleanly and the next evaluation
                # starts from a reset heap.
                self._drop_instance()
            return outcome
        finally:
            self.current = None
        outcome.duration_ns = time.perf_counter_ns() - start
        try:
            _judge(outcome, results)
        except (TypeError, ValueError) as exc:  # a value the report cannot name
            outcome.error = TestError("eval_internal_error", f"{test.full_name}: {exc}")
        return outcome

    def _error(self, exc: EvalError) -> TestError:
        if isinstance(exc, EvalTimeout):
            return TestError("eval_cancel_error", f"test {exc.args[0]}")
        if isinstance(exc, MemoryLimitExceeded):
            return TestError("eval_internal_error", str(exc))
        if isinstance(exc, (BuiltinUnavailable, SnapshotError)):
            return TestError("eval_builtin_error", str(exc))
        if isinstance(exc, EvalConflict):
            found = exc.conflict
            return TestError(CONFLICT_CODE, found.listing(), found.file, found.row, found.col)
        return TestError("eval_internal_error", str(exc))


def _judge(outcome: TestOutcome, results: list[Any]) -> None:
    """Set the verdict from the test's value, as ``opa test`` decides it."""
    if not results:
        outcome.fail = True
        return
    value = results[0]
    test = outcome.test
    if test.partial_object:
        if not isinstance(value, dict):
            outcome.fail = True
            return
        subs = _sub_results(value)
        if test.tail and all(isinstance(p, str) for p in test.tail):
            _require(subs, [str(p) for p in test.tail])
        outcome.sub_results = subs
        outcome.fail = any(s.get("fail") for s in subs.values())
        return
    if value is not True:
        outcome.fail = True


def _term_string(key: Any) -> str:
    """A sub-result's name: a string key as it is, any other key as JSON."""
    if isinstance(key, str):
        return key
    return values.dumps_json(values.to_json(_plain_key(key))).decode()


def _plain_key(key: Any) -> Any:
    """An object key as a value: :class:`values.BoolKey` and tuples (array keys) undone."""
    if isinstance(key, values.BoolKey):
        return key.value
    if isinstance(key, tuple):
        return [_plain_key(k) for k in key]
    return key


def _sub_results(obj: dict[Any, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.sorted_items(obj):
        name = _term_string(key)
        if isinstance(value, dict):
            subs = _sub_results(value)
            entry: dict[str, Any] = {"name": name}
            if subs:
                entry["sub_results"] = subs
            if any(s.get("fail") for s in subs.values()):
                entry["fail"] = True
            out[name] = entry
        else:
            out[name] = {"name": name} if value is True else {"name": name, "fail": True}
    return out


def _require(subs: dict[str, Any], path: list[str]) -> None:
    """Add the case at a ground head path as failed when the rule did not
    produce it (``opa test`` records a case as soon as the rule body is entered)."""
    level = subs
    chain: list[dict[str, Any]] = []
    for part in path:
        entry = level.get(part)
        if entry is None:
            entry = level[part] = {"name": part, "fail": True}
        chain.append(entry)
        level = entry.setdefault("sub_results", {})
    failed = bool(chain[-1].get("fail"))
    for entry in chain:
        if failed:
            entry["fail"] = True
        if not entry.get("sub_results"):
            entry.pop("sub_results", None)


def run_tests(paths: list[Path], options: TestOptions | None = None) -> TestRun:
    """Discover and run every test below ``paths`` (files or directories)."""
    suite = TestSuite(paths, options)
    policy = suite.suite.policy
    # tests of one module run together (one instance at a time), reported in source order
    modules = list(dict.fromkeys(suite.suite.policies.values()))
    order = sorted(
        range(len(suite.tests)),
        key=lambda i: (
            modules.index(suite.suite.policies[suite.tests[i]])
            if suite.tests[i] in suite.suite.policies
            else -1
        ),
    )
    by_index: dict[int, TestOutcome] = {}
    try:
        for i in order:
            by_index[i] = suite.run(suite.tests[i])
    finally:
        suite.close()
    outcomes = [by_index[i] for i in range(len(suite.tests))]
    return TestRun(outcomes, list(suite.problems), policy.key if policy else None)
