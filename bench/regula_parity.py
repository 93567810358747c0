"""Regula parity: ``scan`` with regula's rules and library against ``regula run``.

regula keeps example inputs for its rules under ``rego/tests/**/inputs/``
(Terraform ``.tf`` and plan ``.json``, CloudFormation and Kubernetes
``.yaml``, ARM ``.json``). This tool runs ``regula run --format json`` over
every one of them (regula's embedded rules) and ``rego-engine scan -d
rego/lib -d rego/rules --format json`` over the same files, both from
``rego/tests``, then compares rule by rule: for every result, the rule, the
file, the resource type and id (Kubernetes ids as regula writes them,
``Kind.namespace.name``), pass or fail, and the message. It prints one line
per rule (equal, or differing with the first difference) and a summary.

regula loads a ``.tf`` file named on its command line on its own, this
engine loads the module directory it sits in; so each ``.tf`` file is
scanned here from a directory of its own and its results are reported under
its original path.

Opt-in: ``make compat REGULA_DIR=<checkout of fugue/regula>
REGULA_BIN=<regula binary>``, or ``python bench/regula_parity.py REGULA_DIR
REGULA_BIN [-v]`` (``-v`` lists every difference). Nothing is asserted; the
exit code is 1 when a rule differs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SUFFIXES = (".tf", ".yaml", ".yml", ".json")
USAGE = (
    "regula parity needs a checkout of regula and a regula binary built from it:\n"
    "  make compat REGULA_DIR=/path/to/regula REGULA_BIN=/path/to/regula-binary"
)

Key = tuple[str, str, str]
"""A result's file, resource type and resource id."""
Verdict = tuple[str, tuple[str, ...]]
"""PASS, FAIL or WAIVED, and the messages (sorted)."""


@dataclass
class RuleOutcome:
    """The results one rule gave under each engine, by resource."""

    rule_id: str
    regula: dict[Key, Verdict] = field(default_factory=dict)
    ours: dict[Key, Verdict] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def differences(self) -> list[str]:
        """Every difference, in key order."""
        lines = [f"error: {e}" for e in self.errors]
        for key in sorted(set(self.regula) | set(self.ours)):
            theirs, ours = self.regula.get(key), self.ours.get(key)
            if theirs != ours:
                where = " ".join(key)
                lines.append(f"{where}: regula {_shown(theirs)}, rego-engine {_shown(ours)}")
        return lines


def _shown(verdict: Verdict | None) -> str:
    if verdict is None:
        return "no result"
    result, messages = verdict
    return f"{result} {' / '.join(messages)!r}" if messages else result


def example_inputs(tests_dir: Path) -> list[str]:
    """regula's example inputs: files under an ``inputs`` directory, relative to ``tests_dir``."""
    found = [
        p.relative_to(tests_dir).as_posix()
        for p in tests_dir.rglob("*")
        if p.is_file() and p.suffix in SUFFIXES and "inputs" in p.relative_to(tests_dir).parts
    ]
    return sorted(found)


def run_regula(binary: Path, tests_dir: Path, inputs: list[str]) -> list[dict[str, Any]]:
    """``regula run --format json`` over the inputs: its rule results."""
    done = subprocess.run(
        [str(binary), "run", "--format", "json", *inputs],
        cwd=tests_dir,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"regula run failed ({done.returncode}): {done.stderr.strip()}")
    results: list[dict[str, Any]] = json.loads(done.stdout)["rule_results"]
    return results


def run_engine(
    rego_dir: Path, tests_dir: Path, inputs: list[str], stage: Path
) -> tuple[dict[str, Any], dict[str, str], str]:
    """``rego-engine scan`` over the inputs, each ``.tf`` file from a directory of
    its own: the results document, the staged directories by original path, stderr."""
    staged: dict[str, str] = {}
    paths: list[str] = []
    for n, name in enumerate(inputs):
        if name.endswith(".tf"):
            directory = stage / str(n)
            directory.mkdir()
            shutil.copy(tests_dir / name, directory / Path(name).name)
            staged[str(directory)] = name
            paths.append(str(directory))
        else:
            paths.append(name)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "scan",
            "-d",
            str(rego_dir / "lib"),
            "-d",
            str(rego_dir / "rules"),
            "--format",
            "json",
            "--split-k8s",
            *paths,
        ],
        cwd=tests_dir,
        capture_output=True,
        text=True,
        check=False,
    )
    if not done.stdout:
        raise SystemExit(f"rego-engine scan failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout), staged, done.stderr


def regula_outcomes(results: Iterable[dict[str, Any]]) -> dict[str, RuleOutcome]:
    """regula's results by rule id (its rule name when it has no id)."""
    rules: dict[str, RuleOutcome] = {}
    for r in results:
        rule_id = r["rule_id"] or r["rule_name"]
        outcome = rules.setdefault(rule_id, RuleOutcome(rule_id))
        key = (r["filepath"], r["resource_type"], r["resource_id"])
        # regula gives one result per message of a resource; this engine (as snyk's
        # does) one result whose message joins them.
        result, messages = outcome.regula.get(key, (r["rule_result"], ()))
        message = (r["rule_message"] or "",) if r["rule_message"] else ()
        outcome.regula[key] = (result, tuple(sorted(messages + message)))
    return rules


def engine_key(state: dict[str, Any], result: dict[str, Any], staged: dict[str, str]) -> Key:
    """A result of ours named as regula names it."""
    filepath = state["meta"]["filepath"]
    filepath = staged.get(filepath, filepath)
    resource_id, resource_type = result["resource_id"], result["resource_type"]
    if state["input_type"] == "k8s" and resource_id:
        namespace = result["resource_namespace"] or "default"
        resource_id = f"{resource_type}.{namespace}.{resource_id}"
    return (filepath, resource_type, resource_id)


def add_engine_outcomes(
    rules: dict[str, RuleOutcome], document: dict[str, Any], staged: dict[str, str]
) -> None:
    """Add our results (and rule errors) to ``rules``."""
    for entry in document["results"]:
        state = entry["input"]
        for rule in entry["rule_results"]:
            rule_id = rule["id"] or rule["package"].rsplit(".", 1)[-1]
            outcome = rules.setdefault(rule_id, RuleOutcome(rule_id))
            where = staged.get(state["meta"]["filepath"], state["meta"]["filepath"])
            outcome.errors += [f"{where}: {e}" for e in rule["errors"]]
            for result in rule["results"]:
                verdict = "WAIVED" if result["ignored"] else "PASS" if result["passed"] else "FAIL"
                key = engine_key(state, result, staged)
                messages = result["message"].split("\n\n") if result["message"] else []
                outcome.ours[key] = (verdict, tuple(sorted(messages)))


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    if len(args) != 2 or not args[0] or not args[1]:
        print(USAGE, file=sys.stderr)
        return 2
    regula_dir, binary = Path(args[0]).resolve(), Path(args[1]).resolve()
    rego_dir, tests_dir = regula_dir / "rego", regula_dir / "rego" / "tests"
    if not tests_dir.is_dir() or not binary.is_file():
        print(USAGE, file=sys.stderr)
        return 2
    inputs = example_inputs(tests_dir)
    rules = regula_outcomes(run_regula(binary, tests_dir, inputs))
    with tempfile.TemporaryDirectory(prefix="regula-parity-") as stage:
        document, staged, stderr = run_engine(rego_dir, tests_dir, inputs, Path(stage))
    add_engine_outcomes(rules, document, staged)
    # A rule that gave no result under either engine is not compared.
    compared = [rules[k] for k in sorted(rules) if rules[k].regula or rules[k].ours]
    differing = 0
    for outcome in compared:
        differences = outcome.differences()
        count = len(set(outcome.regula) | set(outcome.ours))
        if not differences:
            print(f"equal      {outcome.rule_id}  ({count} results)")
            continue
        differing += 1
        print(f"differing  {outcome.rule_id}  ({len(differences)} of {count}): {differences[0]}")
        if verbose:
            for line in differences[1:]:
                print(f"           {line}")
    regula_results = sum(len(o.regula) for o in compared)
    equal_results = sum(
        1 for o in compared for k, v in o.regula.items() if o.ours.get(k) == v and not o.errors
    )
    print(
        f"\n{len(inputs)} inputs; {len(compared)} rules: {len(compared) - differing} equal, "
        f"{differing} differing; regula results: {regula_results}, "
        f"{equal_results} equal under rego-engine"
    )
    if stderr.strip() and verbose:
        print(f"\nrego-engine stderr:\n{stderr.strip()}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
