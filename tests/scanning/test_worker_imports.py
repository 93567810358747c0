"""Worker processes import nothing from the directory a scan runs in.

A module is planted in the working directory under every top-level name a
worker imports (the standard library's, the engine's dependencies', the
engine's own, ``sitecustomize``); each writes a marker when imported. A scan
with ``--jobs 2`` and with ``--cluster local:2`` run from there imports none of
them and gives the results of a scan run elsewhere.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scan_fixtures import ACL_RULE, ENC_RULE, copy_sample_inputs, write

from engine.core.child_processes import safe_sys_path

CLI = Path(sys.executable).parent / "rego-engine"

_WORKER_MODULES = """
import sys
import engine.scanning.cluster, engine.scanning.parallel, engine.cli.main
import distributed, dask
print("\\n".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def _worker_module_names() -> set[str]:
    names = subprocess.run(
        [sys.executable, "-P", "-c", _WORKER_MODULES],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    return (
        set(names)
        | set(sys.stdlib_module_names)
        | {"sitecustomize", "usercustomize", "engine", "multiprocessing"}
    )


def _plant(directory: Path, marker: Path) -> int:
    """A module under every name a worker imports, each recording its import."""
    planted = 0
    for name in sorted(_worker_module_names()):
        if not name.isidentifier() or name.startswith("__"):
            continue
        (directory / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n", encoding="utf-8"
        )
        planted += 1
    return planted


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    directory = tmp_path / "tree"
    copy_sample_inputs(directory / "inputs")
    write(directory / "rules" / "enc.rego", ENC_RULE)
    write(directory / "rules" / "acl.rego", ACL_RULE)
    return directory


def _scan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLI), "scan", "-d", "rules", "--format", "json", *args, "inputs"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _results(output: str) -> list[object]:
    return [[r["rule_results"] for r in json.loads(output)["results"]]]


@pytest.mark.parametrize("workers", [["--jobs", "2"], ["--cluster", "local:2"]])
def test_workers_import_nothing_from_the_working_directory(
    tree: Path, tmp_path: Path, workers: list[str]
) -> None:
    clean = _scan(tree, *workers)
    assert clean.returncode == 1, clean.stderr
    marker = tmp_path / "imported.txt"
    assert _plant(tree, marker) > 300
    planted = _scan(tree, *workers)
    assert not marker.exists(), f"imported from the scanned tree: {marker.read_text()}"
    assert planted.returncode == 1, planted.stderr
    assert _results(planted.stdout) == _results(clean.stdout)


def test_the_working_directory_leaves_the_path_workers_copy(tmp_path: Path) -> None:
    here = tmp_path / "here"
    here.mkdir()
    path = ["", str(here), str(here / "."), "/usr/lib/python3", str(tmp_path)]
    assert safe_sys_path(path, here) == ["/usr/lib/python3", str(tmp_path)]


_DRIVER = """
import multiprocessing, sys
multiprocessing.get_context("spawn").set_executable(sys.argv[1])
from engine.cli.main import main
sys.argv = ["rego-engine", *sys.argv[2:]]
main()
"""

# A worker that dies at start while a process of its own keeps its pipes open
# (for 30 s): neither end of file nor a broken pipe tells the parent.
_DYING_WORKER = "#!/bin/sh\nsleep 30 &\nexit 3\n"


def test_a_worker_that_dies_at_start_is_an_error_within_seconds(tree: Path) -> None:
    wrapper = tree / "dying-python"
    wrapper.write_text(_DYING_WORKER, encoding="utf-8")
    wrapper.chmod(0o755)
    args = ["scan", "-d", "rules", "--format", "json", "--jobs", "2", "inputs"]
    scanned = subprocess.run(
        [sys.executable, "-P", "-c", _DRIVER, str(wrapper), *args],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,  # the old pool blocked here for good
    )
    assert scanned.returncode == 2, scanned.stderr
    errors = json.loads(scanned.stdout)["errors"]
    assert errors
    assert all("worker process evaluating it stopped unexpectedly (2 times)" in e for e in errors)
