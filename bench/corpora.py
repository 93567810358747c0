"""``opa test`` and ``rego-engine test`` side by side on Rego trees checked out
locally (``make corpora``; fetches nothing).

Each corpus is ``NAME=PATH[,PATH...]`` with optional ``opa test`` flags after
``--`` in the same argument (``trivy=lib,checks,examples -- --ignore *.yaml``);
the flags are given to both tools (``--v0-compatible`` only to ``opa``, since
the engine settles each file's Rego version itself). Per corpus it prints the
tests, ``opa test``'s passes, how many verdicts agree, and CPU seconds of
``opa test``, the engine cold (an empty cache) and warm (the same cache
again); then every disagreement with both sides' verdicts and messages.

    python bench/corpora.py gatekeeper=/work/ext/gatekeeper-library/src -- --v0-compatible
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.rules.opa import find_opa  # noqa: E402

OPA_ONLY_FLAGS = ("--v0-compatible",)


@dataclass
class Corpus:
    name: str
    paths: list[str]
    flags: list[str] = field(default_factory=list)


@dataclass
class Run:
    cpu: float
    verdicts: dict[tuple[str, str, str], tuple[str, str]]
    stderr: str
    tests: int = 0


def parse_corpus(text: str) -> Corpus:
    spec, _, flags = text.partition(" -- ")
    name, _, paths = spec.partition("=")
    if not paths:
        raise SystemExit(f"{text!r}: expected NAME=PATH[,PATH...][ -- FLAGS]")
    return Corpus(name, paths.split(","), flags.split())


def _verdict(entry: dict[str, Any]) -> tuple[str, str]:
    error = entry.get("error")
    if error:
        first = error[0] if isinstance(error, list) else error
        return "error", f"{first.get('code')}: {str(first.get('message', ''))[:160]}"
    if entry.get("skip"):
        return "skip", ""
    if entry.get("fail"):
        failed = [k for k, v in (entry.get("sub_results") or {}).items() if v.get("fail")]
        return "fail", ("failed cases: " + ", ".join(failed[:5])) if failed else ""
    return "pass", ""


def _key(entry: dict[str, Any], cwd: Path) -> tuple[str, str, str]:
    file = entry["location"]["file"]
    path = Path(file)
    if path.is_absolute():
        file = os.path.relpath(path, cwd)
    return file, entry["package"], entry["name"]


def _timed(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, proc.stdout, proc.stderr


def run_tool(args: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """The tool's verdicts by (file, package, name without ``#NN``): ``opa test``
    numbers a package's duplicate test names in Go map order, which changes from
    run to run, so duplicates are compared as the sorted verdicts of one file."""
    cpu, out, err = _timed(args, cwd, env)
    try:
        entries = json.loads(out) if out.strip() else []
    except json.JSONDecodeError:
        entries = []
        err = out + err
    grouped: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for entry in entries:
        file, package, name = _key(entry, cwd)
        grouped.setdefault((file, package, name.split("#", 1)[0]), []).append(_verdict(entry))
    verdicts = {
        key: found[0] if len(found) == 1 else (" ".join(sorted(v for v, _ in found)), "")
        for key, found in grouped.items()
    }
    return Run(cpu, verdicts, err, len(entries))


def compare(corpus: Corpus, cwd: Path, engine: Path, opa: str) -> dict[str, Any]:
    env = {**os.environ, "REGO_ENGINE_OPA": opa}
    opa_run = run_tool([opa, "test", "--format", "json", *corpus.flags, *corpus.paths], cwd, env)
    ours_flags = [f for f in corpus.flags if f not in OPA_ONLY_FLAGS]
    ours_args = [str(engine), "test", "--format", "json", *ours_flags, *corpus.paths]
    with tempfile.TemporaryDirectory(prefix="corpora-cache-") as cache:
        env["REGO_ENGINE_CACHE"] = cache
        cold = run_tool(ours_args, cwd, env)
        warm = run_tool(ours_args, cwd, env)
    keys = sorted(set(opa_run.verdicts) | set(warm.verdicts))
    absent = ("absent", "")
    pairs = [(k, opa_run.verdicts.get(k, absent), warm.verdicts.get(k, absent)) for k in keys]
    same = [k for k, theirs, ours in pairs if theirs[0] == ours[0]]
    differ = [(k, theirs, ours) for k, theirs, ours in pairs if theirs[0] != ours[0]]
    return {
        "name": corpus.name,
        "tests": opa_run.tests,
        "opa_passes": sum(v[0].split().count("pass") for v in opa_run.verdicts.values()),
        "same": sum(len(opa_run.verdicts[k][0].split()) for k in same),
        "cpu_opa": opa_run.cpu,
        "cpu_cold": cold.cpu,
        "cpu_warm": warm.cpu,
        "differ": differ,
        "engine_stderr": warm.stderr.strip().splitlines()[:10],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="+", help="NAME=PATH[,PATH...][ -- FLAGS]")
    parser.add_argument("--cwd", type=Path, default=Path.cwd(), help="where the paths start")
    parser.add_argument("--engine", type=Path, default=Path(sys.executable).parent / "rego-engine")
    options = parser.parse_args()
    opa = str(find_opa().path)
    rows = [compare(parse_corpus(c), options.cwd, options.engine, opa) for c in options.corpus]
    print("| corpus | tests | `opa test` passes | same verdict | CPU s: opa / cold / warm |")
    print("|---|---:|---:|---:|---|")
    for r in rows:
        share = 100.0 * r["same"] / max(1, r["tests"])
        print(
            f"| {r['name']} | {r['tests']} | {r['opa_passes']} | {r['same']} ({share:.1f}%) "
            f"| {r['cpu_opa']:.1f} / {r['cpu_cold']:.1f} / {r['cpu_warm']:.1f} |"
        )
    for r in rows:
        if r["engine_stderr"]:
            print(f"\n{r['name']}: rego-engine test reported:")
            for line in r["engine_stderr"]:
                print(f"  {line[:200]}")
        if not r["differ"]:
            continue
        print(f"\n{r['name']}: {len(r['differ'])} disagreement(s), by cause")
        causes: dict[tuple[str, str, str], list[str]] = {}
        for (file, package, name), theirs, ours in r["differ"]:
            cause = (f"{theirs[0]} {theirs[1]}".strip(), ours[0], ours[1])
            causes.setdefault(cause, []).append(f"{file} {package}.{name}")
        for (theirs_text, ours_verdict, ours_text), tests in sorted(
            causes.items(), key=lambda item: -len(item[1])
        ):
            print(f"  {len(tests)} test(s): opa test {theirs_text}; ours {ours_verdict}")
            if ours_text:
                print(f"    {ours_text}")
            for test in tests:
                print(f"    - {test}")
    return 1 if any(r["differ"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
