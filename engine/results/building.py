"""Building results from rule judgements: identity, merging, pass and fail.

Every ``deny`` info is a failing result; so is every ``warn`` info, at level
``warn`` (a warning, which fails no scan by default) unless a ``deny`` info
has the same identity. Its identity is its ``correlation``
when given, else (namespace, type, id) of its primary resource plus its
``result_tag``; infos with one identity are one result, whose primary
resource is the one an info names as ``primary_resource`` when any does.
``resources`` infos (``resource``, ``primary_resource`` or both) join the
result with their identity (adding resources, attribute paths and context)
or, when no denial has it, make a passing result. Single-resource rules give
every resource of their type a result. Everything here is pure: the same
judgements give the same results, in a deterministic order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from operator import itemgetter
from typing import Any

from engine.evaluation.evaluator import RuleRun
from engine.inputs.source_map import AttributePath, SourceLocation
from engine.inputs.state import Resource, State
from engine.relations.type_hierarchy import covered_types
from engine.rules.metadata import RuleMetadata
from engine.wasm import values

ResourceKey = tuple[str, str, str]
"""(namespace, type, id) of a resource."""


@dataclass(frozen=True)
class AttributeRef:
    """An attribute path within a resource that contributed to a result."""

    path: tuple[Any, ...]
    location: Any = None
    inferred: bool = False
    """Read by the rule, not named by it (:mod:`engine.results.inferred_attributes`)."""


@dataclass
class ResultResource:
    """A resource attached to a result."""

    id: str
    type: str
    namespace: str
    location: Any = None
    attributes: list[AttributeRef] = field(default_factory=list)


@dataclass
class Result:
    """One result of one rule: a resource (or missing type) that passed or failed."""

    passed: bool
    message: str
    resource_id: str
    resource_namespace: str
    resource_type: str
    result_tag: str
    severity: str
    remediation: str
    context: Any
    graph: list[dict[str, Any]]
    resources: list[ResultResource]
    ignored: bool = False
    ignore_reason: str = ""
    """Why an ignore-file entry covers the result (not part of the results document)."""
    level: str = "deny"
    """``warn`` for a failure only ``warn`` infos gave (apart from severity), else ``deny``."""


@dataclass
class RuleResults:
    """A rule's results on one input, with its metadata."""

    package: str
    metadata: RuleMetadata
    resource_types: list[str]
    errors: list[str]
    results: list[Result]
    warnings: list[str] = field(default_factory=list)
    """Problems that left the results whole (the scan's warnings gather them)."""


_UNKNOWN = object()


class ResourceIndex:
    """Maps resource references from rule output back to a State's resources.

    Built once per input and shared by every rule's results.
    """

    def __init__(self, state: State) -> None:
        self.source_map = state.source_map
        self._locations: dict[tuple[ResourceKey, AttributePath | None], Any] = {}
        self._resource_locations: dict[ResourceKey, Any] = {}
        self._state = state
        self._by_key: dict[ResourceKey, Resource] = {}
        self.by_logical: dict[tuple[str, str], ResourceKey] = {}
        """(type, logical id) → key of the resource (the last of that id)."""
        self._by_visible: dict[tuple[str, str], Resource] | None = None
        self._by_fugue_key: dict[tuple[str, str], ResourceKey] | None = None
        by_key, by_logical = self._by_key, self.by_logical
        for resource in state.all_resources():
            rtype, rid = resource.type, resource.id
            key = (resource.namespace, rtype, rid)
            by_key.setdefault(key, resource)
            by_logical[rtype, rid] = key

    @property
    def by_visible(self) -> dict[tuple[str, str], Resource]:
        """(type, visible ``id``) → resource (the first of that id), made when first asked."""
        if self._by_visible is None:
            self._by_visible = {}
            for resource in self._state.all_resources():
                self._by_visible.setdefault((resource.type, resource.visible_id), resource)
        return self._by_visible

    def key_of(self, ref: Any) -> ResourceKey | None:
        """The key of a resource object (or reference) a rule returned."""
        if not isinstance(ref, dict):
            return None
        rtype = ref.get("_type")
        if type(rtype) is not str:
            rtype = rtype if isinstance(rtype, str) else ""
        logical = ref.get("_id")
        if type(logical) is str and logical:
            key = self.by_logical.get((rtype, logical))
            if key is not None:
                return key
        namespace = ref.get("_namespace")
        if isinstance(logical, str) and logical:
            key = self.by_logical.get((rtype, logical))
            if key is not None:
                return key
        else:
            visible = ref.get("id")
            if not isinstance(visible, str):
                return None
            found = self.by_visible.get((rtype, visible))
            if found is not None:
                return (found.namespace, found.type, found.id)
            logical = visible
        return (namespace if isinstance(namespace, str) else "", rtype, logical)

    @property
    def by_fugue_key(self) -> dict[tuple[str, str], ResourceKey]:
        """(type, ``Kind.namespace.name``) → key, for a Kubernetes input: the ids
        regula's library sees (``default`` for cluster-scoped objects)."""
        if self._by_fugue_key is None:
            self._by_fugue_key = {}
            if self._state.input_type == "k8s":
                for r in self._state.all_resources():
                    fugue_id = f"{r.type}.{r.namespace or 'default'}.{r.id}"
                    self._by_fugue_key.setdefault((r.type, fugue_id), (r.namespace, r.type, r.id))
        return self._by_fugue_key

    def key_of_fugue(self, judgement: dict[str, Any]) -> ResourceKey:
        """The key a fugue judgement ``{id, type, namespace}`` names (a Kubernetes
        ``id`` may also be regula's ``Kind.namespace.name``)."""
        type_field, id_field = judgement.get("type"), judgement.get("id")
        rtype = type_field if isinstance(type_field, str) else ""
        rid = id_field if isinstance(id_field, str) else ""
        namespace = judgement.get("namespace")
        if isinstance(namespace, str) and (namespace, rtype, rid) in self._by_key:
            return (namespace, rtype, rid)  # a name may repeat across namespaces
        found = self.by_visible.get((rtype, rid))
        if found is not None:
            return (found.namespace, found.type, found.id)
        key = self.by_logical.get((rtype, rid)) or self.by_fugue_key.get((rtype, rid))
        if key is not None:
            return key
        return (namespace if isinstance(namespace, str) else "", rtype, rid)

    def location(self, key: ResourceKey, path: AttributePath | None = None) -> Any:
        """Where a resource (``path`` None) or one of its attribute paths is
        written, as results show it: from the State's source map when it has
        one, else the resource's ``meta.location`` (attribute paths: None)."""
        if path is None:
            known = self._resource_locations.get(key, _UNKNOWN)
            if known is _UNKNOWN:
                known = self._resource_locations[key] = self._location(key, None)
            return known
        return self._location(key, path)

    def _location(self, key: ResourceKey, path: AttributePath | None) -> Any:
        found = self._by_key.get(key)
        if found is None:
            return None
        if self.source_map is None:
            return found.meta.get("location") if path is None else None
        cache_key = (key, path)
        if cache_key in self._locations:
            return self._locations[cache_key]
        located: SourceLocation | None = None
        if self.source_map is not None:
            if path is None:
                located = self.source_map.resource_location(found.type, found.key)
            else:
                located = self.source_map.attribute_location(found.type, found.key, path)
        if located is not None:
            location: Any = located.to_json()
        else:
            location = found.meta.get("location") if path is None else None
        self._locations[cache_key] = location
        return location


def _attribute_path(path: tuple[Any, ...]) -> AttributePath | None:
    """A rule's attribute path as a source-map path: keys and list indices
    (integral numbers become indices); None when it has any other step."""
    steps: list[str | int] = []
    for step in path:
        if isinstance(step, bool):
            return None
        if isinstance(step, str | int):
            steps.append(step)
        elif isinstance(step, float | Decimal) and step == int(step):
            steps.append(int(step))
        else:
            return None
    return tuple(steps)


def _tag(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else values.dumps_json(value).decode()


class _Builder:
    """Accumulates one result while infos with its identity arrive."""

    __slots__ = (
        "contexts",
        "denied",
        "explicit",
        "graph",
        "messages",
        "passed",
        "primary",
        "remediations",
        "resources",
        "result_tag",
        "severities",
        "warned",
    )

    def __init__(self, primary: ResourceKey | None, result_tag: str, explicit: bool) -> None:
        self.primary = primary
        self.explicit = explicit
        """Whether ``primary`` was named by an info's ``primary_resource``."""
        self.result_tag = result_tag
        self.passed = True
        self.denied = False
        self.warned = False
        self.messages: set[str] = set()
        # What few infos give is made when first given (most results have none).
        self.severities: list[str] | None = None
        self.remediations: list[str] | None = None
        self.contexts: list[Any] | None = None
        self.graph: dict[bytes, dict[str, Any]] | None = None
        self.resources: dict[ResourceKey, dict[bytes, tuple[Any, ...]] | None] = {}
        """Attached resources → their attribute paths by text (None: none yet)."""

    def add_resource(self, key: ResourceKey, attributes: Any = None) -> None:
        paths = self.resources.setdefault(key, None)
        if isinstance(attributes, list | values.Set):  # a set of paths, as snyk reads one
            for path in attributes:
                if isinstance(path, list):
                    if paths is None:
                        paths = self.resources[key] = {}
                    paths[values.dumps(path)] = tuple(path)


_SEVERITY_RANK = {"critical": 4, "high": 3, "medium": 2, "low": 1, "info": 0}


def _pick_severity(severities: list[str], default: str) -> str:
    """The highest severity the infos gave (ties: first in text order), else the rule's."""
    if not severities:
        return default
    return max(sorted(severities), key=lambda s: _SEVERITY_RANK.get(s.lower(), -1))


class _ResultSet:
    def __init__(self, index: ResourceIndex) -> None:
        self.resolver = index
        self.builders: dict[Any, _Builder] = {}

    def builder(
        self, correlation: Any, primary: ResourceKey | None, tag: str, explicit: bool = False
    ) -> _Builder:
        """The result an info with ``correlation`` (None: none), primary resource
        and ``result_tag`` belongs to. A primary named by ``primary_resource``
        (``explicit``) is the result's primary resource even when an info
        without one made the result first."""
        if isinstance(correlation, str) and correlation:
            identity: Any = ("correlation", correlation)
        else:
            identity = (primary, tag)
        found = self.builders.get(identity)
        if found is None:
            found = self.builders[identity] = _Builder(primary, tag, explicit)
        elif explicit and not found.explicit:
            found.primary, found.explicit = primary, True
        return found

    def deny(self, info: Any, current: ResourceKey | None = None, warn: bool = False) -> None:
        """Add a failing judgement: an info object, a message string or ``true``
        (``warn``: from ``warn``, a warning unless denied too)."""
        if info is False:
            return
        if not isinstance(info, dict):
            text = info if isinstance(info, str) else ""
            result = self.builder(None, current, "")
            result.passed = False
            if warn:
                result.warned = True
            else:
                result.denied = True
            if text:
                result.messages.add(text)
            if current is not None:
                result.add_resource(current)
            return
        get = info.get
        resolve = self.resolver.key_of
        resource = resolve(get("resource"))
        # Most infos hold a resource and a message only: the other fields are
        # looked up only when the info has more.
        plain = len(info) == ("resource" in info) + ("message" in info)
        if plain:
            primary = resource or current
            builder = self.builders.get((primary, ""))  # builder(), inline
            if builder is None:
                builder = self.builders[primary, ""] = _Builder(primary, "", False)
        else:
            named = resolve(get("primary_resource"))
            primary = named or resource or current
            if primary is None and isinstance(get("resource_type"), str):
                primary = ("", info["resource_type"], "")
            builder = self.builder(
                get("correlation"), primary, _tag(get("result_tag")), named is not None
            )
            self._details(builder, info)
        builder.passed = False
        if warn:
            builder.warned = True
        else:
            builder.denied = True
        message = get("message")
        if isinstance(message, str) and message:
            builder.messages.add(message)
        target = resource or (current if primary == current else None)
        if primary is not None and primary[2] and primary != target:
            builder.add_resource(primary)
        if target is not None:
            builder.add_resource(target, None if plain else get("attributes"))

    def _details(self, builder: _Builder, info: dict[str, Any]) -> None:
        """Add an info's severity, remediation, context and graph to its result."""
        severity = info.get("severity")
        if isinstance(severity, str) and severity:
            builder.severities = builder.severities or []
            builder.severities.append(severity)
        remediation = info.get("remediation")
        if isinstance(remediation, str) and remediation:
            builder.remediations = builder.remediations or []
            builder.remediations.append(remediation)
        _add_context(builder, info)
        self._add_graph(builder, info.get("graph"))

    def resources(self, info: Any) -> None:
        """Add a ``resources`` info: attach its resources and context, passing
        unless denied. An info with only ``primary_resource`` makes (or joins)
        the result of that primary resource."""
        if not isinstance(info, dict):
            return
        resource = self.resolver.key_of(info.get("resource"))
        named = self.resolver.key_of(info.get("primary_resource"))
        primary = named or resource
        if primary is None:
            return
        builder = self.builder(
            info.get("correlation"), primary, _tag(info.get("result_tag")), named is not None
        )
        if primary != resource:
            builder.add_resource(primary)
        if resource is not None:
            builder.add_resource(resource, info.get("attributes"))
        _add_context(builder, info)

    def context(self, key: ResourceKey, infos: Any) -> None:
        """Add the ``context`` of a single-resource rule's ``resources`` infos for
        one resource to that resource's results."""
        builders = [b for b in self.builders.values() if b.primary == key]
        for info in _members(infos):
            if isinstance(info, dict):
                for builder in builders:
                    _add_context(builder, info)

    def fugue(self, judgement: Any) -> None:
        """Add a fugue ``policy[j]`` judgement ``{valid, id, type, namespace, message}``."""
        if not isinstance(judgement, dict):
            return
        key = self.resolver.key_of_fugue(judgement)
        builder = self.builder(None, key, "")
        if key[2]:
            builder.add_resource(key)
        if judgement.get("valid") is not True:
            builder.passed = False
            message = judgement.get("message")
            if isinstance(message, str) and message:
                builder.messages.add(message)

    def passing(self, key: ResourceKey, message: str = "") -> None:
        """A resource a single-resource rule found nothing against (or allowed,
        with ``message``)."""
        builder = self.builder(None, key, "")
        builder.add_resource(key)
        if message:
            builder.messages.add(message)

    def _add_graph(self, builder: _Builder, graph: Any) -> None:
        if not isinstance(graph, list):
            return
        for edge in graph:
            if not isinstance(edge, dict):
                continue
            rendered = {
                "source": self._ref(edge.get("source")),
                "label": edge.get("label"),
                "target": self._ref(edge.get("target")),
            }
            builder.graph = builder.graph or {}
            builder.graph[values.dumps(rendered)] = rendered

    def _ref(self, resource: Any) -> Any:
        key = self.resolver.key_of(resource)
        if key is None:
            return resource
        return {"id": key[2], "type": key[1], "namespace": key[0]}

    def build(self, metadata: RuleMetadata, input_type: str) -> list[Result]:
        remediation = metadata.remediation_for(input_type)
        result = self._result
        out = [result(b, metadata.severity, remediation) for b in self.builders.values()]
        out.sort(key=itemgetter(0))
        return [r for _, r in out]

    def _attributes(
        self, key: ResourceKey, paths: dict[bytes, tuple[Any, ...]]
    ) -> list[AttributeRef]:
        """The attribute paths of one resource of a result, in order, located."""
        return [
            AttributeRef(p, attribute_location(self.resolver, key, p))
            for _, p in sorted(paths.items())
        ]

    def _result(
        self, builder: _Builder, severity: str, remediation: str
    ) -> tuple[tuple[Any, ...], Result]:
        """The result ``builder`` gathered (``severity`` and ``remediation``: the
        rule's), after the key results are ordered by: (namespace, type, id) of
        the primary resource, result_tag, passed, message."""
        primary = builder.primary or ("", "", "")
        keyed = builder.resources
        if builder.primary is None and len(keyed) == 1:
            primary = next(iter(keyed))
        location = self.resolver.location
        resources = [
            ResultResource(
                key[2], key[1], key[0], location(key), self._attributes(key, paths) if paths else []
            )
            for key, paths in (sorted(keyed.items()) if len(keyed) > 1 else keyed.items())
        ]
        messages = builder.messages
        if len(messages) > 1:
            message = "\n\n".join(sorted(messages))
        else:
            message = next(iter(messages)) if messages else ""
        if builder.passed:
            remediation = ""
        elif builder.remediations:
            remediation = min(builder.remediations)
        contexts = values.sort_values(builder.contexts) if builder.contexts else []
        graph = builder.graph
        order = (primary[0], primary[1], primary[2], builder.result_tag, builder.passed, message)
        # Positional (a dataclass's __init__ takes them faster): passed, message,
        # resource_id, resource_namespace, resource_type, result_tag, severity,
        # remediation, context, graph, resources.
        return order, Result(
            builder.passed,
            message,
            primary[2],
            primary[0],
            primary[1],
            builder.result_tag,
            _pick_severity(builder.severities, severity) if builder.severities else severity,
            remediation,
            contexts[0] if contexts else None,
            [graph[k] for k in sorted(graph)] if graph else [],
            resources,
            level="warn" if builder.warned and not builder.denied else "deny",
        )


def _allowed(value: Any) -> tuple[bool, str]:
    """A single-resource ``allow`` judgement: passed, and its message. ``true``
    passes; so do messages (fugue's ``allow[msg]``, or one string), the
    result taking the first in value order; anything else, or no message, fails."""
    if value is True:
        return True, ""
    messages = _members(value) if isinstance(value, values.Set | list | str) else []
    if messages and all(isinstance(m, str) for m in messages):
        return True, messages[0]
    return False, ""


def _add_context(builder: _Builder, info: dict[str, Any]) -> None:
    """Keep an info's ``context`` (the result shows the first in value order)."""
    context = info.get("context")
    if context is not None:
        builder.contexts = builder.contexts or []
        builder.contexts.append(context)


def _members(value: Any) -> list[Any]:
    """The infos of a judgement value: a set's members, or the value itself."""
    if isinstance(value, values.Set):
        return values.sort_values(value)
    if isinstance(value, list):
        return value
    return [value]


def build_rule_results(run: RuleRun, state: State, index: ResourceIndex) -> RuleResults:
    """The results of one rule on one input (``index`` is that input's :class:`ResourceIndex`);
    the metadata's references are those for the input's type."""
    metadata = run.statics.metadata
    if metadata.references_by_input:
        metadata = replace(
            metadata,
            references=metadata.references_for(state.input_type),
            references_by_input={},
        )
    results: list[Result] = []
    if not run.errors:
        results = _judge(run, state, index).build(metadata, state.input_type)
    return RuleResults(
        package=run.rule.ref,
        metadata=metadata,
        resource_types=run.resource_types,
        errors=list(run.errors),
        results=results,
    )


def _judge(run: RuleRun, state: State, index: ResourceIndex) -> _ResultSet:
    out = _ResultSet(index)
    judgement = run.rule.judgement
    if run.statics.single:
        covered = covered_types(state.input_type, state.resource_types, run.statics.resource_type)
        resources = [r for t in covered for r in state.resources.get(t, ())]
        for position, resource in enumerate(resources):
            key = (resource.namespace, resource.type, resource.id)
            defined = position in run.per_resource
            value = run.per_resource.get(position)
            if judgement == "allow":
                allowed, message = _allowed(value) if defined else (False, "")
                if allowed:
                    out.passing(key, message)
                else:
                    out.deny(True, key)
                continue
            warn = judgement == "warn"
            infos = [m for m in _members(value) if m is not False] if defined else []
            warnings = (
                [m for m in _members(run.per_resource_warnings[position]) if m is not False]
                if position in run.per_resource_warnings
                else []
            )
            if not infos and not warnings:
                out.passing(key)
            for info in infos:
                out.deny(info, key, warn)
            for info in warnings:
                out.deny(info, key, True)
            if position in run.per_resource_context:
                out.context(key, run.per_resource_context[position])
        return out
    if judgement == "policy":
        for item in _members(run.judgement) if run.judgement is not None else []:
            out.fugue(item)
    elif judgement == "allow":
        if run.judgement is not True:
            out.deny(True)
    elif run.judgement is not None:
        for info in _members(run.judgement):
            out.deny(info, warn=judgement == "warn")
    if run.warnings is not None:
        for info in _members(run.warnings):
            out.deny(info, warn=True)
    if run.resources is not None:
        for info in _members(run.resources):
            out.resources(info)
    return out


def locate_results(rule_results: list[RuleResults], index: ResourceIndex) -> None:
    """Fill in the locations of results built without the State's source map
    (in a worker process) from ``index``, over the State that has it."""
    for rule in rule_results:
        for result in rule.results:
            for resource in result.resources:
                key = (resource.namespace, resource.type, resource.id)
                resource.location = index.location(key)
                resource.attributes = [
                    AttributeRef(a.path, attribute_location(index, key, a.path), a.inferred)
                    for a in resource.attributes
                ]


def attribute_location(index: ResourceIndex, key: ResourceKey, path: Any) -> Any:
    """Where attribute ``path`` of resource ``key`` is written (None: not known)."""
    steps = _attribute_path(path)
    return index.location(key, steps) if steps is not None else None
