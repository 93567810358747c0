"""The fixed cost of starting the command line (``make bench-startup``).

    .venv/bin/python bench/bench_startup.py [RUNS]

Times, as child processes, ``python -c pass``, ``rego-engine --help``,
``rego-engine version`` and a scan of a State JSON file holding one
``aws_s3_bucket`` with the shipped rule pack (run once first so the compile
cache is warm), beside the floor click sets: ``--help`` of a two-command
click app and one of its commands run, and, when Typer is installed, the same
app on Typer (with its default Rich help) for comparison. Every
command runs once unmeasured first, with ``PYTHONDONTWRITEBYTECODE`` removed
from its environment, so Python's bytecode cache is warm too, as in an
installed engine. Each line is the median of
``RUNS`` runs (default 7) of the child's wall time and CPU time (user +
system), with its ratio to ``python -c pass`` measured in the same run.
Nothing is asserted.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7

STATE = {
    "format": "",
    "format_version": "1.0.0",
    "input_type": "tf_state",
    "environment_provider": "iac",
    "meta": {"filepath": "bench.tfstate.json"},
    "scope": {"filepath": "bench.tfstate.json"},
    "resources": {
        "aws_s3_bucket": {
            "aws_s3_bucket.logs": {
                "id": "aws_s3_bucket.logs",
                "resource_type": "aws_s3_bucket",
                "namespace": "bench.tfstate.json",
                "meta": {"provider": "aws"},
                "tags": {"env": "bench"},
                "attributes": {"bucket": "bench-logs", "acl": "private"},
            }
        }
    },
}


TYPER_APP = """\
import typer

app = typer.Typer(add_completion=False)


@app.command()
def one(flag: bool = False) -> None:
    \"\"\"One.\"\"\"


@app.command()
def two(flag: bool = False) -> None:
    \"\"\"Two.\"\"\"


app()
"""


CLICK_APP = """\
import click


@click.group()
def app() -> None:
    \"\"\"App.\"\"\"


@app.command()
@click.option("--flag", is_flag=True)
@click.option("--count", type=int, default=1)
def one(flag: bool, count: int) -> None:
    \"\"\"One.\"\"\"


@app.command()
@click.option("--flag", is_flag=True)
def two(flag: bool) -> None:
    \"\"\"Two.\"\"\"


app()
"""


def _command_line() -> list[str]:
    """``rego-engine`` beside this interpreter, else ``python -m engine``."""
    script = Path(sys.executable).with_name("rego-engine")
    if script.is_file():
        return [str(script)]
    found = shutil.which("rego-engine")
    return [found] if found else [sys.executable, "-m", "engine"]


def _run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process (its exit code is not judged)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _median(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    _run_once(argv, env)  # warms Python's bytecode cache
    runs = [_run_once(argv, env) for _ in range(RUNS)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def main() -> None:
    cli = _command_line()
    env = dict(os.environ)
    env.setdefault("NO_COLOR", "1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "bench.tfstate.json"
        state.write_text(json.dumps(STATE), encoding="utf-8")
        typer_app = Path(tmp) / "typer_app.py"
        typer_app.write_text(TYPER_APP, encoding="utf-8")
        click_app = Path(tmp) / "click_app.py"
        click_app.write_text(CLICK_APP, encoding="utf-8")
        scan = [*cli, "scan", str(state), "--format", "json", "-o", str(Path(tmp) / "out.json")]
        warm = subprocess.run(scan, env=env, capture_output=True, check=False)
        if warm.returncode not in (0, 1):
            sys.exit(f"warm-up scan failed (exit {warm.returncode}): {warm.stderr.decode()}")
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "click app --help": [sys.executable, str(click_app), "--help"],
            "click app one": [sys.executable, str(click_app), "one", "--count", "2"],
        }
        if importlib.util.find_spec("typer") is not None:
            cases["typer app --help"] = [sys.executable, str(typer_app), "--help"]
            cases["typer app one"] = [sys.executable, str(typer_app), "one"]
        cases |= {
            "rego-engine --help": [*cli, "--help"],
            "rego-engine version": [*cli, "version"],
            "scan, 1 resource, warm": scan,
        }
        measured = {name: _median(argv, env) for name, argv in cases.items()}
    base_wall, base_cpu = measured["python -c pass"]
    print(f"median of {RUNS} runs; ratio to python -c pass of the same run")
    print(f"{'command':<26} {'wall s':>7} {'ratio':>6} {'cpu s':>7} {'ratio':>6}")
    for name, (wall, cpu) in measured.items():
        print(
            f"{name:<26} {wall:7.3f} {wall / base_wall:6.1f} "
            f"{cpu:7.3f} {cpu / max(base_cpu, 1e-3):6.1f}"
        )


if __name__ == "__main__":
    main()
