"""Judgements made comparable, and the module that asks `opa eval` for them (the scan oracle)."""

from __future__ import annotations

import json
from typing import Any

from engine.rules.rule_set import data_ref
from engine.wasm import values

RESOURCE_FIELDS = ("resource", "primary_resource")


def _ref(resource: Any) -> Any:
    if not isinstance(resource, dict):
        return resource
    return {k: resource[k] for k in ("_id", "id", "_type", "_namespace") if k in resource}


def slim(info: Any) -> Any:
    """An info with resource objects replaced by references, as the engine returns it."""
    if not isinstance(info, dict):
        return info
    out = dict(info)
    for name in RESOURCE_FIELDS:
        if isinstance(out.get(name), dict):
            out[name] = _ref(out[name])
    if isinstance(out.get("graph"), list):
        out["graph"] = [
            {**e, **{k: _ref(e[k]) for k in ("source", "target") if isinstance(e.get(k), dict)}}
            if isinstance(e, dict)
            else e
            for e in out["graph"]
        ]
    return out


def canonical(value: Any) -> Any:
    """A judgement in comparable form: members of a set (JSON array) slimmed, deduplicated
    and sorted; any other value as JSON text."""
    if isinstance(value, (list, values.Set)):
        return sorted({values.dumps_json(slim(m)) for m in value})
    return values.dumps_json(value)


def oracle_module(rules_and_single: list[tuple[str, list[str], bool]]) -> str:
    lines = ["package __oracle", "", "import rego.v1", ""]
    for package, names, single in rules_and_single:
        ref = data_ref(package.split("."))
        lines.append(
            f'multi["{package}"] := {{k: v | some k in {json.dumps(names)}; v := {ref}[k]}}'
        )
        if single:
            judgement = next(j for j in ("deny", "policy", "allow") if j in names)
            lines.append(
                f'single["{package}"] := [[j, d] |\n'
                f"\tsome j, r in data.snyk.resources({ref}.resource_type)\n"
                f"\td := {ref}.{judgement} with input as r with data.snyk._state as input\n]"
            )
    lines.append("objects[t] := data.snyk.resources(t) if some t, _ in input.resources")
    return "\n".join(lines) + "\n"
