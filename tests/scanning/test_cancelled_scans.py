"""Cancelling a scan and losing a worker, with real processes.

``rego-engine scan`` runs in a subprocess over States one of which makes a
rule loop until its timeout. SIGINT or SIGTERM sent while that rule runs
ends the scan with 130 or 143, no traceback, no core dump, the previous
output file intact, no temporary file and (``-j 2``) no worker left alive.
Killing a worker (``kill -9``) loses only the input it held: that input is
retried once in a fresh worker; lost twice, it is an error naming it.

A process is known to be evaluating by the CPU time it has used: more than
a scan of the fast inputs alone takes (one process), or more than a worker
takes to start (workers). Every wait is bounded, so a regression fails
instead of hanging.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from scan_fixtures import state, write, write_json

from engine.cli.main import app

SLOW_RULE = """\
package rules.slow
import rego.v1
import data.snyk

metadata := {"id": "S1", "title": "slow on slow buckets", "severity": "Low"}

deny contains info if {
  some b in snyk.resources("aws_s3_bucket")
  b.slow == true
  r := numbers.range(1, 1000)
  n := count({a | some a in r; some c in r; some d in r})
  info := {"resource": b, "message": sprintf("%d", [n])}
}
"""

FAST = ("a", "f1", "f2", "f3")
TICKS = os.sysconf("SC_CLK_TCK")
WAIT_SECONDS = 60
"""The longest any step of a test may wait."""
WORKER_BUSY_SECONDS = 2.0
"""CPU time past which a worker is surely evaluating (starting takes well under)."""


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The slow rule, compiled once into a bundle (no ``opa`` run in the scans)."""
    directory = tmp_path_factory.mktemp("rules")
    write(directory / "slow.rego", SLOW_RULE)
    out = directory / "rules.tar.gz"
    result = CliRunner().invoke(app, ["build", "-d", str(directory), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _inputs(directory: Path, *, slow: bool) -> Path:
    """Fast States (and one slow one), each bucket named after its file."""
    for name in FAST:
        write_json(directory / f"{name}.json", state({name: {"slow": False}}))
    if slow:
        write_json(directory / "slow.json", state({"slow": {"slow": True}}))
    return directory


def _start(workdir: Path, inputs: Path, bundle: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "engine", "scan", str(inputs), "--bundle", str(bundle), *args],
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/pid/stat`` after the command name, or None when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def _cpu_seconds(pid: int) -> float:
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / TICKS


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _workers(pid: int) -> list[int]:
    """The scan's worker processes (not multiprocessing's resource tracker)."""
    workers = []
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            workers.append(child)
    return workers


def _wait_for(what: str, found: Callable[[], int | None], process: subprocess.Popen[bytes]) -> int:
    """Poll ``found`` until it gives a pid; fail if the scan ends first or time runs out."""
    end = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < end:
        pid = found()
        if pid is not None:
            return pid
        if process.poll() is not None:
            pytest.fail(f"the scan ended before {what}: {process.communicate()}")
        time.sleep(0.05)
    process.kill()
    pytest.fail(f"no {what} within {WAIT_SECONDS}s")


def _busy_worker(scan: int, exclude: set[int]) -> int | None:
    for worker in _workers(scan):
        if worker not in exclude and _cpu_seconds(worker) > WORKER_BUSY_SECONDS:
            return worker
    return None


@pytest.fixture(scope="module")
def startup_cpu(bundle: Path, tmp_path_factory: pytest.TempPathFactory) -> float:
    """CPU seconds a one-process scan of the fast inputs takes, start to end."""
    workdir = tmp_path_factory.mktemp("baseline")
    inputs = _inputs(workdir / "in", slow=False)
    before = os.times()
    done = subprocess.run(
        [sys.executable, "-m", "engine", "scan", str(inputs), "--bundle", str(bundle)],
        cwd=workdir,
        capture_output=True,
        timeout=WAIT_SECONDS,
    )
    after = os.times()
    assert done.returncode == 0, done.stderr
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def _finish(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    try:
        _, stderr = process.communicate(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"the scan did not stop within {WAIT_SECONDS}s of the signal")
    return process.returncode, stderr.decode()


@pytest.fixture
def no_core_dumps() -> Iterator[None]:
    """A crash must show as a signal exit, not leave a core file behind."""
    import resource

    limits = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, limits[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_CORE, limits)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_evaluation_cancels_the_scan_cleanly(
    tmp_path: Path,
    bundle: Path,
    startup_cpu: float,
    no_core_dumps: None,
    jobs: int,
    signum: int,
    code: int,
) -> None:
    inputs = _inputs(tmp_path / "in", slow=True)
    out = tmp_path / "out" / "results.json"
    write(out, "previous results\n")
    process = _start(
        tmp_path, inputs, bundle, "-o", str(out), "--rule-timeout", "120", "-j", str(jobs)
    )
    workers: list[int] = []
    if jobs == 1:
        threshold = startup_cpu + 1.0
        _wait_for(
            "the slow rule running",
            lambda: process.pid if _cpu_seconds(process.pid) > threshold else None,
            process,
        )
    else:
        _wait_for("a worker evaluating", lambda: _busy_worker(process.pid, set()), process)
        workers = _workers(process.pid)
        assert len(workers) == 2
    started = time.monotonic()
    process.send_signal(signum)
    returncode, stderr = _finish(process)
    assert time.monotonic() - started < 10  # the running rule was interrupted
    assert returncode == code, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    assert stderr.strip().splitlines()[-1] == f"error: cancelled by {signal.Signals(signum).name}"
    assert out.read_text() == "previous results\n"
    assert sorted(p.name for p in out.parent.iterdir()) == ["results.json"]  # no temporary file
    assert not list(tmp_path.glob("core*"))
    for worker in workers:  # reaped by the scan, not re-parented and left running
        assert _stat(worker) is None, f"worker {worker} outlived the scan"


def _results_by_bucket(stdout: bytes) -> dict[str, dict]:
    document = json.loads(stdout)
    found = {}
    for result in document["results"]:
        (bucket,) = [
            name.removeprefix("aws_s3_bucket.")
            for name in result["input"]["resources"]["aws_s3_bucket"]
        ]
        found[bucket] = result
    return found


def test_a_killed_worker_loses_only_its_input_which_is_retried(
    tmp_path: Path, bundle: Path, no_core_dumps: None
) -> None:
    inputs = _inputs(tmp_path / "in", slow=True)
    # The slow rule must still run when its worker is found busy (2 s of CPU): on a
    # loaded machine a worker gets a fraction of a core, so the bound leaves room.
    process = _start(tmp_path, inputs, bundle, "--rule-timeout", "20", "-j", "2")
    busy = _wait_for("a worker evaluating", lambda: _busy_worker(process.pid, set()), process)
    os.kill(busy, signal.SIGKILL)
    try:
        stdout, stderr = process.communicate(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the scan did not finish")
    errors = stderr.decode()
    assert process.returncode == 2, errors  # the slow rule's timeout, nothing else
    assert "stopped unexpectedly" not in errors
    assert "slow.json: data.rules.slow" in errors and "time limit of 20s" in errors
    results = _results_by_bucket(stdout)
    assert sorted(results) == sorted([*FAST, "slow"])  # the lost input evaluated again
    for name in FAST:
        assert results[name]["rule_results"][0]["errors"] == []


def test_an_input_lost_twice_is_an_error_naming_it(
    tmp_path: Path, bundle: Path, no_core_dumps: None
) -> None:
    inputs = _inputs(tmp_path / "in", slow=True)
    process = _start(tmp_path, inputs, bundle, "--rule-timeout", "60", "-j", "2")
    killed: set[int] = set()
    for _ in range(2):
        busy = _wait_for("a worker evaluating", lambda: _busy_worker(process.pid, killed), process)
        os.kill(busy, signal.SIGKILL)
        killed.add(busy)
    try:
        stdout, stderr = process.communicate(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the scan did not finish")
    errors = stderr.decode()
    assert process.returncode == 2, errors
    assert (
        "error: in/slow.json: the worker process evaluating it stopped unexpectedly (2 times)"
        in errors
    )
    results = _results_by_bucket(stdout)
    assert sorted(results) == sorted(FAST)  # every other input kept its results
