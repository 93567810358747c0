"""Fuzz targets for what an attacker hands the engine besides inputs: a bundle
file, and a policy module written by hand.

- :func:`read_bundle_bytes`: any bytes as a bundle (random, a real bundle's
  tar with bytes replaced, a real bundle with a member rewritten and its hash
  recomputed) give rules or a :class:`BundleError` naming the file.
- :func:`host_boundary`: a hand-made module (:mod:`hostile_module`) handing
  the host random addresses, and inputs of random lengths written at them,
  evaluates or fails with an error naming the module; the process never
  crashes (run it in a subprocess: a crash is the bug it looks for).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import sys
import tarfile
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from engine.evaluation import bundle as bundle_module
from engine.evaluation.bundle import BundleError, build_bundle, read_bundle
from engine.wasm.host import EvalError, PolicyInstance

sys.path.insert(0, str(Path(__file__).parent / "wasm"))
from hostile_module import MEMORY_BYTES, hostile_policy

_RULE = """package rules.acl
import rego.v1

deny contains msg if {
    some name, b in input.resources.aws_s3_bucket
    b.acl == "public-read"
    msg := sprintf("%s is public", [name])
}
"""


@cache
def _seed_members() -> dict[str, bytes]:
    """The members of a real bundle built from one rule."""
    with tempfile.TemporaryDirectory() as tmp:
        rules = Path(tmp) / "rules"
        rules.mkdir()
        (rules / "acl.rego").write_text(_RULE)
        out = Path(tmp) / "rules.tar.gz"
        build_bundle([rules], out)
        with tarfile.open(out) as tar:
            return {
                m.name.lstrip("/"): tar.extractfile(m).read()  # type: ignore[union-attr]
                for m in tar.getmembers()
            }


def _tar(members: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo("/" + name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return raw.getvalue()


def _edit(raw: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    for at, cut, junk in edits:
        at = at % (len(raw) + 1)
        raw = raw[:at] + junk + raw[at + cut :]
    return raw


def _mutated_tar(edits: list[tuple[int, int, bytes]]) -> bytes:
    """The real bundle's tar with bytes replaced, cut or inserted, compressed again."""
    return gzip.compress(_edit(_tar(_seed_members()), edits))


def _rewritten(index: int, edits: list[tuple[int, int, bytes]]) -> bytes:
    """The real bundle with one member edited and its hash recomputed (the hash
    is not a signature)."""
    members = dict(_seed_members())
    manifest = json.loads(members.pop(bundle_module.MANIFEST))
    name = sorted(members)[index % len(members)]
    members[name] = _edit(members[name], edits)
    digest = bundle_module.content_hash(members, manifest)
    manifest["revision"] = digest
    manifest["metadata"]["rego_engine"]["content_hash"] = digest
    return gzip.compress(_tar({bundle_module.MANIFEST: json.dumps(manifest).encode(), **members}))


_EDITS = st.lists(
    st.tuples(
        st.integers(0, 1 << 20),
        st.integers(0, 16),
        st.binary(max_size=6) | st.sampled_from([b"{", b"[", b"null", b'"x"', b"-1", b"\x00"]),
    ),
    min_size=1,
    max_size=4,
)

bundle_bytes = st.one_of(
    st.binary(max_size=600),
    st.binary(max_size=600).map(gzip.compress),
    _EDITS.map(_mutated_tar),
    st.builds(_rewritten, st.integers(0, 20), _EDITS),
)
"""Bytes to read as a bundle: random, a real bundle's tar mutated, or a member rewritten."""


def read_bundle_bytes(data: bytes) -> None:
    """Read ``data`` as a bundle: rules, or a :class:`BundleError` naming the file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rules.tar.gz"
        path.write_bytes(data)
        try:
            read_bundle(path)
        except BundleError as exc:
            assert str(exc).startswith(f"{path}: "), exc


_ADDRESSES = (
    st.integers(0, (1 << 32) - 1)
    | st.integers(MEMORY_BYTES - 16, MEMORY_BYTES + 16)
    | st.integers(0, 256)
)

host_cases = st.fixed_dictionaries(
    {
        "malloc": _ADDRESSES,
        "dump": _ADDRESSES,
        "println": st.none() | _ADDRESSES,
        "abort": st.none() | _ADDRESSES,
        "input_length": st.none() | st.integers(0, 2 * MEMORY_BYTES),
    }
)
"""Addresses the hand-made module hands the host, and input lengths written there."""


def host_boundary(case: dict[str, int | None]) -> None:
    """Evaluate the hand-made module: results, or an error naming the module."""
    case = dict(case)
    length = case.pop("input_length")
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # what the module prints
            instance = PolicyInstance(hostile_policy(**case))  # type: ignore[arg-type]
            if length is not None:
                instance.set_input(b'"' + b"x" * max(length - 2, 0) + b'"')
            instance.evaluate("main")
    except EvalError as exc:
        assert "policy module hand-made" in str(exc) or "evaluation" in str(exc), exc
