"""Result goldens checked against `opa eval`: ``tests/golden/<case>/expected.json``
and the ``rego-engine test --golden`` snapshots in ``tests/golden_cases``.

A golden records, per input State and rule, which resources pass and which
fail. The oracle computes the same from the pinned `opa` (topdown) evaluating
the rules over the pure-Rego test-mode ``snyk`` API and the shipped relations
with the State as input (the module of :mod:`scan_oracle`), one `opa eval` per
case with every State as data. Each judgement becomes a set of (resource type,
resource id, passed) rows:

- a single-resource rule, per resource of its type: ``deny`` non-empty or true
  fails, ``allow`` true passes (undefined fails), otherwise it passes;
- a multi-resource rule: each ``deny`` info fails its ``primary_resource`` or
  ``resource`` (else its ``resource_type``, else the resource of the ``resources``
  info with the same ``correlation``, else the row ``("", "")``); ``deny`` true
  fails ``("", "")``; each ``resources`` info passes its resource unless a
  ``deny`` info with the same correlation (else the same resource and
  ``result_tag``) failed; each ``policy`` entry is its ``type``, the key of the
  resource whose ``id`` it gives, and ``valid``.

Rows are compared per (input, rule); a golden holds an entry for exactly the
rules whose ``input_type`` (as `opa eval` gives it) accepts the State's, as
docs/rules.md states it. Whether a rule is single-resource (its
``resource_type`` other than ``MULTIPLE``) is read from the engine's rule set.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from scan_oracle import oracle_module

from engine.core.paths import REGO_LIB_DIR
from engine.evaluation.evaluator import RuleEvaluator
from engine.rules.compiler import stage_bundle
from engine.rules.opa import find_opa
from engine.rules.rule_set import compile_rule_set, shipped_relations
from engine.rules.sources import PolicySources, RegoFile, load_sources

Row = tuple[str, str, bool]
Judgements = dict[str, dict[str, set[Row]]]
"""Per input file name, per rule package (``data.…``), the judged rows."""

STATES_KEY = "__golden_states"
PARTS = ("multi", "single", "objects")


def golden_judgements(document: dict[str, Any]) -> Judgements:
    """The rows a result golden records."""
    out: Judgements = {}
    for entry in document["results"]:
        per_rule = out.setdefault(entry["input"], {})
        for rule in entry["rule_results"]:
            per_rule[rule["package"]] = {
                (r["resource_type"], r["resource_id"], bool(r["passed"])) for r in rule["results"]
            }
    return out


def _resource(info: Any) -> tuple[str, str] | None:
    if not isinstance(info, dict):
        return None
    resource = info.get("primary_resource") or info.get("resource")
    if isinstance(resource, dict):
        return (str(resource.get("_type", "")), str(resource.get("_id", "")))
    if info.get("resource_type"):
        return (str(info["resource_type"]), "")
    return None


def _correlation(info: Any) -> Any:
    """What ties a ``deny`` info to a ``resources`` info: its ``correlation``, else its
    resource and ``result_tag``."""
    if isinstance(info, dict) and "correlation" in info:
        return ("correlation", json.dumps(info["correlation"], sort_keys=True))
    tag = info.get("result_tag", "") if isinstance(info, dict) else ""
    return ("resource", _resource(info), json.dumps(tag))


def _multi_rows(values: dict[str, Any], objects: dict[str, list[dict[str, Any]]]) -> set[Row]:
    failed: dict[Any, tuple[str, str] | None] = {}
    deny = values.get("deny")
    if deny is True:
        failed[("deny", True)] = None
    elif isinstance(deny, list):
        failed.update((_correlation(info), _resource(info)) for info in deny)
    considered = {_correlation(info): _resource(info) for info in values.get("resources") or []}
    rows: set[Row] = set()
    for key, resource in failed.items():
        resource = resource or considered.get(key) or ("", "")
        rows.add((*resource, False))
    rows |= {(*r, True) for key, r in considered.items() if key not in failed and r}
    for entry in values.get("policy") or []:
        if isinstance(entry, dict):
            rtype, rid = entry.get("type", ""), entry.get("id", "")
            # fugue judges a resource by its id attribute; results name its key
            key = next((o["_id"] for o in objects.get(rtype, []) if o.get("id") == rid), rid)
            rows.add((rtype, key, bool(entry.get("valid"))))
    return rows


def _single_rows(
    judgement: str, resources: list[dict[str, Any]], decided: dict[int, Any]
) -> set[Row]:
    rows: set[Row] = set()
    for index, resource in enumerate(resources):
        value = decided.get(index)
        if judgement == "allow":
            passed = value is True
        else:
            passed = not (value is True or (isinstance(value, list) and value))
        rows.add((resource["_type"], resource["_id"], passed))
    return rows


TF_TYPES = ("tf_hcl", "tf_plan", "tf_state", "cloud_scan")
"""What a rule's ``input_type`` ``tf`` stands for (docs/rules.md)."""


def accepts(rule_type: Any, state_type: Any) -> bool:
    """Whether a rule declaring ``input_type`` ``rule_type`` runs on a State of
    ``state_type``, as docs/rules.md states it."""
    if rule_type is None:
        return True
    return rule_type == state_type or (rule_type == "tf" and state_type in TF_TYPES)


def oracle_judgements(rule_dirs: list[Path], states: dict[str, Any]) -> Judgements:
    """What `opa eval` judges for every rule in ``rule_dirs`` over each State (by name)."""
    sources = load_sources(rule_dirs)
    rule_set = compile_rule_set(sources)
    assert not rule_set.failed, rule_set.failed
    statics = RuleEvaluator(rule_set).statics
    spec = [
        (
            rule.package,
            sorted(rule.names & {"deny", "policy", "allow", "resources", "input_type"}),
            statics[i].single,
        )
        for i, rule in enumerate(rule_set.rules)
    ]
    lib = [REGO_LIB_DIR / "test" / "snyk.rego", REGO_LIB_DIR / "fugue.rego"]
    files = [RegoFile(p, p.name, p.read_text(), 1) for p in lib] + shipped_relations()
    module = oracle_module(spec) + "".join(
        f"\nby_state_{part}[name] := value if {{\n"
        f"\tsome name, state in data.{STATES_KEY}\n"
        f"\tvalue := data.__oracle.{part} with input as state\n}}\n"
        for part in ("multi", "single", "objects")
    )
    files.append(RegoFile(Path("oracle.rego"), "oracle.rego", module, 1))
    staged = PolicySources([*sources.rego_files, *files], sources.data, sources.data_files)
    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp) / "bundle"
        bundle.mkdir()
        stage_bundle(staged, bundle)
        # The bundle owns every data root: the States go into its data document.
        data_file = bundle / "data.json"
        data_file.write_text(json.dumps({**json.loads(data_file.read_text()), STATES_KEY: states}))
        command = [str(find_opa().path), "eval", "-b", str(bundle)]
        command += ["--format", "json", "data.__oracle"]
        proc = subprocess.run(command, capture_output=True, check=True)
    value = json.loads(proc.stdout)["result"][0]["expressions"][0]["value"]
    out: Judgements = {}
    for name in states:
        doc = {part: value.get(f"by_state_{part}", {}).get(name, {}) for part in PARTS}
        per_rule = out.setdefault(name, {})
        state_type = states[name].get("input_type")
        for i, rule in enumerate(rule_set.rules):
            key = f"data.{rule.package}"
            if not accepts(doc["multi"].get(rule.package, {}).get("input_type"), state_type):
                continue
            if statics[i].single:
                judgement = next(j for j in ("deny", "policy", "allow") if j in rule.names)
                resources = doc["objects"].get(statics[i].resource_type, [])
                decided = dict(doc["single"].get(rule.package, []))
                per_rule[key] = _single_rows(judgement, resources, decided)
            else:
                per_rule[key] = _multi_rows(doc["multi"].get(rule.package, {}), doc["objects"])
    return out


def differences(golden: str, recorded: Judgements, oracle: Judgements) -> list[str]:
    """Each (input, rule) where the golden's rows differ from the oracle's, as text."""
    found = []
    for input_name, per_rule in sorted(oracle.items()):
        found += [
            f"{golden}: {input_name} {package}: the rule accepts this input but has no entry"
            for package in sorted(set(per_rule) - set(recorded.get(input_name, {})))
        ]
    for input_name, per_rule in sorted(recorded.items()):
        for package, rows in sorted(per_rule.items()):
            want = oracle.get(input_name, {}).get(package)
            if want is None:
                found.append(
                    f"{golden}: {input_name} {package}: an entry for a rule that does not"
                    " accept this input (or is unknown)"
                )
            elif rows != want:
                only_golden = sorted(rows - want)
                only_oracle = sorted(want - rows)
                found.append(
                    f"{golden}: {input_name} {package}: golden has {only_golden},"
                    f" opa eval has {only_oracle}"
                )
    return found
