"""Fuzz targets shared by the property tests and ``bench/fuzz.py``.

- :func:`load_file`: any bytes, under any IaC file name, load to States or to
  problems naming the file; never an exception, never an internal error.
- :func:`json_round_trip`: a JSON value parsed into Wasm memory (as inputs
  are) reads back equal, through OPA's dump and through the memory reader.
"""

from __future__ import annotations

import json
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from engine.inputs.discovery import load_inputs
from engine.rules.compiler import compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm import values
from engine.wasm.host import PolicyInstance

NAMES = ("x.json", "x.yaml", "x.yml", "main.tf", "x.tf.json", "x.template", "terraform.tfstate")

_KEYS = st.sampled_from(
    [
        "resource",
        "resources",
        "Resources",
        "Type",
        "Properties",
        "apiVersion",
        "kind",
        "metadata",
        "name",
        "spec",
        "format_version",
        "planned_values",
        "resource_changes",
        "values",
        "AWSTemplateFormatVersion",
        "$schema",
        "contentVersion",
        "input_type",
        "Fn::GetAtt",
        "Ref",
        "Fn::Sub",
        "variable",
        "locals",
        "type",
        "id",
        "attributes",
    ]
) | st.text(max_size=6)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=5),
    max_leaves=30,
)


def _as_text(value: Any, style: str) -> bytes:
    if style == "yaml":
        return yaml.safe_dump(value).encode()
    return json.dumps(value).encode()


file_contents = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    st.tuples(json_values, st.sampled_from(["json", "yaml"])).map(lambda v: _as_text(*v)),
    # a valid document with a few bytes flipped
    st.tuples(json_values, st.integers(0, 10_000), st.binary(min_size=1, max_size=3)).map(
        lambda v: _splice(json.dumps(v[0]).encode(), v[1], v[2])
    ),
)


_CORPUS = Path(__file__).parent / "loaders"
SEEDS = sorted(
    (p.name, p.read_bytes())
    for p in _CORPUS.rglob("*")
    if p.is_file()
    and p.name.endswith((".json", ".yaml", ".yml", ".tf", ".template"))
    and not p.name.startswith("expected")
    and p.stat().st_size < 20_000
)
"""Real inputs of every format (the loader goldens), to mutate."""


def _mutate(seed: tuple[str, bytes], edits: list[tuple[int, int, bytes]]) -> tuple[str, bytes]:
    name, raw = seed
    for at, cut, junk in edits:
        at = at % (len(raw) + 1)
        raw = raw[:at] + junk + raw[at + cut :]
    return name, raw


mutated_seeds = st.builds(
    _mutate,
    st.sampled_from(SEEDS),
    st.lists(
        st.tuples(
            st.integers(0, 20_000),
            st.integers(0, 8),
            st.binary(max_size=4) | st.sampled_from([b"[", b"{", b"&a ", b"*a", b"- ", b"\n  "]),
        ),
        max_size=4,
    ),
)
"""A real input with a few bytes replaced, cut or inserted (YAML and JSON syntax favoured)."""


def _splice(raw: bytes, at: int, junk: bytes) -> bytes:
    at = at % (len(raw) + 1)
    return raw[:at] + junk + raw[at + len(junk) :]


def load_file(name: str, content: bytes) -> None:
    """Load one file: States or problems naming it, nothing else."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(content)
        loaded = load_inputs([path])
    for problem in loaded.problems:
        assert "internal error" not in problem.message, (content, problem)
        # a Terraform module's problem names the file, or its directory
        assert problem.path.endswith(name) or problem.path == tmp, problem
    for scan_input in loaded.inputs:
        assert scan_input.state.document["resources"] is not None


_PROBE = """package probe
import rego.v1
copy := input
"""


@cache
def probe_instance() -> PolicyInstance:
    sources = PolicySources([RegoFile(Path("probe.rego"), "probe.rego", _PROBE, 1)], {}, [])
    return PolicyInstance(compile_policy(sources, ["probe/copy"]))


def json_round_trip(value: Any) -> None:
    """``value`` parsed into Wasm memory as an input reads back equal."""
    instance = probe_instance()
    instance.set_input(values.dumps(value, finite=True))
    dumped = values.parse(instance.json_dump(instance.input_addr))
    assert values.freeze(dumped) == values.freeze(value)
    assert values.freeze(instance.reader().read(instance.input_addr)) == values.freeze(value)
    (copied,) = instance.evaluate("probe/copy")
    assert values.freeze(copied) == values.freeze(value)
