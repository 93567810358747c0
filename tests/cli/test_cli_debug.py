"""No tracebacks: an internal error is one line with a hint; --debug shows the traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.cli import app, main
from engine.inputs import discovery


def _boom(*_args: object, **_kwargs: object) -> object:
    raise KeyError("injected failure")


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "argv", ["rego-engine", *argv])
    monkeypatch.setattr(app, "_DEBUG", False)
    with pytest.raises(SystemExit) as stopped:
        main.main()
    return int(stopped.value.code or 0)


def test_internal_error_is_one_line_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(discovery, "load_inputs", _boom)
    assert _run(["state", str(tmp_path)], monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "error: internal error: KeyError: 'injected failure' "
        "(a bug in rego-engine: rerun with --debug for the traceback and report it)"
    ]


def test_debug_shows_the_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(discovery, "load_inputs", _boom)
    monkeypatch.setattr(sys, "argv", ["rego-engine", "--debug", "state", str(tmp_path)])
    with pytest.raises(KeyError, match="injected failure") as raised:
        main.main()
    assert any(entry.name == "_boom" for entry in raised.traceback)


def test_an_internal_error_in_one_rule_spares_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine bug while evaluating or building one rule's results is that
    rule's error (one line); the other rules keep their results."""
    from scan_fixtures import ACL_RULE, ENC_RULE, state, write, write_json

    from engine import scan
    from engine.evaluation.evaluator import RuleEvaluator
    from engine.scanning import input_scan

    inputs = write_json(tmp_path / "in" / "main.json", state({"a": {"acl": "public-read"}}))
    write(tmp_path / "rules" / "enc.rego", ENC_RULE)
    write(tmp_path / "rules" / "acl.rego", ACL_RULE)
    real_multi = RuleEvaluator._run_multi
    real_build = input_scan.build_rule_results

    def run_multi(self: RuleEvaluator, index: int, run: object) -> None:
        raise KeyError("injected in evaluation")

    def build(run: object, *args: object) -> object:
        if run.statics.single and not run.errors:
            raise ValueError("injected in results")
        return real_build(run, *args)

    monkeypatch.setattr(RuleEvaluator, "_run_multi", run_multi)
    report = scan([inputs], [tmp_path / "rules"])
    (entry,) = report.inputs
    enc, acl = entry.rule_results
    assert enc.errors and "internal error: KeyError: 'injected in evaluation'" in enc.errors[0]
    assert [(r.resource_id, r.passed) for r in acl.results] == [("aws_s3_bucket.a", False)]
    assert report.exit_code() == 2

    monkeypatch.setattr(RuleEvaluator, "_run_multi", real_multi)
    monkeypatch.setattr(input_scan, "build_rule_results", build)
    report = scan([inputs], [tmp_path / "rules"])
    enc, acl = report.inputs[0].rule_results
    assert acl.errors == [
        "internal error: ValueError: injected in results "
        "(a bug in rego-engine: rerun with --debug for the traceback and report it)"
    ]
    assert [(r.resource_id, r.passed) for r in enc.results] == [("aws_s3_bucket.a", False)]
    assert report.exit_code() == 2
