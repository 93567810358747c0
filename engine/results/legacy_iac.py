"""Results of legacy Snyk IaC rules, mapped as snyk's engine maps them.

A legacy rule's ``deny[msg]`` yields objects with ``publicId``, ``title``,
``severity``, ``msg``, ``impact``, ``remediation`` and ``references``. Each is a
failing result; results are grouped into one rule per ``publicId`` (its id,
``title``, ``impact`` as description, ``references``). ``msg`` is a path into
the raw IaC input (``input.resource.aws_s3_bucket[name].acl``) naming the
resource and, after it, the attribute path the result reports.
"""

from __future__ import annotations

from typing import Any

from engine.evaluation.evaluator import RuleRun
from engine.inputs.state import Resource, State
from engine.results.building import (
    AttributeRef,
    ResourceIndex,
    ResourceKey,
    Result,
    ResultResource,
    RuleResults,
    attribute_location,
)
from engine.rules.legacy_iac import SUPPORTED_TYPES, TERRAFORM_TYPES
from engine.rules.metadata import REMEDIATION_KEYS, RuleMetadata
from engine.wasm import values

Path = list[str | int]


def parse_path(text: str) -> Path:
    """``input.a["b.c"][0].d`` → ``["a", "b.c", 0, "d"]``: dots and brackets
    separate elements, quotes and ``\\`` escape, whole numbers become indexes."""
    if text.startswith("input."):
        text = text[len("input.") :]
    out: Path = []
    buf: list[str] = []
    quote: str | None = None
    escaped = False
    depth = 0

    def flush() -> None:
        if buf:
            word = "".join(buf)
            out.append(int(word) if word.isdigit() else word)
            buf.clear()

    for char in text:
        if escaped:
            buf.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif quote is not None:
            if char == quote:
                flush()
                quote = None
            else:
                buf.append(char)
        elif char in "\"'":
            quote = char
        elif char == ".":
            if depth:
                buf.append(char)
            else:
                flush()
        elif char == "[":
            flush()
            depth += 1
        elif char == "]":
            if not depth:
                break  # a closing bracket with none open: the rest is not a path
            flush()
            depth -= 1
        else:
            buf.append(char)
    flush()
    return out


class LegacyTarget:
    """The resource a message names (found in the State, or only its type and
    key) and the attribute path after it."""

    def __init__(self, rtype: str, key: str, path: Path, resource: Resource | None = None) -> None:
        self.type = rtype
        self.key = key
        self.path = path
        self.resource = resource


def _find(state: State, rtype: str, key: str) -> Resource | None:
    """The resource of type ``rtype`` under ``key`` in the State document."""
    return next((r for r in state.resources.get(rtype, ()) if r.key == key), None)


def _terraform_target(path: Path, state: State) -> LegacyTarget:
    """``resource.T.N...``, ``data.T.N...`` or ``T.N...`` (a data source when the
    input has one of that name)."""
    section = ""
    rest = list(path)
    if rest and rest[0] in ("resource", "data"):
        section = str(rest.pop(0))
    rtype = name = ""
    while rest and not rtype:
        head = rest.pop(0)
        rtype = head if isinstance(head, str) else ""
    while rest and not name:
        head = rest.pop(0)
        name = head if isinstance(head, str) else ""
    if not (rtype and name):
        return LegacyTarget(rtype, "", [])
    if not section and _find(state, f"data.{rtype}", f"data.{rtype}.{name}") is not None:
        section = "data"
    if section == "data":
        rtype = f"data.{rtype}"
    key = f"{rtype}.{name}"
    return LegacyTarget(rtype, key, rest, _find(state, rtype, key))


def _cfn_target(path: Path, state: State) -> LegacyTarget:
    """``Resources.K.Properties...`` or ``K.Properties...``."""
    rest = list(path)
    key = ""
    if rest and rest[0] == "Resources":
        rest.pop(0)
    while rest and not key:
        head = rest.pop(0)
        key = head if isinstance(head, str) else ""
    attributes: Path = []
    if "Properties" in rest:
        attributes = rest[rest.index("Properties") + 1 :]
    found = next((r for r in state.all_resources() if r.key == key), None) if key else None
    return LegacyTarget(found.type if found else "", key, attributes, found)


def _arm_target(path: Path, state: State) -> LegacyTarget:
    """``resources[i]...`` or ``[i]...``: the i-th resource by type, then key."""
    rest = list(path)
    if rest and rest[0] == "resources":
        rest.pop(0)
    while rest and not isinstance(rest[0], int):
        rest.pop(0)
    if not rest:
        return LegacyTarget("", "", [])
    position = rest.pop(0)
    ordered = sorted(state.all_resources(), key=lambda r: (r.type, r.key))
    if not isinstance(position, int) or position >= len(ordered):
        return LegacyTarget("", "", rest)
    found = ordered[position]
    return LegacyTarget(found.type, found.key, rest, found)


def _k8s_target(path: Path, document: list[str], state: State) -> LegacyTarget:
    """The object asked; a leading kind is dropped and list elements named by
    their ``name`` become indexes."""
    rtype, key = document
    found = _find(state, rtype, key)
    rest = list(path)
    if rest and isinstance(rest[0], str) and rest[0].lower() == rtype.lower():
        rest.pop(0)
    attributes = found.attributes if found is not None else {}
    return LegacyTarget(rtype, key, _by_name(rest, attributes), found)


def _by_name(path: Path, document: Any) -> Path:
    """``path`` with list elements named by their ``name`` written as indexes."""
    out = list(path)
    cursor = document
    for i, step in enumerate(out):
        if isinstance(cursor, list) and isinstance(step, str):
            found = next(
                (j for j, e in enumerate(cursor) if isinstance(e, dict) and e.get("name") == step),
                None,
            )
            if found is None:
                break
            out[i] = step = found
        keyed = isinstance(cursor, dict) and isinstance(step, str) and step in cursor
        indexed = isinstance(cursor, list) and isinstance(step, int) and 0 <= step < len(cursor)
        if not (keyed or indexed):
            break
        cursor = cursor[step]
    return out


def _target(msg: str, document: Any, state: State) -> LegacyTarget:
    path = parse_path(msg)
    if state.input_type in TERRAFORM_TYPES:
        return _terraform_target(path, state)
    if state.input_type == "cfn":
        return _cfn_target(path, state)
    if state.input_type == "arm":
        return _arm_target(path, state)
    return _k8s_target(path, document, state)


def _remediation(value: Any, input_type: str) -> str:
    """A string as is, or the text for the input type's remediation key."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in REMEDIATION_KEYS.get(input_type, (input_type,)):
            text = value.get(key)
            if isinstance(text, str):
                return text
    return ""


def _text(info: dict[str, Any], name: str) -> str:
    value = info.get(name)
    return value if isinstance(value, str) else ""


def _key(target: LegacyTarget, default_namespace: str) -> ResourceKey:
    """The State's resource the target names; else its type and key in the input's namespace."""
    found = target.resource
    if found is not None:
        return (found.namespace, found.type, found.id)
    return (default_namespace, target.type, target.key)


def build_legacy_rule_results(
    run: RuleRun, state: State, index: ResourceIndex
) -> list[RuleResults]:
    """The rules (one per ``publicId``) a legacy IaC rule's messages make on one input."""
    package = run.rule.ref
    if run.errors:
        return [RuleResults(package, run.statics.metadata, run.resource_types, run.errors, [])]
    if state.input_type not in SUPPORTED_TYPES:
        where = ", ".join(run.rule.files)
        error = (
            f"{where}: a legacy IaC rule runs over Terraform, CloudFormation, ARM and"
            f" Kubernetes inputs only, not {state.input_type}"
        )
        return [RuleResults(package, run.statics.metadata, run.resource_types, [error], [])]
    filepath = state.meta.get("filepath") if isinstance(state.meta, dict) else None
    default_namespace = filepath if isinstance(filepath, str) else ""
    rules: dict[str, RuleResults] = {}
    results: dict[str, list[tuple[Any, Result]]] = {}
    for document, judgement in run.judgement or []:
        for info in _infos(judgement):
            public_id = _text(info, "publicId")
            if public_id not in rules:
                references = info.get("references")
                rules[public_id] = RuleResults(
                    package,
                    RuleMetadata(
                        id=public_id,
                        kind="",  # snyk gives a legacy IaC rule no kind
                        title=_text(info, "title"),
                        description=_text(info, "impact"),
                        references=[r for r in references or [] if isinstance(r, str)]
                        if isinstance(references, list)
                        else [],
                    ),
                    run.resource_types,
                    [],
                    [],
                )
            target = _target(_text(info, "msg"), document, state)
            key = _key(target, default_namespace)
            attributes = (
                [
                    AttributeRef(
                        tuple(target.path), attribute_location(index, key, tuple(target.path))
                    )
                ]
                if target.key and target.path
                else []
            )
            result = Result(
                passed=False,
                message="",
                resource_id=key[2],
                resource_namespace=key[0],
                resource_type=key[1],
                result_tag="",
                severity=_text(info, "severity"),
                remediation=_remediation(info.get("remediation"), state.input_type),
                context=None,
                graph=[],
                resources=[ResultResource(key[2], key[1], key[0], index.location(key), attributes)],
            )
            order = (key, values.dumps(list(target.path)), values.dumps(info))
            results.setdefault(public_id, []).append((order, result))
    out = []
    for public_id in sorted(rules):
        rule = rules[public_id]
        rule.results = [r for _, r in sorted(results[public_id], key=lambda p: p[0])]
        out.append(rule)
    return out


def _infos(judgement: Any) -> list[dict[str, Any]]:
    """The message objects of a judgement value (a set, a list or one object)."""
    if isinstance(judgement, values.Set):
        members = values.sort_values(judgement)
    elif isinstance(judgement, list):
        members = judgement
    else:
        members = [judgement]
    return [m for m in members if isinstance(m, dict)]
