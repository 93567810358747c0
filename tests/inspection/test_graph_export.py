"""``rego-engine graph``: resources and relation edges as DOT, Mermaid and JSON.

DOT output is parsed back with pydot, Mermaid with a parser for the subset
the exporter writes; both must give the nodes and edges of the JSON form,
whose edges are checked against ``rego-engine relations --edges``.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pydot
import pytest
from click.testing import CliRunner, Result
from scan_fixtures import write, write_json

from engine.cli.main import app
from engine.core.paths import REPO_ROOT
from engine.evaluation.bundle import build_bundle
from engine.inspection.graph_export import build_graph, dot_id, mermaid_text
from engine.inspection.relation_listing import list_relations

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:pydot")

RELATIONS_CORPUS = REPO_ROOT / "tests" / "relations_corpus"
EXAMPLES = REPO_ROOT / "examples"

USES_RELATION = """\
package relations
import rego.v1
import data.snyk

relations contains {
  "name": "app.uses",
  "keys": {
    "left": [[a, a.db, {"note": "q\\"uote | #1 <b>"}] | some a in snyk.resources("app")],
    "right": [[d, d.name] | some d in snyk.resources("db")],
  },
}

relations contains {
  "name": "app.peer",
  "explicit": [[a, b] |
    some a in snyk.resources("app")
    some b in snyk.resources("app")
    a.peer == b.name
  ],
}
"""

BAD_APP_RULE = """\
package rules.bad_app
import rego.v1

metadata := {"id": "APP-1", "title": "bad apps", "severity": "High"}
resource_type := "app"

deny contains info if {
  input.bad
  info := {"message": "bad"}
}
"""

# Ids with every character DOT and Mermaid treat specially.
TRICKY = 'a "quoted" \\ back|slash #x <b>&\nline'


def _resource(rtype: str, rid: str, attributes: dict[str, Any]) -> dict[str, Any]:
    return {"id": rid, "resource_type": rtype, "namespace": "ns", "attributes": attributes}


def _state() -> dict[str, Any]:
    apps = {
        "web": {"db": "main", "peer": TRICKY, "name": "web", "bad": True},
        TRICKY: {"db": "main", "name": TRICKY},
        "lonely": {"db": "none", "name": "lonely"},
    }
    return {
        "input_type": "tf_hcl",
        "resources": {
            "app": {k: _resource("app", k, v) for k, v in apps.items()},
            "db": {"main": _resource("db", "main", {"name": "main"})},
            "other": {"o": _resource("other", "o", {})},
        },
    }


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    directory = tmp_path / "rules"
    write(directory / "relations.rego", USES_RELATION)
    write(directory / "bad_app.rego", BAD_APP_RULE)
    return directory


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    directory = tmp_path / "in"
    write_json(directory / "apps.json", _state())
    write_json(
        directory / "basic.json", json.loads((RELATIONS_CORPUS / "states/basic.json").read_text())
    )
    return directory


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["graph", *map(str, args)], catch_exceptions=False)


def graph_json(*args: str | Path) -> dict[str, Any]:
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout_bytes)


def _named(doc: dict[str, Any]) -> list[tuple[str, set, list]]:
    """Per input: nodes as (type, id), edges as (relation, source, target, annotation)."""
    out = []
    for graph in doc["inputs"]:
        by_key = {n["key"]: (n["type"], n["id"]) for n in graph["nodes"]}
        edges = [
            (e["relation"], by_key[e["source"]], by_key[e["target"]], e["annotation"])
            for e in graph["edges"]
        ]
        out.append((graph["input"], set(by_key.values()), edges))
    return out


def test_edges_are_the_relation_index_edges(rules: Path, inputs: Path) -> None:
    doc = graph_json(inputs, "-d", rules, "-d", RELATIONS_CORPUS / "rules")
    listing = list_relations([rules, RELATIONS_CORPUS / "rules"], [inputs], with_edges=True)
    expected = {
        (e.input, relation.name, e.left, e.right, json.dumps(e.annotation, sort_keys=True))
        for relation in listing.relations
        for e in relation.edges
    }
    found = {
        (name, relation, source[1], target[1], json.dumps(annotation, sort_keys=True))
        for name, _, edges in _named(doc)
        for relation, source, target, annotation in edges
    }
    assert found == expected and len(found) > 5
    apps = next(g for g in _named(doc) if g[0].endswith("apps.json"))
    assert ("app", TRICKY) in apps[1] and ("other", "o") in apps[1]
    assert ("app.uses", ("app", TRICKY), ("db", "main"), {"note": 'q"uote | #1 <b>'}) in apps[2]


def test_dot_parses_back_to_the_same_graph(rules: Path, inputs: Path) -> None:
    doc = graph_json(inputs, "-d", rules, "--with-results")
    dot = invoke(inputs, "-d", rules, "--with-results", "--format", "dot").stdout
    (parsed,) = pydot.graph_from_dot_data(dot)
    clusters = parsed.get_subgraphs()
    assert [_unquote(c.get_label()) for c in clusters] == [g["input"] for g in doc["inputs"]]
    for index, (cluster, graph) in enumerate(zip(clusters, doc["inputs"], strict=True)):
        nodes = {_unquote(n.get_name()): n for n in cluster.get_nodes() if n.get_name() != "node"}
        assert set(nodes) == {f"i{index}_{n['key']}" for n in graph["nodes"]}
        for node in graph["nodes"]:
            parsed_node = nodes[f"i{index}_{node['key']}"]
            label = _unquote(parsed_node.get_label())
            assert label.startswith(f"{node['type']}\n{node['id']}")
            assert ("\nfailing: " in label) == node["failing"]
            style = parsed_node.get("style")
            filled = style is not None and "filled" in _unquote(style)
            assert filled == node["failing"]
    edges = [
        (_unquote(e.get_source()), _unquote(e.get_destination()), _unquote(e.get_label()))
        for e in parsed.get_edges()
    ]
    expected = [
        (f"i{i}_{e['source']}", f"i{i}_{e['target']}", _edge_label(e))
        for i, g in enumerate(doc["inputs"])
        for e in g["edges"]
    ]
    assert edges == expected


def _unquote(text: str) -> str:
    """A DOT quoted string's value (pydot keeps the quotes and escapes)."""
    assert text.startswith('"') and text.endswith('"'), text
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append("\n" if nxt == "n" else nxt)
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def _edge_label(edge: dict[str, Any]) -> str:
    if edge["annotation"] is None:
        return edge["relation"]
    annotation = json.dumps(edge["annotation"], sort_keys=True, separators=(",", ":"))
    return f"{edge['relation']}\n{annotation}"


_MERMAID_NODE = re.compile(r'^    (i\d+_n\d+)\["([^"]*)"\]$')
_MERMAID_EDGE = re.compile(r'^  (i\d+_n\d+) -->\|"([^"|]*)"\| (i\d+_n\d+)$')
_MERMAID_SUBGRAPH = re.compile(r'^  subgraph (i\d+)\["([^"]*)"\]$')


def _mermaid_value(text: str) -> str:
    """A label's text: ``<br/>`` as line breaks, ``#code;`` entity codes decoded."""
    assert "<" not in text.replace("<br/>", "") and '"' not in text
    return html.unescape(re.sub(r"#(\d+);", r"&#\1;", text.replace("<br/>", "\n")))


def test_mermaid_parses_back_to_the_same_graph(rules: Path, inputs: Path) -> None:
    doc = graph_json(inputs, "-d", rules, "--with-results")
    text = invoke(inputs, "-d", rules, "--with-results", "--format", "mermaid").stdout
    lines = text.splitlines()
    assert lines[0] == "flowchart LR"
    subgraphs, nodes, edges, failing = [], {}, [], set()
    for line in lines[1:]:
        if m := _MERMAID_SUBGRAPH.match(line):
            subgraphs.append(_mermaid_value(m.group(2)))
        elif m := _MERMAID_NODE.match(line):
            nodes[m.group(1)] = _mermaid_value(m.group(2))
        elif m := _MERMAID_EDGE.match(line):
            edges.append((m.group(1), m.group(3), _mermaid_value(m.group(2))))
        elif line.startswith("  class "):
            failing = set(line.split()[1].split(","))
        else:
            assert line in ("  end",) or line.startswith("  classDef failing "), line
    assert subgraphs == [g["input"] for g in doc["inputs"]]
    expected_nodes = {
        f"i{i}_{n['key']}": n for i, g in enumerate(doc["inputs"]) for n in g["nodes"]
    }
    assert set(nodes) == set(expected_nodes)
    for key, label in nodes.items():
        node = expected_nodes[key]
        assert label.startswith(f"{node['type']}\n{node['id']}")
    assert failing == {k for k, n in expected_nodes.items() if n["failing"]}
    assert edges == [
        (f"i{i}_{e['source']}", f"i{i}_{e['target']}", _edge_label(e))
        for i, g in enumerate(doc["inputs"])
        for e in g["edges"]
    ]


def test_with_results_marks_the_failing_resources(rules: Path, inputs: Path) -> None:
    doc = graph_json(inputs, "-d", rules, "--with-results")
    assert doc["with_results"] is True
    apps = next(g for g in doc["inputs"] if g["input"].endswith("apps.json"))
    failing = {
        (n["type"], n["id"]): (n["rules"], n["severity"]) for n in apps["nodes"] if n["failing"]
    }
    assert failing == {("app", "web"): (["APP-1"], "High")}
    without = graph_json(inputs, "-d", rules)
    assert not any(n["failing"] for g in without["inputs"] for n in g["nodes"])


def test_type_filter_keeps_those_resources_and_the_edges_between_them(
    rules: Path, inputs: Path
) -> None:
    doc = graph_json(inputs / "apps.json", "-d", rules, "--type", "app")
    ((_, nodes, edges),) = _named(doc)
    assert {t for t, _ in nodes} == {"app"} and len(nodes) == 3
    assert {r for r, *_ in edges} == {"app.peer"}
    both = graph_json(inputs / "apps.json", "-d", rules, "--type", "app", "--type", "db")
    assert {r for _, _, edges in _named(both) for r, *_ in edges} == {"app.peer", "app.uses"}


def test_relation_filter_keeps_those_edges_and_their_ends(rules: Path, inputs: Path) -> None:
    doc = graph_json(inputs / "apps.json", "-d", rules, "--relation", "app.uses")
    ((_, nodes, edges),) = _named(doc)
    assert {r for r, *_ in edges} == {"app.uses"} and len(edges) == 2
    assert nodes == {("app", "web"), ("app", TRICKY), ("db", "main")}


def test_graph_output_is_deterministic_and_goes_to_a_file(
    rules: Path, inputs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "g.dot"
    first = invoke(inputs, "-d", rules, "--with-results", "-o", out)
    assert first.exit_code == 0 and first.stdout == ""
    again = invoke(inputs, "-d", rules, "--with-results")
    assert out.read_text() == again.stdout


def test_without_rules_the_shipped_relations_give_the_edges() -> None:
    graph = build_graph([EXAMPLES / "terraform"])
    (only,) = graph.inputs
    relations = {e.relation for e in only.edges}
    # shipped relations, and the reference relations the loader derives
    assert {"aws_s3_bucket.server_side_encryption_configuration", "aws_security_group"} <= relations
    assert {"references", "aws_cloudtrail.s3_bucket_name"} <= relations


def test_bad_options_and_inputs(rules: Path, inputs: Path, tmp_path: Path) -> None:
    assert CliRunner().invoke(app, ["graph", str(inputs), "--format", "svg"]).exit_code == 2
    both = ["graph", str(inputs), "-d", str(rules), "--bundle", str(tmp_path)]
    assert CliRunner().invoke(app, both).exit_code == 2
    write(inputs / "broken.json", "{")
    result = invoke(inputs, "-d", rules)
    assert result.exit_code == 2 and "broken.json" in result.stderr
    assert "digraph" in result.stdout  # the other inputs are still drawn


def test_escaping_functions() -> None:
    assert dot_id('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    assert mermaid_text('a"b#c<d>|e&`') == "a#34;b#35;c#60;d#62;#124;e#38;#96;"


def test_a_bundle_gives_the_same_graph(rules: Path, inputs: Path, tmp_path: Path) -> None:
    bundle = tmp_path / "rules.tar.gz"
    build_bundle([rules], bundle)
    from_bundle = invoke(inputs, "--bundle", bundle, "--with-results", "--format", "json")
    from_source = invoke(inputs, "-d", rules, "--with-results", "--format", "json")
    assert from_bundle.exit_code == 0
    assert from_bundle.stdout_bytes == from_source.stdout_bytes


def test_the_readme_tour_graph_runs_the_shipped_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without -d, --with-results runs the shipped rule pack; the output is the
    one the README's tour shows."""
    monkeypatch.chdir(REPO_ROOT)
    result = CliRunner().invoke(
        app,
        [
            "graph",
            "examples/kubernetes",
            "--relation",
            "Ingress.backend",
            "--relation",
            "Service.selector",
            "--format",
            "mermaid",
            "--with-results",
        ],
    )
    assert result.exit_code == 0, result.output
    readme = (REPO_ROOT / "docs" / "tour.md").read_text(encoding="utf-8")
    assert "```\n" + result.stdout + "```\n" in readme
    assert re.search(r"failing: [^\"]*RE-K8S-007", result.stdout)
