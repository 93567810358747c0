"""``rego-engine graph``: resources and their relation edges as DOT, Mermaid or JSON.

The library API behind the command::

    graph = build_graph([Path("infra")], [Path("rules")], with_results=True)
    sys.stdout.write(graph.to_dot())

Nodes are an input's resources (one per namespace, type and ``_id``), edges
are the relation index a scan builds over that input (every relation the
rules or the shipped library define, named, with annotations). With
``with_results`` the rules run as in a scan and resources in failing results
are marked with the rules they fail and the highest severity.

Filters for large graphs: ``types`` keeps the resources of those types and
the edges between them; ``relations`` keeps the edges of those relations and
only the resources they connect. Output order is fixed (inputs as found,
nodes by type, id and namespace, edges by relation, ends and annotation).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.evaluation.bundle import read_bundle
from engine.evaluation.evaluator import RuleEvaluator
from engine.evaluation.prepared_rules import compile_rules
from engine.inputs.discovery import LoadOptions, ScanInput, load_inputs
from engine.relations.snyk_api import InputRelations
from engine.results.report import InputReport, ScanReport
from engine.scanning.input_scan import Selected, scan_one
from engine.wasm import values
from engine.wasm.host import EvalError, Limits

FORMAT_VERSION = "1.0.0"
FORMATS = ("dot", "mermaid", "json")

_SEVERITY_RANK = {"critical": 4, "high": 3, "medium": 2, "low": 1, "info": 0}
_FAILING_FILL = "#f8d7da"
_FAILING_STROKE = "#c0392b"

Identity = tuple[str, str, str]
"""(namespace, type, ``_id``) of a resource."""


@dataclass(frozen=True)
class GraphNode:
    """One resource; ``rules`` and ``severity`` say what it fails (with results)."""

    key: str
    namespace: str
    type: str
    id: str
    rules: tuple[str, ...] = ()
    severity: str = ""

    @property
    def failing(self) -> bool:
        """Whether the resource is in a failing result."""
        return bool(self.rules)


@dataclass(frozen=True)
class GraphEdge:
    """One relation edge between two nodes (by key)."""

    relation: str
    source: str
    target: str
    annotation: Any = None


@dataclass
class InputGraph:
    """The graph of one input."""

    input: str
    nodes: list[GraphNode]
    edges: list[GraphEdge]


@dataclass
class ResourceGraph:
    """Every input's graph and the problems met building them."""

    inputs: list[InputGraph] = field(default_factory=list)
    with_results: bool = False
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def exit_code(self) -> int:
        """0 when every input, rule and relation could be read, else 2."""
        return 2 if self.errors else 0

    def render(self, fmt: str) -> bytes:
        """The graph in ``fmt`` (dot, mermaid or json)."""
        if fmt == "json":
            return self.to_json() + b"\n"
        if fmt == "dot":
            return self.to_dot().encode("utf-8")
        if fmt == "mermaid":
            return self.to_mermaid().encode("utf-8")
        raise ValueError(f"unknown graph format {fmt!r} ({', '.join(FORMATS)})")

    def to_json(self) -> bytes:
        """``{format: "graph", inputs: [{input, nodes, edges}], errors, warnings}``."""
        doc = {
            "format": "graph",
            "format_version": FORMAT_VERSION,
            "with_results": self.with_results,
            "inputs": [
                {
                    "input": g.input,
                    "nodes": [
                        {
                            "key": n.key,
                            "id": n.id,
                            "type": n.type,
                            "namespace": n.namespace,
                            "failing": n.failing,
                            "rules": list(n.rules),
                            "severity": n.severity,
                        }
                        for n in g.nodes
                    ],
                    "edges": [
                        {
                            "relation": e.relation,
                            "source": e.source,
                            "target": e.target,
                            "annotation": values.to_json(e.annotation),
                        }
                        for e in g.edges
                    ],
                }
                for g in self.inputs
            ],
            "errors": self.errors,
            "warnings": self.warnings,
        }
        return values.dumps_json(doc, indent=True)

    def to_dot(self) -> str:
        """Graphviz DOT: one cluster per input; failing resources filled red."""
        lines = [
            'digraph "resources" {',
            '  graph [rankdir="LR"];',
            '  node [shape="box", style="rounded", fontname="Helvetica"];',
            '  edge [fontname="Helvetica", fontsize="10"];',
        ]
        for index, graph in enumerate(self.inputs):
            lines.append(f"  subgraph {dot_id(f'cluster_{index}')} {{")
            lines.append(f"    label={dot_id(graph.input)};")
            for node in graph.nodes:
                attrs = [f"label={dot_id(_node_label(node))}"]
                attrs.append(f"tooltip={dot_id(_node_tooltip(node))}")
                if node.failing:
                    attrs += [
                        'style="rounded,filled"',
                        f"fillcolor={dot_id(_FAILING_FILL)}",
                        f"color={dot_id(_FAILING_STROKE)}",
                    ]
                lines.append(f"    {dot_id(_node_id(index, node))} [{', '.join(attrs)}];")
            lines.append("  }")
            for edge in graph.edges:
                lines.append(
                    f"  {dot_id(f'i{index}_{edge.source}')} -> {dot_id(f'i{index}_{edge.target}')}"
                    f" [label={dot_id(_edge_label(edge))}];"
                )
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_mermaid(self) -> str:
        """A Mermaid flowchart: one subgraph per input; failing resources in class ``failing``."""
        lines = ["flowchart LR"]
        failing: list[str] = []
        for index, graph in enumerate(self.inputs):
            lines.append(f'  subgraph i{index}["{mermaid_text(graph.input)}"]')
            for node in graph.nodes:
                label = "<br/>".join(mermaid_text(part) for part in _node_label(node).split("\n"))
                lines.append(f'    {_node_id(index, node)}["{label}"]')
                if node.failing:
                    failing.append(_node_id(index, node))
            lines.append("  end")
            for edge in graph.edges:
                label = "<br/>".join(mermaid_text(part) for part in _edge_label(edge).split("\n"))
                lines.append(f'  i{index}_{edge.source} -->|"{label}"| i{index}_{edge.target}')
        if failing:
            lines.append(
                f"  classDef failing fill:{_FAILING_FILL},stroke:{_FAILING_STROKE},color:#000"
            )
            lines.append(f"  class {','.join(failing)} failing")
        return "\n".join(lines) + "\n"


def dot_id(text: str) -> str:
    """``text`` as a quoted DOT ID: backslashes and quotes escaped, line breaks as ``\\n``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return f'"{escaped}"'


_MERMAID_ESCAPED = frozenset('"#&<>|`')


def mermaid_text(text: str) -> str:
    """``text`` safe inside a quoted Mermaid label: markup characters as ``#code;``
    entity codes, control characters as spaces."""
    out = []
    for char in text:
        if char in _MERMAID_ESCAPED:
            out.append(f"#{ord(char)};")
        elif ord(char) < 32:
            out.append(" ")
        else:
            out.append(char)
    return "".join(out)


def _node_id(input_index: int, node: GraphNode) -> str:
    return f"i{input_index}_{node.key}"


def _node_label(node: GraphNode) -> str:
    label = f"{node.type}\n{node.id}"
    if node.failing:
        label += f"\nfailing: {', '.join(node.rules)}"
    return label


def _node_tooltip(node: GraphNode) -> str:
    where = f"{node.namespace}: " if node.namespace else ""
    severity = f" ({node.severity})" if node.severity else ""
    failing = f"; fails {', '.join(node.rules)}{severity}" if node.failing else ""
    return f"{where}{node.type} {node.id}{failing}"


def _edge_label(edge: GraphEdge) -> str:
    if edge.annotation is None:
        return edge.relation
    return f"{edge.relation}\n{values.dumps_json(edge.annotation).decode('utf-8')}"


# ---------------------------------------------------------------- building


def _failing(report: InputReport | None) -> dict[Identity, tuple[list[str], str]]:
    """Identity → (rules failing it, highest severity) from one input's results."""
    found: dict[Identity, tuple[list[str], str]] = {}
    if report is None:
        return found
    for rule in report.rule_results:
        label = rule.metadata.id or rule.package
        for result in rule.results:
            if result.passed or result.ignored:
                continue
            identities = {(r.namespace, r.type, r.id) for r in result.resources}
            if result.resource_id:
                identities.add(
                    (result.resource_namespace, result.resource_type, result.resource_id)
                )
            for identity in identities:
                rules, severity = found.get(identity, ([], ""))
                if label not in rules:
                    rules.append(label)
                if _SEVERITY_RANK.get(result.severity.lower(), -1) > _SEVERITY_RANK.get(
                    severity.lower(), -1
                ):
                    severity = result.severity
                found[identity] = (rules, severity)
    return found


def input_graph(
    name: str,
    relations: InputRelations,
    failing: dict[Identity, tuple[list[str], str]],
    types: Sequence[str] = (),
    relation_names: Sequence[str] = (),
) -> InputGraph:
    """The graph of one input from its relation index, filtered."""
    table = relations.table
    identities = sorted(set(table.by_identity), key=lambda i: (i[1], i[2], i[0]))
    if types:
        identities = [i for i in identities if i[1] in set(types)]
    kept = set(identities)
    edge_set: set[tuple[str, Identity, Identity, bytes]] = set()
    annotations: dict[bytes, Any] = {}
    for relation, edges in relations.index.edges.items():
        if relation_names and relation not in relation_names:
            continue
        for edge in edges:
            left, right = table.identity(edge.left), table.identity(edge.right)
            if left in kept and right in kept:
                note = values.dumps(edge.annotation, finite=True)
                annotations[note] = edge.annotation
                edge_set.add((relation, left, right, note))
    if relation_names:
        ends = {e[1] for e in edge_set} | {e[2] for e in edge_set}
        identities = [i for i in identities if i in ends]
    keys = {identity: f"n{n}" for n, identity in enumerate(identities)}
    nodes = [
        GraphNode(
            keys[i],
            i[0],
            i[1],
            i[2],
            tuple(failing[i][0]) if i in failing else (),
            failing[i][1] if i in failing else "",
        )
        for i in identities
    ]
    order = {identity: n for n, identity in enumerate(identities)}
    graph_edges = [
        GraphEdge(relation, keys[left], keys[right], annotations[note])
        for relation, left, right, note in sorted(
            edge_set, key=lambda e: (e[0], order[e[1]], order[e[2]], e[3])
        )
    ]
    return InputGraph(name, nodes, graph_edges)


def build_graph(
    input_paths: list[Path],
    rule_paths: Iterable[Path] = (),
    *,
    bundle: Path | None = None,
    with_results: bool = False,
    types: Sequence[str] = (),
    relations: Sequence[str] = (),
    limits: Limits | None = None,
    load: LoadOptions | None = None,
) -> ResourceGraph:
    """The resource graph of every input below ``input_paths``, with the relations
    of the rules below ``rule_paths`` (or in ``bundle``) and the shipped ones."""
    prepared = read_bundle(bundle) if bundle is not None else compile_rules(list(rule_paths))
    rule_set = prepared.rule_set
    out = ResourceGraph(with_results=with_results)
    report = ScanReport(errors=prepared.errors, warnings=prepared.warnings)
    if with_results and not rule_set.rules:
        raise ValueError("--with-results needs rules: give -d paths or --bundle")
    loaded = load_inputs(input_paths, load or LoadOptions())
    report.errors += [str(p) for p in loaded.problems]
    if rule_set.policy is None:
        out.errors, out.warnings = report.errors, report.warnings
        return out
    evaluator = RuleEvaluator(rule_set, limits, all_relations=True, statics=prepared.statics)
    try:
        for scan_input in loaded.inputs:
            graph = _graph_of(scan_input, evaluator, report, with_results, types, relations)
            if graph is not None:
                out.inputs.append(graph)
    finally:
        evaluator.close()
    out.errors, out.warnings = report.errors, report.warnings
    return out


def _graph_of(
    scan_input: ScanInput,
    evaluator: RuleEvaluator,
    report: ScanReport,
    with_results: bool,
    types: Sequence[str],
    relation_names: Sequence[str],
) -> InputGraph | None:
    results: InputReport | None = None
    if with_results:
        rule_set = evaluator.rule_set
        every = Selected.every_rule(rule_set)
        results = scan_one(scan_input, rule_set, every, evaluator, report, lambda: None)
        set_aside = {f.rule.ref for f in evaluator.rule_set.failed}  # listed once already
        for rule in results.rule_results if results is not None else []:
            if rule.package not in set_aside:
                report.errors += [f"{scan_input.name}: {rule.package}: {e}" for e in rule.errors]
        if results is None:
            return None
    else:
        try:
            evaluator.load(scan_input.state)
        except EvalError as exc:
            report.errors.append(f"{scan_input.name}: {exc}")
            return None
        report.errors += [f"{scan_input.name}: {p}" for p in evaluator.relation_problems]
    relations = evaluator.api.relations
    if relations is None:
        return None
    return input_graph(scan_input.name, relations, _failing(results), types, relation_names)
