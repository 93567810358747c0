"""snyk parity: this engine's rule results against snyk's policy engine golden rule sets.

snyk's policy engine keeps golden rule results in ``test/`` of its checkout,
each the rule results of its rules over ``examples/main.tf`` (its
``test/e2e_test.go`` says which rules): ``examples.json`` (``examples/`` and
``examples/metadata/``), ``fuguerules.json``, ``regression.json``,
``snykrules.json`` (the directories of those names) and ``bundles.json``
(the two bundles of ``pkg/bundle/v1/test_inputs``, run here as rule
directories: snyk's bundle manifest is not read). This tool scans the same
input with the same rules through :func:`engine.scan`, from the ``test/``
directory as snyk's test runs, and compares package by package:

- the rule's metadata (``id``, ``kind``, ``title``, ``description``,
  ``platform``, ``category``, ``labels``, ``service_group``, ``controls``,
  ``references``, ``resource_types``, ``errors``);
- every result, paired by resource (namespace, type, id): ``passed``,
  ``ignored``, ``message``, ``remediation``, ``severity``, ``context``,
  ``resources`` (id, type, namespace, location) and ``graphs``;
- separately, each result's read ``attributes`` (path and location).

The two result models are mapped before comparing: snyk leaves empty fields
out (``omitempty``) where this engine writes ``""``, ``[]`` or null; snyk's
``location`` is a list, this engine's one object; snyk's ``graphs`` is a list
of edge lists, this engine's ``graph`` one edge list; snyk's references are
``{url, title}`` objects, compared by URL (this engine keeps URLs,
docs/compatibility.md); ``rule_bundle`` has no counterpart and is not
compared. Where snyk's result has no ``resources`` (its fugue-style
``policy``, ``allow`` and boolean ``deny`` rules), this engine's single
resource, the result's own, is not compared: the engine reports it with its
location on purpose (docs/compatibility.md), and attributes are then not
compared either. A Terraform input's namespace is its root module directory here and
the file snyk's test names there; results' namespaces are compared after
mapping the first to the second. Paths are compared normalised
(``posixpath.normpath``).

Opt-in: ``SNYK_PE_DIR=<checkout of snyk/policy-engine> make snyk-parity``,
or ``python bench/snyk_parity.py [SNYK_PE_DIR] [-v]`` (``-v`` lists every
difference). Nothing is asserted.
"""

from __future__ import annotations

import json
import os
import posixpath
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine

INPUT = "../examples/main.tf"
"""The input every golden set is scanned over, relative to snyk's ``test/``."""

RULE_FIELDS = (
    "id",
    "kind",
    "title",
    "description",
    "platform",
    "category",
    "labels",
    "service_group",
    "controls",
    "references",
    "resource_types",
    "errors",
)
RESULT_FIELDS = (
    "passed",
    "ignored",
    "message",
    "resource_id",
    "resource_namespace",
    "resource_type",
    "remediation",
    "severity",
    "context",
)
USAGE = (
    "snyk parity needs a checkout of snyk's policy engine:\n"
    "  SNYK_PE_DIR=/path/to/policy-engine make snyk-parity\n"
    "(its golden rule sets are read from $SNYK_PE_DIR/test)"
)


@dataclass(frozen=True)
class GoldenSet:
    """One of snyk's golden rule sets: its file and the rule directories it runs."""

    name: str
    golden: str
    rules: tuple[str, ...]
    whole_document: bool = False
    """Whether the golden file is a whole results document (else one input's rule results)."""


GOLDEN_SETS = (
    GoldenSet("examples", "examples.json", ("../examples/metadata", "../examples"), True),
    GoldenSet("fuguerules", "fuguerules.json", ("fuguerules",)),
    GoldenSet("regression", "regression.json", ("regression",)),
    GoldenSet("snykrules", "snykrules.json", ("snykrules",)),
    GoldenSet(
        "bundles",
        "bundles.json",
        ("../pkg/bundle/v1/test_inputs/complete", "../pkg/bundle/v1/test_inputs/minimal"),
    ),
)


@dataclass
class SetTally:
    """What one golden set's packages gave."""

    packages: int = 0
    equal: int = 0
    differing: int = 0
    missing: int = 0
    attributes_equal: int = 0
    first: dict[str, str] = field(default_factory=dict)
    """Per differing package, its first difference."""
    details: list[str] = field(default_factory=list)
    """Every difference, ``package: what``."""
    attribute_details: list[str] = field(default_factory=list)


def first_difference(path: str, ours: Any, theirs: Any) -> str | None:
    """The first path (``a.b[0]``) at which ``ours`` and ``theirs`` differ, or None."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            where = f"{path}.{key}" if path else key
            if key not in ours:
                return f"{where} missing ({_short(theirs[key])})"
            if key not in theirs:
                return f"{where} extra ({_short(ours[key])})"
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
        return f"{path}: {_short(ours)} != {_short(theirs)}"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _present(doc: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The ``keys`` of ``doc`` that are set: snyk's ``omitempty`` applied to either side."""
    return {k: doc[k] for k in keys if doc.get(k) not in (None, "", [], {})}


def _location(value: Any) -> list[dict[str, Any]]:
    """A resource location as snyk writes it: a list of ``{filepath, line, column}``."""
    items = value if isinstance(value, list) else [value] if value else []
    return [_spot(item) for item in items]


def _spot(item: dict[str, Any]) -> dict[str, Any]:
    spot = {k: item[k] for k in ("line", "column") if item.get(k)}
    if item.get("filepath"):
        spot["filepath"] = posixpath.normpath(item["filepath"])
    return spot


@dataclass(frozen=True)
class Mapping:
    """How this engine's spellings map to snyk's: namespaces."""

    namespaces: dict[str, str]

    def namespace(self, value: str) -> str:
        return posixpath.normpath(self.namespaces.get(value, value)) if value else value


def _node(node: dict[str, Any], mapping: Mapping) -> dict[str, Any]:
    out = _present(node, ("id", "type"))
    if node.get("namespace"):
        out["namespace"] = mapping.namespace(node["namespace"])
    return out


def result_view(
    result: dict[str, Any], mapping: Mapping, ours: bool, own_resource_only: bool = False
) -> dict[str, Any]:
    """A result in the common model, attributes left out. With ``own_resource_only``
    (snyk's result lists no resources), this engine's list of only the result's own
    resource is left out."""
    view = _present(result, RESULT_FIELDS)
    view |= {k: bool(result.get(k)) for k in ("passed", "ignored")}
    if view.get("resource_namespace"):
        view["resource_namespace"] = mapping.namespace(view["resource_namespace"])
    resources = [
        {**_node(r, mapping), "location": _location(r.get("location"))}
        for r in result.get("resources") or []
    ]
    own = {
        "id": view.get("resource_id"),
        "type": view.get("resource_type"),
        "namespace": view.get("resource_namespace"),
    }
    if own_resource_only and [_present(r, ("id", "type", "namespace")) for r in resources] == [
        {k: v for k, v in own.items() if v}
    ]:
        resources = []
    if resources:
        view["resources"] = resources
    graphs = ([result["graph"]] if result.get("graph") else []) if ours else result.get("graphs")
    if graphs:
        view["graphs"] = [
            [
                {
                    "label": e.get("label"),
                    "source": _node(e["source"], mapping),
                    "target": _node(e["target"], mapping),
                }
                for e in graph
            ]
            for graph in graphs
        ]
    return view


def attributes_view(result: dict[str, Any]) -> list[list[Any]]:
    """Each resource's read attributes of a result: ``[path, location]`` pairs."""
    return [
        sorted(
            [a.get("path") or [], _spot(a.get("location") or {})] for a in r.get("attributes") or []
        )
        for r in result.get("resources") or []
    ]


def rule_view(rule: dict[str, Any], ours: bool) -> dict[str, Any]:
    """A package's metadata in the common model."""
    view = _present(rule, RULE_FIELDS)
    if "references" in view and not ours:
        view["references"] = [r["url"] if isinstance(r, dict) else r for r in view["references"]]
    return view


def _identity(result: dict[str, Any], mapping: Mapping) -> tuple[str, str, str]:
    return (
        mapping.namespace(result.get("resource_namespace") or ""),
        result.get("resource_type") or "",
        result.get("resource_id") or "",
    )


def compare_package(
    package: str, ours: dict[str, Any], theirs: dict[str, Any], mapping: Mapping, tally: SetTally
) -> None:
    """Add one package's comparison to ``tally``."""
    differences: list[str] = []
    found = first_difference("", rule_view(ours, True), rule_view(theirs, False))
    if found:
        differences.append(f"metadata {found}")
    unmatched = list(ours.get("results") or [])
    attributes_differ = False
    for result in theirs.get("results") or []:
        key = _identity(result, mapping)
        view = result_view(result, mapping, ours=False)
        bare = not result.get("resources")

        def mapped(mine: dict[str, Any], bare: bool = bare) -> dict[str, Any]:
            return result_view(mine, mapping, ours=True, own_resource_only=bare)

        same_key = [r for r in unmatched if _identity(r, mapping) == key]
        exact = [r for r in same_key if mapped(r) == view]
        mine = (exact or same_key or [None])[0]
        where = "/".join(key[1:])
        if mine is None:
            differences.append(f"result {where} ({_passed(result)}) missing")
            continue
        unmatched.remove(mine)
        if not exact:
            differences.append(f"result {where}: {first_difference('', mapped(mine), view)}")
        if bare:
            continue
        ours_read, theirs_read = attributes_view(mine), attributes_view(result)
        if first_difference("", ours_read, theirs_read):
            attributes_differ = True
            tally.attribute_details.append(
                f"{package} {where}: attributes {_paths(ours_read)} != {_paths(theirs_read)}"
            )
    for extra in unmatched:
        where = "/".join(_identity(extra, mapping)[1:])
        differences.append(f"result {where} ({_passed(extra)}) extra")
    if not attributes_differ:
        tally.attributes_equal += 1
    if differences:
        tally.differing += 1
        tally.first[package] = differences[0]
        tally.details.extend(f"{package}: {d}" for d in differences)
    else:
        tally.equal += 1


def _paths(read: list[list[Any]]) -> str:
    """The attribute paths of an :func:`attributes_view`, per resource, with lines."""
    return json.dumps(
        [[f"{'.'.join(map(str, path))}@{spot.get('line', '?')}" for path, spot in r] for r in read]
    )


def _passed(result: dict[str, Any]) -> str:
    return "passed" if result.get("passed") else "failed"


@contextmanager
def _working_directory(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def our_rule_results(rules: tuple[str, ...]) -> tuple[list[dict[str, Any]], Mapping, list[str]]:
    """This engine's rule results over :data:`INPUT`, the namespace mapping and scan errors."""
    report = engine.scan([Path(INPUT)], [Path(r) for r in rules])
    doc = json.loads(report.to_json())
    inputs = doc.get("results") or []
    rule_results = [rule for item in inputs for rule in item["rule_results"]]
    namespaces = {
        item["input"]["meta"]["filepath"]: INPUT
        for item in inputs
        if item["input"].get("meta", {}).get("filepath")
    }
    return rule_results, Mapping(namespaces), list(doc.get("errors") or [])


def run_set(test_dir: Path, golden: GoldenSet) -> SetTally:
    """One golden set's tally; paths are read relative to snyk's ``test/`` directory."""
    tally = SetTally()
    with _working_directory(test_dir):
        expected = json.loads(Path(golden.golden).read_text())
        if golden.whole_document:
            expected = [rule for item in expected["results"] for rule in item["rule_results"]]
        ours, mapping, errors = our_rule_results(golden.rules)
    tally.details.extend(f"scan error: {e}" for e in errors)
    by_package = {rule.get("package", ""): rule for rule in ours}
    for theirs in expected:
        package = theirs.get("package", "")
        tally.packages += 1
        mine = by_package.pop(package, None)
        if mine is None:
            tally.missing += 1
            tally.first[package] = "package missing"
            tally.details.append(f"{package}: package missing")
            continue
        compare_package(package, mine, theirs, mapping, tally)
    for package in sorted(by_package):
        tally.details.append(f"{package}: package extra")
    return tally


def run(snyk_dir: Path, only: tuple[GoldenSet, ...] = GOLDEN_SETS) -> dict[str, SetTally]:
    """Every golden set's tally."""
    test_dir = snyk_dir / "test"
    return {g.name: run_set(test_dir, g) for g in only if (test_dir / g.golden).is_file()}


def render(tallies: dict[str, SetTally], verbose: bool) -> str:
    """The per-set table (packages equal apart from attributes, and packages and
    results whose attributes are equal), then each differing package's first difference."""
    lines = [
        "| golden set | packages | equal | differing | missing "
        "| attributes equal | results with other attributes |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t in tallies.items():
        lines.append(
            f"| {name} | {t.packages} | {t.equal} | {t.differing} | {t.missing} "
            f"| {t.attributes_equal} | {len(t.attribute_details)} |"
        )
    for name, t in tallies.items():
        if t.first:
            lines.append(f"\n{name}: first difference per package")
            lines.extend(f"  {package}: {what}" for package, what in sorted(t.first.items()))
        if verbose and (t.details or t.attribute_details):
            lines.append(f"\n{name}: every difference")
            lines.extend(f"  {d}" for d in t.details)
            lines.extend(f"  {d}" for d in t.attribute_details)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print the parity table; 2 when no checkout of snyk's policy engine is given."""
    args = [a for a in argv if a != "-v"]
    where = args[0] if args else os.environ.get("SNYK_PE_DIR", "")
    if not where or not (Path(where) / "test" / "examples.json").is_file():
        print(USAGE, file=sys.stderr)
        return 2
    print(render(run(Path(where).resolve()), verbose="-v" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
