"""``scan --cluster``: inputs evaluated on a Dask cluster give the output of ``--jobs 1``.

Real clusters on 127.0.0.1: a ``LocalCluster`` of two worker processes, and a
``dask scheduler`` with ``dask worker`` processes started as subprocesses.
Workers killed mid-scan lose nothing; an input that keeps killing workers
becomes its own error; a scheduler that goes away ends the scan with exit 2.
With ``--cluster-shared-fs`` the workers load the inputs themselves.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import dask
import pytest
from click.testing import CliRunner, Result
from distributed import Client
from scan_fixtures import (
    ACL_RULE,
    ENC_RULE,
    SLOW_RULE,
    copy_sample_inputs,
    state,
    write,
    write_json,
)

from engine.cli.main import app
from engine.core.paths import REPO_ROOT
from engine.inputs import discovery
from engine.inputs.discovery import LoadOptions, ScanInput, plan_loading
from engine.scanning import cluster
from engine.scanning.cluster import ClusterError, cluster_client, local_workers
from engine.scanning.scanner import ScanOptions, scan

BIN = Path(sys.executable).parent
GENERATED = 200

ROOT_MODULE = """variable "acl" {
  type    = string
  default = "private"
}

module "store" {
  source = "../modules/bucket"
  acl    = var.acl
}
"""

CALLED_MODULE = """variable "acl" {
  type = string
}

resource "aws_s3_bucket" "called" {
  acl = var.acl
}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("rules")
    shutil.copytree(REPO_ROOT / "tests" / "scan_corpus" / "rules", directory / "corpus")
    shutil.copytree(REPO_ROOT / "examples" / "custom-rules", directory / "examples")
    write(directory / "mine" / "enc.rego", ENC_RULE)
    write(directory / "mine" / "acl.rego", ACL_RULE)
    return directory


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples and scan corpus, an unparseable file, a root module calling
    a module in a directory of its own, and generated States."""
    directory = copy_sample_inputs(tmp_path_factory.mktemp("inputs"))
    write(directory / "broken" / "main.tf", 'resource "aws_s3_bucket" "x" {\n  acl = \n')
    write(directory / "tf" / "root" / "main.tf", ROOT_MODULE)
    write(directory / "tf" / "modules" / "bucket" / "main.tf", CALLED_MODULE)
    for i in range(GENERATED):
        buckets = {
            f"gen{i}_b{j}": {"acl": "public-read" if (i + j) % 3 == 0 else "private", "size": i * j}
            for j in range(i % 7 + 1)
        }
        write_json(directory / "generated" / f"g{i:03}.json", state(buckets))
    return directory


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with cluster_client("local:2") as started:
        yield started


def _scan(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    return CliRunner(env=env).invoke(app, ["scan", *map(str, args)], catch_exceptions=False)


def _worker_pids(client: Client) -> dict[str, int]:
    return client.run(os.getpid)


def test_local_cluster_output_is_byte_identical(rules: Path, inputs: Path) -> None:
    one = _scan(inputs, "-d", rules, "--jobs", "1")
    on_cluster = _scan(inputs, "-d", rules, "--cluster", "local:2")
    assert one.exit_code == 2  # the broken input
    assert (on_cluster.exit_code, on_cluster.stderr) == (one.exit_code, one.stderr)
    assert on_cluster.stdout_bytes == one.stdout_bytes
    assert "main.tf" in one.stderr
    assert '"line":' in one.stdout  # results located in IaC files
    assert "aws_s3_bucket.gen199_b0" in one.stdout and one.stdout.count('"passed": false') > 10
    # The called module is scanned as part of its root, not as a root of its own.
    assert "tf/root" in one.stdout and 'modules/bucket"' not in one.stdout


def test_workers_on_a_shared_filesystem_load_the_inputs(
    rules: Path, inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = _scan(inputs, "-d", rules, "--jobs", "1")

    def no_parsing_here(*_: object) -> None:
        raise AssertionError("the driver parsed an input")

    # Workers are processes of their own: only this process, the driver, is patched.
    monkeypatch.setattr(discovery._Loader, "file", no_parsing_here)
    shared = _scan(inputs, "-d", rules, "--cluster", "local:2", "--cluster-shared-fs")
    assert (shared.exit_code, shared.stderr) == (one.exit_code, one.stderr)
    assert shared.stdout_bytes == one.stdout_bytes
    assert "main.tf" in shared.stderr and '"line":' in shared.stdout


def test_shared_filesystem_with_the_library_client(
    client: Client, rules: Path, inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = scan([inputs], [rules])
    seen: list[tuple[int, int]] = []
    options = ScanOptions(
        cluster=client, cluster_shared_fs=True, progress=lambda *step: seen.append(step)
    )
    monkeypatch.chdir(inputs)  # paths as shown are relative to the working directory
    here = scan([Path(".")], [rules])
    remote = scan([Path(".")], [rules], options)
    assert remote.to_json() == here.to_json() and remote.errors == here.errors
    assert here.to_json() != local.to_json()  # the paths differ: the worker used this directory
    # A task per file (a directory's Terraform files together), then per manifest directory.
    assert seen[-1][0] == seen[-1][1] > GENERATED


def test_modules_and_var_files_outside_the_input_directory(
    client: Client, rules: Path, tmp_path: Path
) -> None:
    write(tmp_path / "tf" / "root" / "main.tf", ROOT_MODULE)
    module = write(tmp_path / "tf" / "modules" / "bucket" / "main.tf", CALLED_MODULE)
    var_file = write(tmp_path / "vars" / "prod.tfvars", 'acl = "public-read"\n')
    load = LoadOptions(var_files=(var_file,))
    root = [tmp_path / "tf" / "root"]
    local = scan(root, [rules], ScanOptions(load=load))
    as_states = scan(root, [rules], ScanOptions(load=load, cluster=client))
    shared = scan(root, [rules], ScanOptions(load=load, cluster=client, cluster_shared_fs=True))
    assert as_states.to_json() == local.to_json() == shared.to_json()
    document = local.to_json().decode()
    assert str(module) in document and "public-read" in document


def test_a_worker_without_the_working_directory_names_the_files(
    rules: Path, inputs: Path, tmp_path: Path
) -> None:
    plan = plan_loading([inputs / "generated"])
    missing = str(tmp_path / "not-here")
    loaded, outcomes = cluster.load_and_evaluate(
        plan.units[0], LoadOptions(), missing, ValueError()
    )
    problems = [str(p) for slot in loaded.slots for p in slot.problems]
    assert len(problems) == len(plan.units[0].files) == GENERATED
    assert problems[0].startswith(str(inputs / "generated" / "g000.json") + ": not loaded")
    assert missing in problems[0] and "--cluster-shared-fs" in problems[0]
    assert outcomes == [[] for _ in loaded.slots]


def test_shared_fs_needs_a_cluster(rules: Path, inputs: Path) -> None:
    result = _scan(inputs / "generated", "-d", rules, "--cluster-shared-fs")
    assert result.exit_code == 2 and "needs --cluster" in result.stderr


def test_library_client_keeps_one_evaluator_per_rule_set(
    client: Client, rules: Path, inputs: Path
) -> None:
    seen: list[tuple[int, int]] = []
    local = scan([inputs], [rules])
    client.run(lambda: cluster._worker_rules.clear())  # what earlier tests left
    options = ScanOptions(cluster=client, progress=lambda *step: seen.append(step))
    remote = scan([inputs], [rules], options)
    again = scan([inputs / "generated"], [rules], ScanOptions(cluster=client))
    assert remote.to_json() == local.to_json()
    assert remote.errors == local.errors
    assert again.to_json() == scan([inputs / "generated"], [rules]).to_json()
    # Both scans used the rule set each worker built once.
    kept = client.run(lambda: sorted(cluster._worker_rules))
    assert len(kept) == 2 and all(len(digests) == 1 for digests in kept.values())
    assert seen[-1][0] == seen[-1][1] > 0
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_a_worker_killed_mid_scan_loses_nothing(client: Client, rules: Path, inputs: Path) -> None:
    before = _worker_pids(client)
    victim = next(iter(before.values()))
    killed: list[int] = []

    def kill_once(done: int, total: int) -> None:
        if not killed and done < total:
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    local = scan([inputs / "generated"], [rules])
    remote = scan([inputs / "generated"], [rules], ScanOptions(cluster=client, progress=kill_once))
    assert killed
    assert remote.to_json() == local.to_json() and remote.errors == local.errors == []
    client.wait_for_workers(2, timeout=60)
    assert victim not in _worker_pids(client).values()


def test_bounds_hold_on_workers(client: Client, tmp_path: Path) -> None:
    rules = write(tmp_path / "rules" / "enc.rego", ENC_RULE).parent
    directory = tmp_path / "in"
    write_json(directory / "a.json", state({"a": {"acl": "private"}}))
    big = {f"big{i}": {"acl": "private", "pad": "x" * 2000} for i in range(2000)}
    write_json(directory / "b_big.json", state(big))
    local = scan([directory], [rules], ScanOptions(max_memory_mb=8))
    remote = scan([directory], [rules], ScanOptions(max_memory_mb=8, cluster=client))
    assert remote.to_json() == local.to_json() and remote.errors == local.errors
    assert any("b_big.json" in e and "memory" in e for e in remote.errors)


def _die_in_a_worker(scan_input: ScanInput) -> _Deadly:
    """Unpickled in a Dask worker process, ends it; anywhere else (the scheduler),
    stays deadly."""
    import multiprocessing

    if "Dask Worker" in multiprocessing.current_process().name:
        os._exit(1)
    return _Deadly(scan_input)


class _Deadly:
    """Pickles as a call of :func:`_die_in_a_worker`."""

    def __init__(self, scan_input: ScanInput) -> None:
        self.scan_input = scan_input

    def __reduce__(self) -> tuple[Any, ...]:
        return (_die_in_a_worker, (self.scan_input,))


def test_an_input_that_kills_workers_becomes_its_error(
    rules: Path, inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    portable = cluster.portable

    def deadly(scan_input: ScanInput) -> Any:
        made = portable(scan_input)
        return _Deadly(made) if scan_input.name.endswith("g002.json") else made

    monkeypatch.setattr(cluster, "portable", deadly)
    local = scan([inputs / "generated"], [rules])
    with (
        # One task at a time per worker: no other input dies with the deadly one.
        dask.config.set(
            {
                "distributed.scheduler.allowed-failures": 1,
                "distributed.scheduler.worker-saturation": 1.0,
            }
        ),
        cluster_client("local:2") as own,
    ):
        remote = scan([inputs / "generated"], [rules], ScanOptions(cluster=own))
    (error,) = remote.errors
    assert "g002.json: the cluster gave up on it" in error
    assert [i.input.name for i in remote.inputs] == [
        i.input.name for i in local.inputs if not i.input.name.endswith("g002.json")
    ]
    kept = [i for i in local.inputs if not i.input.name.endswith("g002.json")]
    assert [i.rule_results for i in remote.inputs] == [i.rule_results for i in kept]


def _start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(BIN / "dask"), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


@contextmanager
def _dask_processes(tmp: Path, workers: int) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A ``dask scheduler`` and ``workers`` ``dask worker`` processes on 127.0.0.1:
    the scheduler's address and process."""
    address_file = tmp / "scheduler.json"
    scheduler = _start(
        "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
        "--scheduler-file", str(address_file),
    )  # fmt: skip
    started = [scheduler]
    try:
        deadline = time.monotonic() + 60
        address = None
        while address is None:
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.2)
            try:
                address = json.loads(address_file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                continue
        for _ in range(workers):
            started.append(
                _start("worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                       "--no-dashboard")
            )  # fmt: skip
        with Client(address, timeout=30) as watcher:
            watcher.wait_for_workers(workers, timeout=60)
        yield address, scheduler
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_dask_scheduler_and_worker_processes(tmp_path: Path, rules: Path, inputs: Path) -> None:
    one = _scan(inputs, "-d", rules)
    with _dask_processes(tmp_path, workers=2) as (address, _):
        on_cluster = _scan(inputs, "-d", rules, env={"DASK_SCHEDULER_ADDRESS": address})
    assert (on_cluster.exit_code, on_cluster.stderr) == (one.exit_code, one.stderr)
    assert on_cluster.stdout_bytes == one.stdout_bytes


def test_the_scheduler_going_away_ends_the_scan_with_exit_2(tmp_path: Path) -> None:
    slow = write(tmp_path / "rules" / "slow.rego", SLOW_RULE).parent
    for i in range(8):
        write_json(tmp_path / "in" / f"s{i}.json", state({f"b{i}": {"acl": "private"}}))
    with _dask_processes(tmp_path, workers=1) as (address, scheduler):
        command = [str(BIN / "rego-engine"), "scan", str(tmp_path / "in"), "-d", str(slow)]
        scanning = subprocess.Popen(
            [*command, "--cluster", address], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            with Client(address, timeout=30) as watcher:
                deadline = time.monotonic() + 120
                while not any(watcher.processing().values()):
                    assert time.monotonic() < deadline and scanning.poll() is None
                    time.sleep(0.2)
            scheduler.kill()
            killed = time.monotonic()
            _, stderr = scanning.communicate(timeout=90)
        finally:
            if scanning.poll() is None:
                scanning.kill()
        assert scanning.returncode == 2
        assert time.monotonic() - killed < 60
        assert "lost the Dask scheduler" in stderr.decode(), stderr.decode()[-3000:]
        assert "Traceback" not in stderr.decode()


def test_a_found_configuration_may_not_name_a_cluster(
    tmp_path: Path, rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "repo"
    write_json(tree / "a.json", state({"a": {"acl": "private"}}))
    write(tree / ".rego-engine.yaml", "cluster: tcp://127.0.0.1:1\n")
    (tree / ".git").mkdir()
    monkeypatch.chdir(tree)
    found = _scan(".", "-d", rules)
    assert found.exit_code == 2
    assert ".rego-engine.yaml:1: 'cluster' is not taken from a configuration file" in found.stderr
    assert '"passed"' in found.stdout  # scanned here, not sent anywhere
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2.0)  # nothing listens on port 1
    named = _scan(".", "-d", rules, "--config", tree / ".rego-engine.yaml")
    assert named.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in named.stderr


@pytest.mark.parametrize("address", ["local:0", "local:", "local:two"])
def test_a_local_cluster_needs_a_worker_count(address: str, rules: Path, inputs: Path) -> None:
    result = _scan(inputs / "generated", "-d", rules, "--cluster", address)
    assert result.exit_code == 2
    assert "local:N needs a positive number of workers" in result.stderr
    with pytest.raises(ClusterError):
        local_workers(address)
    assert local_workers("local:3") == 3 and local_workers("tcp://127.0.0.1:8786") is None


def test_without_dask_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    extra = r"pip install 'rego-engine\[cluster\]'"
    with pytest.raises(ClusterError, match=extra), cluster_client("tcp://127.0.0.1:8786"):
        pass
