"""Regula-style test trees under `rego-engine test`.

tests/regula_style_corpus holds a library function read as a reference by
OPA's Wasm build when a test rule is itself an entrypoint; the tests are
built through generated wrapper rules instead and must get `opa test`'s
verdicts. When the Wasm build still rejects a package, only that package's
tests error, with OPA's message.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from opa_test_oracle import opa_test_json, stage_oracle_bundle
from oracle import needs_opa

from engine.rules import compiler
from engine.rules.compiler import CompileError, CompileMessage, compile_policy
from engine.rules.sources import PolicySources, RegoFile, load_sources
from engine.testing import runner
from engine.testing.rego_tests import find_tests
from engine.testing.report import to_json
from engine.testing.runner import TestRun, run_tests, test_mode_data, test_mode_library

CORPUS = Path(__file__).parent.parent / "regula_style_corpus"


def _verdicts(entries: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    out = {}
    for e in entries:
        word = next((w for w in ("fail", "error", "skip") if e.get(w)), "pass")
        out[(e["package"], e["name"])] = word
    return out


def _engine_entries(run: TestRun) -> list[dict[str, Any]]:
    return list(json.loads(to_json(run)))


@needs_opa
def test_test_rules_as_entrypoints_fail_the_wasm_build() -> None:
    """Guards the corpus: it reproduces the type-check failure, and OPA's
    message (printed on stdout) reaches the error."""
    sources = load_sources([CORPUS])
    found = find_tests([(f.display, f.text, f.rego_version) for f in sources.rego_files])
    packages = {m.package for m in found}
    staged = [
        RegoFile(f.path, f.display, m.staged_text, f.rego_version)
        for f, m in zip(sources.rego_files, found, strict=True)
    ]
    attempt = PolicySources(
        [*test_mode_library(packages), *staged], test_mode_data(sources.data, packages)
    )
    entrypoints = [t.entrypoint for m in found for t in m.tests if t.package == "rules.t2_only"]
    with pytest.raises(CompileError) as caught:
        compile_policy(attempt, entrypoints)
    assert caught.value.build_only
    assert "rule_kind used as reference, not called" in str(caught.value)
    assert caught.value.errors[0].code == "rego_type_error"


@needs_opa
def test_regula_style_tests_get_opa_tests_verdicts() -> None:
    ours = _engine_entries(run_tests([CORPUS]))
    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp) / "bundle"
        stage_oracle_bundle(CORPUS, bundle)
        theirs = opa_test_json(bundle)
    assert _verdicts(ours) == _verdicts(theirs)
    verdicts = list(_verdicts(ours).values())
    assert verdicts.count("pass") == 7 and verdicts.count("fail") == 2


@needs_opa
def test_a_package_the_build_rejects_costs_only_its_own_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rejected = CompileMessage(
        "rejected by this test", "rules/bucket_test.rego", 3, 1, "rego_type_error"
    )
    builds: list[int] = []

    def picky_build(sources: PolicySources, entrypoints: Sequence[str], **options: Any) -> Any:
        builds.append(len(entrypoints))
        wrapper = sources.rego_files[-1].text
        if "data.rules.bucket." in wrapper:
            raise CompileError([rejected], build_only=True)
        return compile_policy(sources, entrypoints, **options)

    monkeypatch.setattr(runner, "compile_policy", picky_build)
    run = run_tests([CORPUS])
    by_name = {(o.test.package, o.test.name): o for o in run.outcomes}
    for name in ("test_unencrypted_denied", "test_encrypted_passes"):
        error = by_name[("rules.bucket", name)].error
        assert error is not None
        assert error.to_json() == [
            {
                "code": "rego_type_error",
                "message": "rejected by this test",
                "location": {"file": "rules/bucket_test.rego", "row": 3, "col": 1},
            }
        ]
    others = [o for key, o in by_name.items() if key[0] != "rules.bucket"]
    assert len(others) == 7 and all(o.error is None for o in others)
    assert sum(o.passed for o in others) == 5
    assert run.exit_code() == 2 and not run.problems
    assert len(builds) >= 3  # the whole, its halves, then the packages that build


def test_build_errors_are_read_from_stdout() -> None:
    stage = Path("/tmp/stage")
    staged = {"src/00001/kind.rego": "lib/kind.rego"}
    output = (
        "error: 1 error occurred: /tmp/stage/src/00001/kind.rego:4: rego_type_error: "
        "function data.f used as reference, not called\n\tdata.f\n"
    )
    errors = compiler._build_errors(output, staged, stage)
    assert errors == [
        CompileMessage(
            "function data.f used as reference, not called",
            "lib/kind.rego",
            4,
            None,
            "rego_type_error",
        )
    ]
