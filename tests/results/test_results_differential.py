"""Results built from generated judgements equal a naive oracle of seed 001.

The oracle groups every info by its identity first and then computes each
result from its group, the way the results document is specified; the
engine builds results incrementally, with fast paths for common infos.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.evaluation.evaluator import RuleRun, RuleStatics
from engine.inputs.state import State, parse_state
from engine.results.building import ResourceIndex, build_rule_results
from engine.rules.metadata import MULTIPLE, RuleMetadata
from engine.rules.rule_set import RuleSpec
from engine.wasm import values

RANK = {"critical": 4, "high": 3, "medium": 2, "low": 1, "info": 0}
METADATA = RuleMetadata(severity="Medium", remediation="fix it")


def _resource(key: str, rtype: str, namespace: str, visible: str | None) -> dict[str, Any]:
    attributes = {"id": visible} if visible is not None else {}
    return {"id": key, "resource_type": rtype, "namespace": namespace, "attributes": attributes}


STATE = parse_state(
    {
        "input_type": "tf_hcl",
        "resources": {
            "t1": {
                "a": _resource("a", "t1", "m.tf", None),
                "b": _resource("b", "t1", "m.tf", "arn-b"),
            },
            "t2": {
                "a": _resource("a", "t2", "n.tf", None),
                "c": _resource("c", "t2", "m.tf", "arn-c"),
            },
        },
    }
)


def _reference(resource: Any) -> dict[str, Any]:
    return {
        "_id": resource.id,
        "id": resource.visible_id,
        "_type": resource.type,
        "_namespace": resource.namespace,
    }


# Resource values an info may carry: references of the State's resources, a
# reference by visible id only, resources the State lacks, non-objects.
REFERENCES = [_reference(r) for r in STATE.all_resources()] + [
    {"id": "arn-b", "_type": "t1"},
    {"id": "a", "_type": "t2"},
    {"_id": "zz", "_type": "t1", "_namespace": "x.tf"},
    {"_id": "zz", "_type": 5},
    {"id": 3},
    "not an object",
]
refs = st.sampled_from(REFERENCES)
FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "resource": refs,
    "primary_resource": refs,
    "resource_type": st.sampled_from(["t1", "t9", 4]),
    "message": st.sampled_from(["m1", "m2", "", 7]),
    "severity": st.sampled_from(["Low", "HIGH", "medium", "bogus", ""]),
    "remediation": st.sampled_from(["r1", "r2", ""]),
    "correlation": st.sampled_from(["c1", "c2", "", 3]),
    "result_tag": st.sampled_from([None, "t", "u", 1, ["x", 2]]),
    "context": st.sampled_from([None, {"k": 1}, 2, "ctx"]),
    "attributes": st.sampled_from([[["a", 0]], [["b"]], "nope", [["a", 0], ["c", 1.0]], [7]]),
    "graph": st.lists(
        st.one_of(
            st.fixed_dictionaries({"source": refs, "label": st.just("l"), "target": refs}),
            st.just(7),
        ),
        max_size=2,
    ),
}
PLAIN = ("resource", "message")
infos = st.one_of(
    # Plain infos (the common shape) and infos with any of the fields.
    st.fixed_dictionaries({}, optional={k: FIELDS[k] for k in PLAIN}),
    st.fixed_dictionaries({}, optional=FIELDS),
    st.sampled_from(["a message", "", True, False, 3]),
)


def _key_of(ref: Any) -> tuple[str, str, str] | None:
    """The oracle's resolution: by logical id (the last such resource), else by
    visible id (the first), else the reference's own fields."""
    if not isinstance(ref, dict):
        return None
    rtype = ref.get("_type") if isinstance(ref.get("_type"), str) else ""
    namespace = ref.get("_namespace") if isinstance(ref.get("_namespace"), str) else ""
    every = list(STATE.all_resources())
    logical = ref.get("_id")
    if isinstance(logical, str) and logical:
        found = [r for r in every if (r.type, r.id) == (rtype, logical)]
        if found:
            return (found[-1].namespace, rtype, logical)
        return (namespace, rtype, logical)
    visible = ref.get("id")
    if not isinstance(visible, str):
        return None
    found = [r for r in every if (r.type, r.visible_id) == (rtype, visible)]
    if found:
        return (found[0].namespace, found[0].type, found[0].id)
    return (namespace, rtype, visible)


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else values.dumps_json(value).decode()


def _entry(info: Any, current: tuple[str, str, str] | None, failing: bool) -> dict[str, Any]:
    """What one judgement contributes: its identity and its parts."""
    if not isinstance(info, dict):
        if not failing:
            return {}
        message = info if isinstance(info, str) else ""
        return {
            "identity": (current, ""), "primary": current, "tag": "", "failing": True,
            "messages": [message] if message else [],
            "resources": [(current, [])] if current else [],
        }  # fmt: skip
    resource = _key_of(info.get("resource"))
    given_primary = _key_of(info.get("primary_resource"))
    if not failing and resource is None and given_primary is None:
        return {}
    primary = given_primary or resource or (current if failing else None)
    if failing and primary is None and isinstance(info.get("resource_type"), str):
        primary = ("", info["resource_type"], "")
    tag = _text(info.get("result_tag"))
    correlation = info.get("correlation")
    identity = (
        ("correlation", correlation)
        if isinstance(correlation, str) and correlation
        else (primary, tag)
    )
    paths = [tuple(p) for p in info.get("attributes") or [] if isinstance(p, list)]
    if not isinstance(info.get("attributes"), list):
        paths = []
    attached: list[tuple[Any, list[Any]]] = []
    if failing:
        target = resource or (current if primary == current else None)
        if primary is not None and primary[2] and primary != target:
            attached.append((primary, []))
        if target is not None:
            attached.append((target, paths))
    else:
        if primary != resource:
            attached.append((primary, []))
        if resource is not None:
            attached.append((resource, paths))

    def text(name: str) -> list[str]:
        value = info.get(name)
        return [value] if failing and isinstance(value, str) and value else []

    edges = []
    for edge in info.get("graph") or [] if failing and isinstance(info.get("graph"), list) else []:
        if isinstance(edge, dict):
            ends = [edge.get("source"), edge.get("target")]
            named = [_key_of(e) for e in ends]
            source, target = (
                {"id": k[2], "type": k[1], "namespace": k[0]} if k else e
                for k, e in zip(named, ends, strict=True)
            )
            edges.append({"source": source, "label": edge.get("label"), "target": target})
    return {
        "identity": identity, "primary": primary, "named": given_primary is not None,
        "tag": tag, "failing": failing,
        "messages": text("message"), "severities": text("severity"),
        "remediations": text("remediation"), "edges": edges, "resources": attached,
        "contexts": [info["context"]] if info.get("context") is not None else [],
    }  # fmt: skip


def _result(group: list[dict[str, Any]]) -> dict[str, Any]:
    first = group[0]
    passed = not any(e["failing"] for e in group)
    attached: dict[Any, set[tuple[Any, ...]]] = {}
    for entry in group:
        for key, paths in entry["resources"]:
            attached.setdefault(key, set()).update(paths)
    # A primary named by primary_resource wins over one taken from resource.
    primary = next((e["primary"] for e in group if e.get("named")), first["primary"])
    if primary is None:
        primary = next(iter(attached)) if len(attached) == 1 else ("", "", "")
    severities = sorted(s for e in group for s in e.get("severities", []))
    remediations = sorted(r for e in group for r in e.get("remediations", []))
    contexts = values.sort_values([c for e in group for c in e.get("contexts", [])])
    edges = {values.dumps(edge): edge for e in group for edge in e.get("edges", [])}
    return {
        "passed": passed,
        "message": "\n\n".join(sorted({m for e in group for m in e["messages"]})),
        "resource_id": primary[2],
        "resource_namespace": primary[0],
        "resource_type": primary[1],
        "result_tag": first["tag"],
        "severity": max(severities, key=lambda s: RANK.get(s.lower(), -1))
        if severities
        else METADATA.severity,
        "remediation": "" if passed else remediations[0] if remediations else "fix it",
        "context": contexts[0] if contexts else None,
        "graph": [edges[k] for k in sorted(edges)],
        "resources": [
            {
                "id": key[2],
                "type": key[1],
                "namespace": key[0],
                "location": None,
                "attributes": [
                    {"path": p, "location": None, "inferred": False}
                    for p in sorted(paths, key=lambda p: values.dumps(list(p)))
                ],
            }
            for key, paths in sorted(attached.items())
        ],
        "ignored": False,
        "ignore_reason": "",
        "level": "deny",
    }


def oracle(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[Any, list[dict[str, Any]]] = {}
    for entry in entries:
        if entry:
            groups.setdefault(entry["identity"], []).append(entry)
    results = [_result(group) for group in groups.values()]
    return sorted(
        results,
        key=lambda r: (
            r["resource_namespace"], r["resource_type"], r["resource_id"],
            r["result_tag"], r["passed"], r["message"],
        ),
    )  # fmt: skip


def built(run: RuleRun, state: State) -> list[dict[str, Any]]:
    rule_results = build_rule_results(run, state, ResourceIndex(state))
    assert not rule_results.errors
    return [dataclasses.asdict(r) for r in rule_results.results]


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(deny=st.lists(infos, max_size=8), resources=st.lists(infos, max_size=4))
def test_multi_resource_results_equal_the_oracle(deny: list[Any], resources: list[Any]) -> None:
    rule = RuleSpec("rules.gen", ("gen.rego",), frozenset({"deny", "resources"}))
    run = RuleRun(rule, RuleStatics(MULTIPLE, metadata=METADATA), deny, resources)
    entries = [_entry(i, None, True) for i in deny if i is not False]
    entries += [_entry(i, None, False) for i in resources]
    assert built(run, STATE) == oracle(entries)


@SETTINGS
@given(per_resource=st.dictionaries(st.sampled_from([0, 1]), st.lists(infos, max_size=4)))
def test_single_resource_results_equal_the_oracle(per_resource: dict[int, list[Any]]) -> None:
    rule = RuleSpec("rules.gen", ("gen.rego",), frozenset({"deny"}))
    run = RuleRun(rule, RuleStatics("t1", metadata=METADATA), per_resource=per_resource)
    entries = []
    for position, resource in enumerate(STATE.resources["t1"]):
        key = (resource.namespace, resource.type, resource.id)
        found = [i for i in per_resource.get(position, []) if i is not False]
        entries += [_entry(i, key, True) for i in found]
        if not found:  # passing: the resource alone
            entries.append(
                {"identity": (key, ""), "primary": key, "tag": "", "failing": False,
                 "messages": [], "resources": [(key, [])]}
            )  # fmt: skip
    assert built(run, STATE) == oracle(entries)
