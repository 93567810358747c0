"""Real-world loader parity: public repositories, checked out locally, loaded by this
engine's loaders and by snyk's policy engine, every difference classified.

For each repository given (a directory; its commit is read with ``git rev-parse``
when it is a git checkout), snyk's engine (``$SNYK_PE``, its built binary) runs
``run .`` in the repository with no rules: the results document holds the State of
every input it found. This engine loads the same directory with ``load_inputs``.
Resources are matched by resource type, key and input (its path relative to the
repository: a file, a Terraform module's directory, a Kubernetes object's own
file), and the tool prints, per
repository: resources on both sides, only ours, only snyk's, and of those on both,
how many have equal attributes; then every difference counted by category. A
category marked *deliberate* is a difference docs/inputs.md lists, with the
deploying tool's behaviour as its reason.

Opt-in and never part of CI: ``SNYK_PE=/path/to/policy-engine make realworld
REALWORLD="/path/to/repo ..."`` or ``python bench/realworld.py REPO... [-v]``
(``-v`` lists every differing resource). Nothing is fetched and nothing asserted.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.inputs.discovery import LoadOptions, load_inputs

Identity = tuple[str, str, str]
"""(file relative to the repository, resource type, key)."""

_QUOTED_KEY = re.compile(r'\[("(?:[^"\\]|\\.)*")\]')
MASKED = "******"
DELIBERATE = " (deliberate, docs/inputs.md)"
CLUSTER_SCOPED = "a cluster-scoped kind keyed without 'default.'" + DELIBERATE


@dataclass
class RepositoryTally:
    """What one repository gave."""

    name: str
    commit: str
    both: int = 0
    equal: int = 0
    only_ours: int = 0
    only_snyk: int = 0
    categories: Counter[str] = field(default_factory=Counter)
    details: list[str] = field(default_factory=list)

    @property
    def differing(self) -> int:
        return self.both - self.equal


def commit_of(repository: Path) -> str:
    """The repository's commit, or ``-`` when it is not a git checkout."""
    found = subprocess.run(
        ["git", "-C", str(repository), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return found.stdout.strip() if found.returncode == 0 else "-"


def _relative(path: str, repository: Path) -> str:
    text = path.replace("\\", "/")
    for prefix in (str(repository.resolve()) + "/", str(repository) + "/", "./"):
        text = text.removeprefix(prefix)
    return text.rstrip("/") or "."


def _format_of(state: dict[str, Any]) -> str:
    return str(state.get("input_type", "?"))


def index_states(
    states: Iterable[dict[str, Any]], repository: Path
) -> dict[Identity, tuple[str, dict[str, Any]]]:
    """Every resource of ``states`` by identity, with its input type."""
    found: dict[Identity, tuple[str, dict[str, Any]]] = {}
    for state in states:
        state_file = _relative(str((state.get("meta") or {}).get("filepath", "")), repository)
        for resource_type, by_key in (state.get("resources") or {}).items():
            for key, resource in by_key.items():
                own = (resource.get("meta") or {}).get("filepath")
                where = state_file
                if _format_of(state) == "k8s" and isinstance(own, str):
                    where = _relative(own, repository)  # a directory's State, file by file
                found[(where, resource_type, key)] = (_format_of(state), resource)
    return found


def snyk_states(binary: Path, repository: Path) -> list[dict[str, Any]]:
    """The States snyk's engine loads from the repository (``run .`` without rules)."""
    ran = subprocess.run(
        [str(binary), "run", "."], cwd=repository, capture_output=True, text=True, check=True
    )
    results = json.loads(ran.stdout or "{}").get("results") or []
    return [r["input"] for r in results if isinstance(r.get("input"), dict)]


def our_states(repository: Path) -> tuple[list[dict[str, Any]], set[str]]:
    """The States this engine loads from the repository, and the files it reported
    problems for (relative to the repository)."""
    loaded = load_inputs([repository], LoadOptions())
    problems = {_relative(str(p.path), repository) for p in loaded.problems}
    return [item.state.document for item in loaded.inputs], problems


def snyk_spelling(key: str) -> str:
    """A resource address as snyk spells ``for_each`` instances: ``b["dev"]`` → ``b[dev]``."""
    return _QUOTED_KEY.sub(lambda m: f"[{json.loads(m.group(1))}]", key)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "list", dict: "object"}.get(type(value), type(value).__name__)


def first_difference(ours: Any, theirs: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first path at which two values differ, with both values there (``...`` = absent)."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            found = first_difference(ours.get(key, ...), theirs.get(key, ...), f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if ours == theirs and type(ours) is type(theirs):
        return None
    if _kind(ours) == _kind(theirs) == "number" and ours == theirs:
        return None
    return path or ".", ours, theirs


_META_ARGUMENTS = frozenset({".lifecycle", ".depends_on", ".provisioner", ".connection"})


def category(input_type: str, ours: Any, theirs: Any, path: str = "") -> str:
    """The category of one attribute difference, by what each side gives."""
    if theirs == MASKED:
        return f"{input_type}: snyk masks a sensitive value" + DELIBERATE
    if input_type == "cfn" and isinstance(ours, str) and _names_of(theirs, ours):
        return f"{input_type}: Fn::Sub/Fn::Join give the string they build" + DELIBERATE
    if input_type == "cfn" and isinstance(theirs, dict) and "Fn::GetAtt" in theirs:
        return f"{input_type}: Fn::GetAtt gives the logical id" + DELIBERATE
    if input_type == "cfn" and isinstance(theirs, dict) and len(theirs) == 1:
        (name,) = theirs
        if isinstance(name, str) and name.startswith("Fn::"):
            return f"{input_type}: {name} evaluated (snyk keeps the function)" + DELIBERATE
    if input_type == "tf_hcl" and ours is None and _VARIABLE_NAME.match(str(theirs)):
        return f"{input_type}: a variable whose value is null (snyk: its name)" + DELIBERATE
    if input_type == "tf_hcl" and ours is ... and path in _META_ARGUMENTS:
        return f"{input_type}: the meta-argument {path[1:]} is not an attribute" + DELIBERATE
    if input_type == "cfn" and ours is None and theirs is not ...:
        return f"{input_type}: a value known only at deployment is null" + DELIBERATE
    ours_kind = "absent" if ours is ... else _kind(ours)
    theirs_kind = "absent" if theirs is ... else _kind(theirs)
    return f"{input_type}: ours {ours_kind}, snyk's {theirs_kind}"


_VARIABLE_NAME = re.compile(r"(module\.[^.]+\.)*var\.[A-Za-z0-9_-]+\Z")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(::[A-Za-z0-9]+)*\Z")


def _names_of(theirs: Any, built: str) -> bool:
    """Whether snyk's value looks like the names a ``Fn::Sub``/``Fn::Join`` refers to (a
    logical id, parameter or pseudo parameter name, or a list of them) where this engine
    built a string that is not a bare name."""
    names = theirs if isinstance(theirs, list) else [theirs]
    return (
        bool(names)
        and all(isinstance(n, str) and _NAME.match(n) for n in names)
        and built not in names
        and not _NAME.match(built)
    )


_INSTANCE = re.compile(r"\[[^\[\]]*\]\Z")
INSTANCES = "the instances of a count or for_each differ (Terraform's count and for_each evaluated)"


def _address(identity: Identity) -> Identity:
    """The identity without its instance key (``x[0]``, ``x["a"]`` → ``x``)."""
    file, resource_type, key = identity
    return file, resource_type, _INSTANCE.sub("", snyk_spelling(key))


def _only_snyks(
    input_type: str,
    identity: Identity,
    our_files: set[str],
    our_addresses: set[Identity],
    problems: set[str],
) -> str:
    file = identity[0]
    if any(p == file or p.startswith(file + "/") for p in problems):
        return f"{input_type}: only snyk's, the input has an error here (reported)"
    if file not in our_files:
        return f"{input_type}: only snyk's, the input is not a State of its own here"
    if input_type == "tf_hcl" and (
        _address(identity) in our_addresses or _INSTANCE.search(identity[2])
    ):
        return f"{input_type}: only snyk's, {INSTANCES}"
    return f"{input_type}: only snyk's"


def _only_ours(
    input_type: str, identity: Identity, their_files: set[str], their_addresses: set[Identity]
) -> str:
    file = identity[0]
    if file not in their_files:
        suffix = file.rsplit(".", 1)[-1] if "." in file.rsplit("/", 1)[-1] else "directory"
        return f"{input_type}: only ours, the input ({suffix}) is not read by snyk's engine"
    if input_type == "tf_hcl" and (
        _address(identity) in their_addresses or _INSTANCE.search(identity[2])
    ):
        return f"{input_type}: only ours, {INSTANCES}"
    return f"{input_type}: only ours"


def compare(
    name: str,
    commit: str,
    ours: dict[Identity, tuple[str, dict[str, Any]]],
    theirs: dict[Identity, tuple[str, dict[str, Any]]],
    problems: set[str] = frozenset(),  # type: ignore[assignment]
) -> RepositoryTally:
    """One repository's tally; ``problems``: the files this engine reported errors for."""
    tally = RepositoryTally(name, commit)
    our_files = {f for f, _t, _k in ours}
    their_files = {f for f, _t, _k in theirs}
    our_addresses = {_address(i) for i in ours}
    their_addresses = {_address(i) for i in theirs}
    respelled = {(f, t, snyk_spelling(k)): (f, t, k) for (f, t, k) in ours}
    matched: set[Identity] = set()
    for identity, (input_type, resource) in sorted(theirs.items()):
        mine_identity = identity if identity in ours else respelled.get(identity)
        file, resource_type, key = identity
        unscoped = (file, resource_type, key.removeprefix("default."))
        if mine_identity is None and input_type == "k8s" and unscoped in ours:
            mine_identity = unscoped
            tally.categories[f"{input_type}: {CLUSTER_SCOPED}"] += 1
        if mine_identity is None:
            tally.only_snyk += 1
            kind = _only_snyks(input_type, identity, our_files, our_addresses, problems)
            tally.categories[kind] += 1
            tally.details.append(f"{'/'.join(identity)}: {kind}")
            continue
        matched.add(mine_identity)
        tally.both += 1
        mine = ours[mine_identity][1]
        found = first_difference(mine.get("attributes", {}), resource.get("attributes", {}))
        if found is None:
            tally.equal += 1
            continue
        path, a, b = found
        kind = category(input_type, a, b, path)
        tally.categories[kind] += 1
        tally.details.append(f"{'/'.join(identity)} {path}: {kind}")
    for identity, (input_type, _resource) in sorted(ours.items()):
        if identity not in matched:
            tally.only_ours += 1
            kind = _only_ours(input_type, identity, their_files, their_addresses)
            tally.categories[kind] += 1
            tally.details.append(f"{'/'.join(identity)}: {kind}")
    return tally


def render(tallies: list[RepositoryTally], verbose: bool) -> str:
    """The per-repository table, then the categories of differences."""
    lines = [
        "| repository | commit | both | equal | attribute differences | only ours | only snyk's |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for t in tallies:
        lines.append(
            f"| {t.name} | {t.commit[:12]} | {t.both} | {t.equal} | {t.differing} "
            f"| {t.only_ours} | {t.only_snyk} |"
        )
    for t in tallies:
        if not t.categories:
            continue
        lines.append(f"\n{t.name}: categories")
        for kind, count in sorted(t.categories.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {count:5d}  {kind}")
        if verbose:
            lines.extend(f"         {d}" for d in t.details)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print the table; 2 without snyk's engine or without a repository."""
    repositories = [Path(a) for a in argv if a != "-v"]
    binary = os.environ.get("SNYK_PE", "")
    if not binary or not Path(binary).is_file() or not repositories:
        print(
            "usage: SNYK_PE=/path/to/policy-engine python bench/realworld.py REPO... [-v]\n"
            "(REPO: a local checkout of a public repository; nothing is fetched)",
            file=sys.stderr,
        )
        return 2
    tallies = []
    for repository in repositories:
        theirs = index_states(snyk_states(Path(binary), repository), repository)
        states, problems = our_states(repository)
        ours = index_states(states, repository)
        tallies.append(compare(repository.name, commit_of(repository), ours, theirs, problems))
    print(render(tallies, verbose="-v" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
