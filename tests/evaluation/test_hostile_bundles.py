"""Bundles are untrusted input: their hash is not a signature, so anyone can
rewrite a member and the hash with it. Reading one is bounded in memory and
refuses metadata of the wrong types with an error naming the bundle and the
field (exit 2), before any output format sees it.

Every hostile bundle is generated here; the memory probe runs in a
subprocess under ``RLIMIT_AS`` with a timeout.
"""

from __future__ import annotations

import gzip
import io
import json
import resource
import subprocess
import sys
import tarfile
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzz_boundaries import bundle_bytes, read_bundle_bytes
from hypothesis import HealthCheck, given, settings
from scan_fixtures import ACL_RULE, state, write, write_json

from engine.cli.main import app
from engine.evaluation import bundle as bundle_module
from engine.evaluation.bundle import MAX_BUNDLE_BYTES, BundleError, build_bundle, read_bundle

CONSOLE = Path(sys.executable).parent / "rego-engine"
GIB = 1 << 30


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    write(tmp_path / "rules" / "acl.rego", ACL_RULE)
    out = tmp_path / "rules.tar.gz"
    build_bundle([tmp_path / "rules"], out)
    return out


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    write_json(tmp_path / "inputs" / "s.json", state({"a": {"acl": "public-read"}}))
    return tmp_path / "inputs"


def _members(path: Path) -> dict[str, bytes]:
    with tarfile.open(path) as tar:
        return {
            m.name.lstrip("/"): tar.extractfile(m).read()  # type: ignore[union-attr]
            for m in tar.getmembers()
        }


def _rewrite(path: Path, changes: dict[str, bytes]) -> None:
    """Change members of the bundle at ``path`` and recompute its hash, as an
    attacker with a text editor and sha256 can."""
    members = {**_members(path), **changes}
    manifest = json.loads(members.pop(bundle_module.MANIFEST))
    digest = bundle_module.content_hash(members, manifest)
    manifest["revision"] = digest
    manifest["metadata"]["rego_engine"]["content_hash"] = digest
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        rewritten = {bundle_module.MANIFEST: json.dumps(manifest).encode(), **members}
        for name, data in rewritten.items():
            info = tarfile.TarInfo("/" + name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(gzip.compress(raw.getvalue()))


def _scan(bundle: Path, inputs: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app, ["scan", str(inputs), "--bundle", str(bundle), *args], catch_exceptions=False
    )
    return result.exit_code, result.stdout, result.stderr


def test_a_rewritten_bundle_with_its_hash_recomputed_still_scans(
    bundle: Path, inputs: Path
) -> None:
    """The rewriting helper itself: an unchanged rewrite is accepted."""
    _rewrite(bundle, {})
    code, stdout, _ = _scan(bundle, inputs)
    assert code == 1 and json.loads(stdout)["results"]


def _rules_doc(bundle: Path) -> list[dict]:
    return json.loads(_members(bundle)[bundle_module.RULES])


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("severity", {"x": 1}, "metadata.severity is an object, not a string"),
        ("title", 7, "metadata.title is a number, not a string"),
        ("id", None, "metadata.id is null, not a string"),
        ("labels", "x", "metadata.labels is a string, not an array"),
    ],
)
@pytest.mark.parametrize("fmt", ["sarif", "junit", "github", "table", "json"])
def test_rule_metadata_of_the_wrong_type_is_refused_naming_the_field(
    bundle: Path, inputs: Path, field: str, value: object, message: str, fmt: str
) -> None:
    rules = _rules_doc(bundle)
    rules[0]["metadata"][field] = value
    _rewrite(bundle, {bundle_module.RULES: json.dumps(rules).encode()})
    code, _, stderr = _scan(bundle, inputs, "--format", fmt)
    assert code == 2
    assert f"{bundle}: rego-engine/rules.json: rule 0 (rules.public_acl) {message}" in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r[0].pop("resource_type"), "rule 0 has no resource_type"),
        (lambda r: r[0].update(resource_type=["x"]), "resource_type is an array, not a string"),
        (lambda r: r[0].update(input_type=1), "input_type is a number, not a string or null"),
        (lambda r: r[0].update(metadata=[]), "metadata is an array, not an object"),
        (lambda r: r.__setitem__(0, "x"), "rule 0 is a string, not an object"),
    ],
)
def test_malformed_rule_statics_are_refused_naming_the_field(
    bundle: Path, inputs: Path, change, message: str
) -> None:
    rules = _rules_doc(bundle)
    change(rules)
    _rewrite(bundle, {bundle_module.RULES: json.dumps(rules).encode()})
    with pytest.raises(BundleError, match=r"rules\.json") as caught:
        read_bundle(bundle)
    assert message in str(caught.value) and str(bundle) in str(caught.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{not json", "data.json is not valid JSON"),
        (b"[1, 2]", "data.json is an array, not an object"),
        (b"\xff\xfe", "data.json is not valid JSON"),
    ],
)
@pytest.mark.parametrize("fmt", ["sarif", "table"])
def test_an_invalid_data_document_is_refused_naming_it(
    bundle: Path, inputs: Path, data: bytes, message: str, fmt: str
) -> None:
    _rewrite(bundle, {bundle_module.DATA: data})
    code, _, stderr = _scan(bundle, inputs, "--format", fmt)
    assert code == 2
    assert f"{bundle}: {message}" in stderr
    assert "internal error" not in stderr


def test_members_adding_up_past_the_limit_are_refused_naming_it(
    bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes = [len(d) for d in _members(bundle).values()]
    # Every member fits on its own; together they do not.
    monkeypatch.setattr(bundle_module, "MAX_BUNDLE_BYTES", sum(sizes) - 1)
    assert max(sizes) < sum(sizes) - 1
    with pytest.raises(BundleError) as caught:
        read_bundle(bundle)
    text = str(caught.value)
    assert text.startswith(f"{bundle}: members add up to more than the bundle limit of ")


def _zero_bomb(path: Path, members: int, size: int) -> None:
    """A gzipped tar of ``members`` members of ``size`` zero bytes, small on
    disk: the compressed zeros are made once and repeated (gzip streams may
    be concatenated)."""
    compressor = zlib.compressobj(1, zlib.DEFLATED, 31)
    block = bytes(1 << 24)
    zeros = b"".join(compressor.compress(block) for _ in range(size // len(block)))
    zeros += compressor.flush()
    with path.open("wb") as out:
        for index in range(members):
            info = tarfile.TarInfo(f"/src/{index:05d}/z.rego")
            info.size = size
            out.write(gzip.compress(info.tobuf(tarfile.PAX_FORMAT)))
            out.write(zeros)
        out.write(gzip.compress(bytes(2 * tarfile.BLOCKSIZE)))


def _cap_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 * GIB // 2, 3 * GIB // 2))


def test_a_bundle_of_gigabytes_of_zeros_is_refused_without_reading_it(
    tmp_path: Path, inputs: Path
) -> None:
    """Four 1 GiB members in an 18 MB file: refused at the first header, under a
    1.5 GiB address-space cap (reading them took 4.2 GB)."""
    bomb = tmp_path / "zeros.tar.gz"
    _zero_bomb(bomb, 4, GIB)
    assert bomb.stat().st_size < 32 << 20
    proc = subprocess.run(
        [str(CONSOLE), "scan", str(inputs), "--bundle", str(bomb)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_cap_address_space,
        env={"PATH": "/usr/bin:/bin", "REGO_ENGINE_CACHE": str(tmp_path / "cache")},
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert (
        f"{bomb}: members add up to more than the bundle limit of "
        f"{MAX_BUNDLE_BYTES >> 20} MiB (at member /src/00000/z.rego" in proc.stderr
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bundle_bytes)
def test_random_and_mutated_bundles_give_rules_or_an_error_naming_the_file(data: bytes) -> None:
    read_bundle_bytes(data)
