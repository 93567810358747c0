"""Change policies: Rego packages under ``changes.`` that judge a change set.

A change policy defines ``risk[info]`` (``{"change": c, "level":
"low"|"medium"|"high", "message": ...}``) and/or ``decision[info]``
(``{"change": c, "decision": "approve"|"reject", "message": ...}``), where
``c`` is one of ``input.changes`` (or its ``id``). ``input`` is the change set
(``{"changes": [...], "old": ..., "new": ...}``); the ``snyk`` API answers over
the new input, relations included. All policies compile into one Wasm module
with the shipped library, exactly as rules do, and each is evaluated once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.inputs.state import State
from engine.relations.snyk_api import RelationSetup, RelationsUnavailable, SnykApi
from engine.rules.compiler import CompiledPolicy, CompileError, compile_policy
from engine.rules.rego_outline import outline
from engine.rules.rule_set import (
    DISPATCH_FILE,
    RELATIONS_ENTRYPOINT,
    data_ref,
    dispatch_module,
    relation_files,
    shipped_relations_named,
    user_literals,
    with_shipped_library,
)
from engine.rules.sources import PolicySources, RegoFile, SourceError, load_sources
from engine.wasm import values
from engine.wasm.host import EvalError, Limits, PolicyInstance

CHANGES_ROOT = "changes"
VERDICTS = ("risk", "decision")
RISK_LEVELS = ("low", "medium", "high")
DECISIONS = ("approve", "reject")
CHANGES_PACKAGE = "__rego_engine.changes"
CHANGE_SET_KEY = "__rego_engine_change_set"
_CHANGES_FILE = "<change policy dispatch>"


@dataclass(frozen=True)
class Verdict:
    """One risk or decision a policy gave one change."""

    policy: str
    kind: str
    """``risk`` or ``decision``."""
    value: str
    """The level (``low``/``medium``/``high``) or the decision (``approve``/``reject``)."""
    message: str = ""

    def to_dict(self) -> dict[str, str]:
        """The verdict as JSON."""
        return {"policy": self.policy, self.kind: self.value, "message": self.message}


@dataclass
class PolicyVerdicts:
    """Every verdict by change id, and the problems met."""

    by_change: dict[str, list[Verdict]] = field(default_factory=dict)
    policies: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def discover(files: list[RegoFile]) -> dict[str, set[str]]:
    """Change policy packages → which of ``risk``/``decision`` they define."""
    found: dict[str, set[str]] = {}
    for file in files:
        shape = outline(file.text)
        package = shape.package
        if package is None or not package.startswith(CHANGES_ROOT + "."):
            continue
        found.setdefault(package, set()).update(v for v in VERDICTS if v in shape.rules)
    return {p: v for p, v in sorted(found.items()) if v}


def _entrypoint(index: int) -> str:
    return f"{CHANGES_PACKAGE.replace('.', '/')}/c{index}"


def changes_module(policies: dict[str, set[str]]) -> str:
    """The generated module giving each policy one entrypoint: its verdicts as
    arrays, evaluated with the change set as ``input``."""
    lines = [f"package {CHANGES_PACKAGE}", "", "import rego.v1", ""]
    lines.append("_array(x) := [y | some y in x]")
    for i, (package, verdicts) in enumerate(policies.items()):
        ref = data_ref(package.split("."))
        fields = ", ".join(f'"{v}": _array({ref}.{v})' for v in sorted(verdicts))
        lines += [
            "",
            f"c{i} := out if {{",
            f"\tout := {{{fields}}} with input as data.{CHANGE_SET_KEY}",
            "}",
        ]
    return "\n".join(lines) + "\n"


def _change_id(change: Any) -> str | None:
    if isinstance(change, str):
        return change
    if isinstance(change, dict) and isinstance(change.get("id"), str):
        return change["id"]
    return None


def _read_verdicts(
    package: str, found: dict[str, Any], known: set[str], out: PolicyVerdicts
) -> None:
    for kind, allowed, key in (("risk", RISK_LEVELS, "level"), ("decision", DECISIONS, "decision")):
        for info in found.get(kind, []):
            change = _change_id(info.get("change")) if isinstance(info, dict) else None
            value = info.get(key) if isinstance(info, dict) else None
            if change is None or change not in known:
                out.errors.append(f"{package}: a {kind} names no change of the set: {info!r}")
                continue
            if not isinstance(value, str) or value not in allowed:
                out.errors.append(
                    f"{package}: {kind} {key} must be one of {', '.join(allowed)}, found {value!r}"
                )
                continue
            message = info.get("message", "")
            out.by_change.setdefault(change, []).append(
                Verdict(package, kind, value, message if isinstance(message, str) else str(message))
            )


def _compile_policies(full: PolicySources, policies: dict[str, set[str]]) -> CompiledPolicy:
    """The module of ``policies`` with the dispatch and change modules beside ``full``."""
    attempt = PolicySources(
        rego_files=[
            *full.rego_files,
            RegoFile(Path(DISPATCH_FILE), DISPATCH_FILE, dispatch_module([]), 1),
            RegoFile(Path(_CHANGES_FILE), _CHANGES_FILE, changes_module(policies), 1),
        ],
        data=full.data,
        data_files=full.data_files,
    )
    entrypoints = [RELATIONS_ENTRYPOINT] + [_entrypoint(i) for i in range(len(policies))]
    return compile_policy(attempt, entrypoints)


def evaluate_policies(
    rule_paths: list[Path],
    change_set: dict[str, Any],
    new_state: State,
    limits: Limits | None = None,
) -> PolicyVerdicts:
    """Every change policy below ``rule_paths`` evaluated over ``change_set``,
    with the API over ``new_state``."""
    out = PolicyVerdicts()
    source_errors: list[SourceError] = []
    sources = load_sources(rule_paths, on_error=source_errors.append)
    out.errors += [f"{e} (skipped)" for e in source_errors]
    full, _ = with_shipped_library(sources)
    policies = discover(full.rego_files)
    out.policies = list(policies)
    if not policies:
        out.errors.append(
            "no change policies found: a change policy is a package under changes. "
            f"that defines risk or decision (searched {', '.join(map(str, rule_paths))})"
        )
        return out
    try:
        policy = _compile_policies(full, policies)
    except CompileError as exc:
        out.errors += [str(m) for m in exc.errors]
        return out
    # Like a scan, resolve only the shipped and derived relations (and supertypes)
    # that the policies name literally.
    shipped = {f.display for f in full.rego_files if f.display.startswith("<shipped>/")}
    api = SnykApi(
        RelationSetup(
            RELATIONS_ENTRYPOINT,
            relation_files(full.rego_files),
            shipped_relations_named(full.rego_files, shipped),
            user_literals(full.rego_files, shipped),
        )
    )
    api.input_document = False
    limits = limits or Limits()

    def fresh() -> PolicyInstance:
        instance = PolicyInstance(policy, limits=limits, custom=api.handlers())
        try:
            api.load(instance, new_state)
        except RelationsUnavailable:
            instance = PolicyInstance(policy, limits=limits, custom=api.handlers())
            api.load(instance, new_state)
        (changes,) = instance.extend_input([values.dumps(change_set, finite=True)])
        instance.set_data(api.data_addr, {(CHANGE_SET_KEY,): changes})
        return instance

    try:
        instance = fresh()
    except (EvalError, values.ValueError_) as exc:
        out.errors.append(f"cannot load the new input: {exc}")
        return out
    if api.relations is not None:
        out.errors += [str(p) for p in api.relations.problems]
    known = {c["id"] for c in change_set["changes"]}
    for i, package in enumerate(policies):
        try:
            found = instance.evaluate(_entrypoint(i))
        except EvalError as exc:
            out.errors.append(f"{package}: {exc}")
            instance = fresh()
            continue
        _read_verdicts(package, found[0] if found else {}, known, out)
    for verdicts in out.by_change.values():
        verdicts.sort(key=lambda v: (v.kind, v.policy, v.value, v.message))
    return out
