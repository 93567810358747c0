"""Kubernetes manifests' YAML read as kubectl reads it (``sigs.k8s.io/yaml``, go-yaml v2),
checked on a table of scalars and merges against a Go program built from that library."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine.inputs.kubectl_yaml import KubectlYamlError, kubectl_documents

ORACLE_SOURCE = Path(__file__).parent.parent / "oracles" / "kubectl_yaml"

# Each plain scalar and the value kubectl gives it.
SCALARS: list[tuple[str, Any]] = [
    ("y", True),
    ("Y", True),
    ("yes", True),
    ("on", True),
    ("ON", True),
    ("n", False),
    ("no", False),
    ("off", False),
    ("Off", False),
    ("true", True),
    ("False", False),
    ("yES", "yES"),
    ("~", None),
    ("null", None),
    ("", None),
    ("0777", 511),
    ("0o17", 15),
    ("0x1F", 31),
    ("-0x1F", -31),
    ("0b101", 5),
    ("-0b101", -5),
    ("1_000", 1000),
    ("+12", 12),
    ("08", 8),
    ("1e3", 1000),
    ("1.0", 1),
    (".5", 0.5),
    ("-.5e1", -5),
    ("6.02e+23", 6.02e23),
    ("12345678901234567890", 12345678901234567890),
    ("2001-12-14", "2001-12-14"),
    ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
    ("1:20", "1:20"),
    ("0x", "0x"),
    ("1.2.3", "1.2.3"),
    ('"y"', "y"),
    ("'0777'", "0777"),
    ("!!str on", "on"),
    ("!!binary aGVsbG8=", "hello"),
    ("!custom text", "text"),
    ("privileged", "privileged"),
]

# Documents with merge keys, duplicate keys and non-string keys, and their JSON.
DOCUMENTS: list[tuple[str, Any]] = [
    (  # a later merge beats an earlier explicit key
        "base: &b {privileged: true}\nc:\n  privileged: false\n  <<: *b\n",
        {"base": {"privileged": True}, "c": {"privileged": True}},
    ),
    (  # an explicit key after the merge beats it
        "base: &b {privileged: true}\nc:\n  <<: *b\n  privileged: false\n",
        {"base": {"privileged": True}, "c": {"privileged": False}},
    ),
    (  # in a merged list the first mapping wins
        "a: &a {p: 1}\nb: &b {p: 2, q: 2}\nc:\n  <<: [*a, *b]\n",
        {"a": {"p": 1}, "b": {"p": 2, "q": 2}, "c": {"p": 1, "q": 2}},
    ),
    ("a: 1\na: 2\n", {"a": 2}),
    ("1: one\ntrue: yes\n1.5: x\n", {"1": "one", "true": True, "1.5": "x"}),
    ("on: x\n", {"true": "x"}),
    ("a: .inf\n", "error"),
    ("? ~\n: x\n", "error"),
]


def _scalar_document() -> str:
    return "".join(f"k{i}: {text}\n" for i, (text, _) in enumerate(SCALARS))


def _same(got: Any, want: Any) -> None:
    """Equal values of equal JSON types (``True == 1`` in Python)."""
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def _ours(text: str) -> Any:
    [document] = kubectl_documents(text.encode())
    return "error" if isinstance(document, KubectlYamlError) else document


def test_scalars_resolve_as_kubectl_reads_them() -> None:
    expected = {f"k{i}": value for i, (_, value) in enumerate(SCALARS)}
    _same(_ours(_scalar_document()), expected)


@pytest.mark.parametrize(("text", "expected"), DOCUMENTS)
def test_documents_read_as_kubectl_reads_them(text: str, expected: Any) -> None:
    _same(_ours(text), expected)


def test_documents_of_a_stream_keep_their_places() -> None:
    stream = b"a: 1\n---\n---\nb: .nan\n---\nc: y\n"
    [first, refused, last] = kubectl_documents(stream)
    assert first == {"a": 1} and last == {"c": True}
    assert isinstance(refused, KubectlYamlError) and refused.line == 4


@pytest.fixture(scope="module")
def kubectl_yaml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The oracle, built from ``tests/oracles/kubectl_yaml`` (Go and the module proxy)."""
    if shutil.which("go") is None:
        if os.environ.get("CI"):
            pytest.fail("Go is needed to build the kubectl YAML oracle")
        pytest.skip("Go is not installed")
    binary = tmp_path_factory.mktemp("oracle") / "kubectl_yaml"
    subprocess.run(
        ["go", "build", "-o", str(binary), "."],
        cwd=ORACLE_SOURCE,
        check=True,
        capture_output=True,
        timeout=600,
    )
    return binary


def _oracle(binary: Path, text: str) -> Any:
    out = subprocess.run(
        [str(binary)], input=text, capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    return "error" if out.startswith("error:") else json.loads(out)


def test_the_scalar_table_matches_kubectl(kubectl_yaml: Path) -> None:
    _same(_oracle(kubectl_yaml, _scalar_document()), _ours(_scalar_document()))


@pytest.mark.parametrize(("text", "expected"), DOCUMENTS)
def test_the_documents_match_kubectl(kubectl_yaml: Path, text: str, expected: Any) -> None:
    _same(_oracle(kubectl_yaml, text), expected)
