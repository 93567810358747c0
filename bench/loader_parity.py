"""Loader parity: this engine's States against snyk's policy engine loader goldens.

snyk's policy engine keeps, per format, golden cases under
``pkg/input/golden_test/<format>/``: an input (a directory holding one file,
or a Terraform module / Kubernetes directory) and beside it ``<case>.json``,
the State snyk's loader produces. This tool loads every case input with
``load_inputs`` and compares each of snyk's resources with ours on key, id,
resource type and attributes, then prints one row per format: resources,
equal, deliberate, differing and refused (the case input gave no State),
followed by the causes of the differences (the first differing attribute path
of each resource, counted). A resource is deliberate when it differs only by
a difference listed in docs/inputs.md: a ``for_each`` key spelled as
Terraform writes it (``b["dev"]``, snyk ``b[dev]``; in the key, the id and
attribute values that are such keys), a cluster-scoped Kubernetes object
keyed without ``default.``, or a value snyk masks as ``"******"`` kept as
written. A last column counts the resources whose snyk-specific meta
(``meta.terraform``, ``meta.tfplan``, ``meta.tfstate``, ``meta.arm``) is equal
to ours.

Opt-in: ``SNYK_PE_DIR=<checkout of snyk/policy-engine> make loader-parity``,
or ``python bench/loader_parity.py [SNYK_PE_DIR] [-v]`` (``-v`` lists every
differing resource). Nothing is asserted.

With ``--examples BINARY`` (``SNYK_PE=<built policy-engine> make
loader-parity-examples``) the same comparison runs over this repository's
``examples/`` inputs instead, against the States snyk's engine itself prints:
``policy-engine fixture <input>`` writes the State as a Rego object, which the
pinned ``opa`` evaluates to JSON.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.inputs.discovery import load_inputs
from engine.rules.opa import find_opa

FORMATS = ("arm", "cfn", "k8s", "tf", "tfplan", "tfstate")
META_KEYS = ("terraform", "tfplan", "tfstate", "arm")
DELIBERATE = " (deliberate, docs/inputs.md)"
CLUSTER_SCOPED = "keyed without 'default.': a cluster-scoped kind" + DELIBERATE
FOR_EACH_KEY = 'for_each key spelled as Terraform writes it (["dev"])' + DELIBERATE
SENSITIVE = "sensitive value kept as written" + DELIBERATE
GET_ATT = "Fn::GetAtt of an attribute other than Arn gives the logical id" + DELIBERATE
SUB_JOIN = "Fn::Sub/Fn::Join give the string they build" + DELIBERATE
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(::[A-Za-z0-9]+)*\Z")
MASKED = "******"
"""How snyk's loaders write a sensitive value."""
_QUOTED_KEY = re.compile(r'\[("(?:[^"\\]|\\.)*")\]')
USAGE = (
    "loader parity needs a checkout of snyk's policy engine:\n"
    "  SNYK_PE_DIR=/path/to/policy-engine make loader-parity\n"
    "(its loader goldens are read from $SNYK_PE_DIR/pkg/input/golden_test)"
)


@dataclass
class FormatTally:
    """What one format's cases gave."""

    resources: int = 0
    equal: int = 0
    deliberate: int = 0
    differing: int = 0
    refused: int = 0
    meta_equal: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    details: list[str] = field(default_factory=list)


def first_difference(path: str, ours: Any, theirs: Any) -> str | None:
    """The first path (``a.b[0]``) at which ``ours`` and ``theirs`` differ, or None."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            where = f"{path}.{key}" if path else key
            if key not in ours:
                return f"{where} missing"
            if key not in theirs:
                return f"{where} extra"
            found = first_difference(where, ours[key], theirs[key])
            if found:
                return found
        return None
    if isinstance(ours, list) and isinstance(theirs, list):
        if len(ours) != len(theirs):
            return f"{path} length {len(ours)} != {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            found = first_difference(f"{path}[{i}]", a, b)
            if found:
                return found
        return None
    if type(ours) is not type(theirs) or ours != theirs:
        return f"{path} value"
    return None


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_INPUTS = (
    ("tf", "terraform"),
    ("tfplan", "terraform-plan/plan.json"),
    ("cfn", "cloudformation/api.yaml"),
    ("k8s", "kubernetes/ops.yaml"),
    ("k8s", "kubernetes/web.yaml"),
    ("k8s", "kubernetes/worker.yaml"),
)
"""Each ``examples/`` input with its format, as snyk's ``fixture`` command takes
it (a file, or the Terraform directory)."""


def _case_path(case: Path) -> Path:
    """The input snyk's golden test loads: the only file of the case, else the directory."""
    if case.is_file():
        return case
    children = sorted(case.iterdir())
    return children[0] if len(children) == 1 and children[0].is_file() else case


def _our_resources(case: Path) -> dict[str, dict[str, dict[str, Any]]] | None:
    """Our resources of a case by type, then key (every State of the case merged), None if
    refused."""
    loaded = load_inputs([_case_path(case)])
    if not loaded.inputs:
        return None
    ours: dict[str, dict[str, dict[str, Any]]] = {}
    for item in loaded.inputs:
        for resource_type, by_key in item.state.document.get("resources", {}).items():
            ours.setdefault(resource_type, {}).update(by_key)
    return ours


def snyk_spelling(key: str) -> str:
    """A resource address as snyk spells for_each instances: ``b["dev"]`` → ``b[dev]``."""
    return _QUOTED_KEY.sub(lambda m: f"[{json.loads(m.group(1))}]", key)


def _respelled(resource: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    """Our resource with its id, and attribute values that are keys of ours, as snyk
    spells them."""

    def spell(value: Any) -> Any:
        if isinstance(value, str) and value in keys:
            return snyk_spelling(value)
        if isinstance(value, list):
            return [spell(v) for v in value]
        if isinstance(value, dict):
            return {k: spell(v) for k, v in value.items()}
        return value

    return {
        **resource,
        "id": snyk_spelling(str(resource.get("id"))),
        "attributes": spell(resource.get("attributes", {})),
    }


def _get_att_names(theirs: Any) -> Any:
    """snyk's value with each ``{"Fn::GetAtt": [name, attribute]}`` kept as ``name``, as
    this engine gives it."""
    if isinstance(theirs, dict):
        found = theirs.get("Fn::GetAtt")
        if len(theirs) == 1 and isinstance(found, list) and found and isinstance(found[0], str):
            return found[0]
        return {k: _get_att_names(v) for k, v in theirs.items()}
    if isinstance(theirs, list):
        return [_get_att_names(v) for v in theirs]
    return theirs


def _built_strings(ours: Any, theirs: Any) -> Any:
    """snyk's value with each name (or list of names) a ``Fn::Sub``/``Fn::Join`` refers
    to replaced by the string this engine built there."""
    if isinstance(ours, str) and ours != theirs and not _NAME.match(ours):
        names = theirs if isinstance(theirs, list) else [theirs]
        if names and all(isinstance(n, str) and _NAME.match(n) for n in names):
            return ours
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return {k: _built_strings(ours[k], v) if k in ours else v for k, v in theirs.items()}
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        return [_built_strings(a, b) for a, b in zip(ours, theirs, strict=True)]
    return theirs


def _masked(ours: Any, theirs: Any) -> Any:
    """``ours`` with every value snyk writes as ``"******"`` masked the same way."""
    if theirs == MASKED:
        return MASKED
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return {k: _masked(v, theirs[k]) if k in theirs else v for k, v in ours.items()}
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        return [_masked(a, b) for a, b in zip(ours, theirs, strict=True)]
    return ours


def _matching(
    key: str, ours: dict[str, dict[str, Any]], respelled: dict[str, str], keys: set[str]
) -> tuple[dict[str, Any] | None, list[str]]:
    """Our resource for snyk's ``key`` and the deliberate differences that match them."""
    if key in ours:
        return ours[key], []
    if key.startswith("default.") and key[len("default.") :] in ours:
        return ours[key[len("default.") :]], [CLUSTER_SCOPED]
    if key in respelled:
        return _respelled(ours[respelled[key]], keys), [FOR_EACH_KEY]
    return None, []


def compare_case(case: Path, expected: dict[str, Any], tally: FormatTally) -> None:
    """Add one golden case's resources to ``tally``."""
    theirs = [
        (resource_type, key, resource)
        for resource_type, by_key in expected.get("resources", {}).items()
        for key, resource in by_key.items()
    ]
    tally.resources += len(theirs)
    by_type = _our_resources(case)
    if by_type is None:
        empty = not any(p.is_file() for p in case.rglob("*"))
        why = "refused: the case has no input files in this checkout" if empty else "refused"
        tally.refused += len(theirs)
        tally.causes[why] += len(theirs)
        tally.details.append(f"{case.name}: {why}")
        return
    every_type = {key: r for by_key in by_type.values() for key, r in by_key.items()}
    keys = set(every_type)
    for resource_type, key, resource in theirs:
        # Keys are unique within a type (a Kubernetes Service and Deployment may share one);
        # a key found only under another type shows as a resource_type difference.
        ours = by_type.get(resource_type, {})
        if not _matching(key, ours, _respellings(ours), keys)[0]:
            ours = every_type
        mine, deliberate = _matching(key, ours, _respellings(ours), keys)
        if _snyk_meta(mine) == _snyk_meta(resource):
            tally.meta_equal += 1
        cause = _resource_difference(mine, resource)
        if cause is not None and mine is not None:
            masked = {
                **mine,
                "attributes": _masked(mine.get("attributes"), resource.get("attributes")),
            }
            if _resource_difference(masked, resource) is None:
                cause, deliberate = None, [*deliberate, SENSITIVE]
            named = {**resource, "attributes": _get_att_names(resource.get("attributes"))}
            if cause is not None and _resource_difference(mine, named) is None:
                cause, deliberate = None, [*deliberate, GET_ATT]
            built = {
                **named,
                "attributes": _built_strings(mine.get("attributes"), named.get("attributes")),
            }
            if cause is not None and _resource_difference(mine, built) is None:
                cause, deliberate = None, [*deliberate, SUB_JOIN]
        if cause is None and not deliberate:
            tally.equal += 1
            continue
        if cause is None:
            tally.deliberate += 1
            cause = "; ".join(deliberate)
        else:
            tally.differing += 1
        tally.causes[cause] += 1
        tally.details.append(f"{case.name} {key}: {cause}")


def _respellings(ours: dict[str, Any]) -> dict[str, str]:
    """Our keys by their snyk spelling, for the keys that differ."""
    return {snyk_spelling(k): k for k in ours if snyk_spelling(k) != k}


def _snyk_meta(resource: dict[str, Any] | None) -> dict[str, Any] | None:
    """The meta keys snyk's loaders write, of a resource (None when missing)."""
    if resource is None:
        return None
    meta = resource.get("meta") or {}
    return {k: meta[k] for k in META_KEYS if k in meta}


def _resource_difference(ours: dict[str, Any] | None, theirs: dict[str, Any]) -> str | None:
    """Why our resource differs from snyk's (key, id, type, attributes), or None."""
    if ours is None:
        return "key missing"
    if ours.get("id") != theirs.get("id"):
        return "id"
    if ours.get("resource_type") != theirs.get("resource_type"):
        return "resource_type"
    found = first_difference("", ours.get("attributes", {}), theirs.get("attributes", {}))
    return None if found is None else f"attributes: {found}"


def run(snyk_dir: Path) -> dict[str, FormatTally]:
    """Every format's tally over snyk's goldens."""
    goldens = snyk_dir / "pkg" / "input" / "golden_test"
    tallies: dict[str, FormatTally] = {}
    for fmt in FORMATS:
        tally = tallies[fmt] = FormatTally()
        for case in sorted(p for p in (goldens / fmt).iterdir() if p.is_dir()):
            expected = json.loads(case.with_name(case.name + ".json").read_text())
            compare_case(case, expected, tally)
    return tallies


def snyk_state(binary: Path, path: Path) -> dict[str, Any]:
    """The State snyk's engine gives ``path``: its ``fixture`` output evaluated by ``opa``."""
    fixture = subprocess.run(
        [str(binary), "fixture", path.name],
        cwd=path.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    package = fixture.splitlines()[0].removeprefix("package ").strip()
    with tempfile.TemporaryDirectory() as scratch:
        module = Path(scratch) / "fixture.rego"
        module.write_text(fixture)
        evaluated = subprocess.run(
            [
                *(str(find_opa().path), "eval", "--v0-compatible", "--format", "json"),
                *("-d", str(module), f"data.{package}.mock_input"),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return json.loads(evaluated)["result"][0]["expressions"][0]["value"]


def run_examples(binary: Path) -> dict[str, FormatTally]:
    """Every format's tally over ``examples/`` against the States snyk's engine prints."""
    tallies: dict[str, FormatTally] = {}
    for fmt, relative in EXAMPLE_INPUTS:
        tally = tallies.setdefault(fmt, FormatTally())
        path = EXAMPLES / relative
        compare_case(path, snyk_state(binary, path), tally)
    return tallies


def render(tallies: dict[str, FormatTally], verbose: bool) -> str:
    """The per-format table, then the causes of differences."""
    lines = [
        "| format | resources | equal | deliberate | differing | refused | meta equal |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for fmt, t in tallies.items():
        lines.append(
            f"| {fmt} | {t.resources} | {t.equal} | {t.deliberate} | {t.differing} | {t.refused} "
            f"| {t.meta_equal} |"
        )
    for fmt, t in tallies.items():
        if not t.causes:
            continue
        lines.append(f"\n{fmt}: causes")
        for cause, count in sorted(t.causes.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {count:4d}  {cause}")
        if verbose:
            lines.extend(f"        {d}" for d in t.details)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print the parity table; 2 when no checkout of snyk's policy engine is given."""
    args = [a for a in argv if a != "-v"]
    if args[:1] == ["--examples"]:
        binary = args[1] if len(args) > 1 else os.environ.get("SNYK_PE", "")
        if not binary or not Path(binary).is_file():
            print("--examples needs snyk's policy-engine binary (SNYK_PE=...)", file=sys.stderr)
            return 2
        print(render(run_examples(Path(binary)), verbose="-v" in argv))
        return 0
    where = args[0] if args else os.environ.get("SNYK_PE_DIR", "")
    if not where or not (Path(where) / "pkg" / "input" / "golden_test").is_dir():
        print(USAGE, file=sys.stderr)
        return 2
    print(render(run(Path(where)), verbose="-v" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
