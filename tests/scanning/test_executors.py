"""The executor a scan runs on is chosen in one place, and the post-scan passes
run once each, in order, on every scan."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.scanning import executors, post_scan, scanner
from engine.scanning.executors import (
    InProcess,
    OnCluster,
    OnClusterSharedFs,
    RunnableRules,
    WorkerProcesses,
    choose_executor,
)
from engine.scanning.input_scan import Selected
from engine.scanning.scan_options import ScanOptions

STATE = {
    "format": "",
    "format_version": "1.0.0",
    "input_type": "tf_state",
    "environment_provider": "iac",
    "meta": {"filepath": "one.json"},
    "scope": {"filepath": "one.json"},
    "resources": {},
}


def _rules(evaluator: Any) -> RunnableRules:
    return RunnableRules(prepared=Any, selected=Selected([], []), evaluator=evaluator, limits=Any)  # type: ignore[arg-type]


CLIENT = object()


@pytest.mark.parametrize(
    ("jobs", "client", "shared", "expected"),
    [
        (1, None, False, InProcess),
        (4, None, False, WorkerProcesses),
        (1, CLIENT, False, OnCluster),
        (4, CLIENT, False, OnCluster),
        (1, CLIENT, True, OnClusterSharedFs),
    ],
)
def test_the_executor_follows_jobs_and_cluster(
    jobs: int, client: Any, shared: bool, expected: type
) -> None:
    chosen = choose_executor(_rules(object()), jobs=jobs, client=client, cluster_shared_fs=shared)
    assert type(chosen) is expected
    if expected is WorkerProcesses:
        assert chosen.jobs == jobs  # type: ignore[attr-defined]
    if client is not None:
        assert chosen.client is client  # type: ignore[attr-defined]


@pytest.mark.parametrize(("jobs", "client"), [(4, None), (1, CLIENT)])
def test_without_rules_to_run_inputs_are_loaded_here(jobs: int, client: Any) -> None:
    assert type(choose_executor(_rules(None), jobs=jobs, client=client)) is InProcess


def test_one_input_is_not_sent_to_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    evaluated: list[int] = []
    monkeypatch.setattr(InProcess, "evaluate", lambda self, inputs, report: evaluated.append(1))
    WorkerProcesses(_rules(object()), None, 4).evaluate([object()], object())  # type: ignore[list-item, arg-type]
    assert evaluated == [1]


def test_a_scan_runs_every_post_scan_pass_once_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "one.json"
    state.write_text(json.dumps(STATE), encoding="utf-8")
    (tmp_path / "rules").mkdir()
    ran: list[str] = []

    def recording(name: str) -> Any:
        def run(report: Any, rules: Any, options: Any) -> None:
            ran.append(name)

        return run

    passes = tuple(recording(p.__name__) for p in post_scan.POST_SCAN_PASSES)
    monkeypatch.setattr(scanner, "POST_SCAN_PASSES", passes)
    scanner.scan([state], [tmp_path / "rules"], ScanOptions())
    assert ran == [
        "collect_rule_warnings",
        "apply_ignore_file",
        "apply_suppression_comments",
        "apply_baseline_file",
    ]


def test_a_scan_uses_the_executor_chosen_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "one.json"
    state.write_text(json.dumps(STATE), encoding="utf-8")
    (tmp_path / "rules").mkdir()
    chosen: list[dict[str, Any]] = []
    real = executors.choose_executor

    def choose(rules: RunnableRules, **kwargs: Any) -> Any:
        chosen.append(kwargs)
        return real(rules, **kwargs)

    monkeypatch.setattr(scanner, "choose_executor", choose)
    report = scanner.scan([state], [tmp_path / "rules"], ScanOptions(jobs=3))
    assert [c["jobs"] for c in chosen] == [3]
    assert [i.input.path for i in report.inputs] == [str(state)]
