"""The YAML document loader builds plain documents itself and gives what PyYAML's
safe constructor gives (values, types, key order and errors) for every document."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from engine.inputs.loaders import yaml_documents
from engine.inputs.loaders.yaml_documents import _TemplateLoader, compose_documents


def _pyyaml_documents(raw: bytes) -> list[Any]:
    """The documents as PyYAML's own ``construct_document`` builds them."""
    loader = _TemplateLoader(raw)
    documents = []
    try:
        while loader.check_node():
            document = loader.construct_document(loader.get_node())
            if document is not None:
                documents.append(document)
    finally:
        loader.dispose()
    return documents


def _outcome(load: Any, raw: bytes) -> str:
    """The documents' repr (types and key order show), or the error raised."""
    try:
        return repr(load(raw))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


CASES = [
    "a: 1\nb: [x, 'y', \"z\", ~, null, Null, '']\nc: {d: true, e: no, f: On}\n",
    "ints: [0, -1, +2, 0x1F, 0o17, 017, 0b101, 1_000, 1:30, 9223372036854775808]\n",
    "floats: [1.5, -.5, 1e3, 1.0e+3, .inf, -.Inf, .nan, 1:30.5]\nstr: !!str 1\n",
    "when: 2024-01-02\nat: 2024-01-02T03:04:05Z\nbin: !!binary aGVsbG8=\n",
    "1: int key\n1.5: float key\ntrue: bool key\n~: null key\n2024-01-02: date key\n",
    "'1': quoted\n1: plain\n01: octal\n",
    "set: !!set {a, b}\nomap: !!omap [{a: 1}, {b: 2}]\npairs: !!pairs [{a: 1}, {a: 2}]\n",
    "base: {a: 1}\nmerged:\n  <<: {a: 2, b: 3}\n  c: 4\n",
    "merged:\n  <<: [{a: 1}, {b: 2}]\n  a: 0\n",
    "bad merge:\n  <<: 1\n",
    "=: value key\nx: 1\n",
    "a: 1\nb: 2\na: 3\n",
    "outer:\n  inner: 1\n  inner: 2\nlater: !Nope x\n",
    "first: !Nope x\nouter:\n  inner: 1\n  inner: 2\n",
    "? [a, b]\n: list key\n",
    "? {a: 1}\n: map key\n",
    "!Ref k: tagged key\n",
    "r: !Ref x\ng: !GetAtt a.b\ns: !Sub [x, {y: !Ref z}]\nj: !Join ['', [a, !Ref b]]\n",
    "c: !Condition cond\nn: !If [c, {a: 1}, !Ref AWS::NoValue]\n",
    "x: !!bool maybe\n",
    "x: !!int nope\n",
    "x: !!float nope\n",
    "x: !!map [1]\n",
    "x: !!seq {a: 1}\n",
    "x: !!str {a: 1}\n",
    "x: !!null 5\n",
    "--- {a: 1}\n---\n--- [1, 2]\n...\n--- text\n",
    "a: &x {b: 1}\nc: *x\nd:\n  <<: *x\n  e: 2\n",
    "a: &x [1, 2]\nb: *x\n",
    "deep: " + "[" * 40 + "1" + "]" * 40 + "\n",
    "deeper than Python recurses: " + "{k: " * 600 + "1" + "}" * 600 + "\n",
    "k: v\n" * 3 + "list:\n" + "".join(f"  - {{name: n{i}, value: {i}}}\n" for i in range(20)),
    "tab:\t1\n",
    "a: [1, 2\n",
    "a: b: c\n",
    "- 1\n- {a: 2}\n- [3, {b: [4]}]\n",
    "yes: no\nOn: Off\n",
]


@pytest.mark.parametrize("text", CASES)
def test_documents_are_what_pyyaml_builds(text: str) -> None:
    raw = text.encode()
    assert _outcome(compose_documents, raw) == _outcome(_pyyaml_documents, raw)


def test_plain_documents_are_built_without_pyyaml_s_constructor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []
    constructed = _TemplateLoader.construct_object

    def counted(self: _TemplateLoader, node: yaml.Node, deep: bool = False) -> Any:
        calls.append(node.tag)
        return constructed(self, node, deep)

    monkeypatch.setattr(_TemplateLoader, "construct_object", counted)
    manifest = b"apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: b}}\nspec:\n"
    manifest += b"  containers:\n  - {name: c, image: i, ports: [{containerPort: 80}]}\n"
    manifest += b"  hostNetwork: false\n  priority: null\n"
    (document,) = compose_documents(manifest)
    assert document["spec"]["containers"][0]["ports"] == [{"containerPort": 80}]
    assert calls == []
    compose_documents(b"a: 1.5\nb: !Ref x\n")
    assert sorted(calls) == ["!Ref", "tag:yaml.org,2002:float"]


def test_a_plain_scalar_s_tag_is_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    resolve = yaml.resolver.BaseResolver.resolve

    def counted(self: Any, kind: Any, value: str, implicit: Any) -> str:
        calls.append(value)
        return resolve(self, kind, value, implicit)

    monkeypatch.setattr(yaml.resolver.BaseResolver, "resolve", counted)
    monkeypatch.setattr(yaml_documents, "_RESOLVED", {})
    documents = compose_documents(b"- {Type: x, Ref: y}\n- {Type: z, Ref: 7}\n- {Type: x}\n")
    assert documents == [[{"Type": "x", "Ref": "y"}, {"Type": "z", "Ref": 7}, {"Type": "x"}]]
    scalars = [value for value in calls if value]
    assert sorted(scalars) == ["7", "Ref", "Type", "x", "y", "z"]
