"""Precompiled bundles: ``rego-engine build`` and ``scan --bundle``.

The round trip runs the bundle scan as a subprocess on a machine state with
no ``opa`` anywhere (not on PATH, no ``REGO_ENGINE_OPA``, an empty cache) and
compares its results document with a scan from source, byte for byte.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from scan_fixtures import (
    ACL_RULE,
    BROKEN_RULE,
    DERIVED_RULES,
    ENC_RULE,
    copy_sample_inputs,
    state,
    write,
    write_json,
)

import engine
from engine.cli.main import app
from engine.core.paths import REGO_RULES_DIR, REPO_ROOT
from engine.evaluation import bundle as bundle_module
from engine.evaluation.bundle import BundleError, build_bundle, read_bundle
from engine.evaluation.evaluator import RuleEvaluator
from engine.rules.opa import find_opa
from engine.rules.rule_set import compile_rule_set
from engine.rules.sources import load_sources

CORPUS = REPO_ROOT / "tests" / "scan_corpus"
CONSOLE = Path(sys.executable).parent / "rego-engine"

LIBRARY = """\
package lib.names
import rego.v1

bad_acl(acl) if acl in data.config.bad_acls
"""

DATA_RULE = """\
package rules.data_acl
import rego.v1
import data.lib.names

metadata := {"id": "D1", "title": "acl from data", "severity": "Medium"}
resource_type := "aws_s3_bucket"

deny contains info if {
  names.bad_acl(input.acl)
  info := {"message": "bad acl"}
}
"""


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    """Rules of every kind a bundle must carry: v1 and v0 corpus rules, a helper
    library reading a data document, a broken rule (set aside)."""
    directory = tmp_path / "rules"
    shutil.copytree(CORPUS / "rules", directory / "corpus")
    write(directory / "mine" / "enc.rego", ENC_RULE)
    write(directory / "mine" / "acl.rego", ACL_RULE)
    write(directory / "mine" / "data_acl.rego", DATA_RULE)
    write(directory / "mine" / "lib.rego", LIBRARY)
    write(directory / "mine" / "broken.rego", BROKEN_RULE)
    write_json(directory / "config" / "data.json", {"bad_acls": ["public-read"]})
    return directory


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    directory = copy_sample_inputs(tmp_path / "inputs")
    write_json(directory / "buckets.json", state({"a": {"acl": "public-read"}, "b": {}}))
    return directory


def _no_opa_env(cache: Path) -> dict[str, str]:
    """The environment of a machine with no opa: no override, an empty cache,
    and a PATH holding only the system directories (no opa there)."""
    env = {k: v for k, v in os.environ.items() if k != "REGO_ENGINE_OPA"}
    env["REGO_ENGINE_CACHE"] = str(cache)
    env["PATH"] = "/usr/bin:/bin"
    return env


def _run(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run([str(CONSOLE), *args], cwd=cwd, env=env, capture_output=True, timeout=600)


def test_scan_with_a_bundle_needs_no_opa_and_gives_the_same_results(
    tmp_path: Path, rules: Path, inputs: Path
) -> None:
    built = _run(["build", "-d", "rules", "-o", "rules.tar.gz"], cwd=tmp_path)
    assert built.returncode == 2, built.stderr  # the broken rule is set aside and reported
    assert b"rules/mine/broken.rego:5" in built.stderr
    from_source = _run(["scan", "inputs", "-d", "rules"], cwd=tmp_path)
    assert from_source.returncode == 2  # the broken rule

    cache = tmp_path / "empty-cache"
    cache.mkdir()
    env = _no_opa_env(cache)
    probe = subprocess.run(
        [sys.executable, "-c", "from engine.rules.opa import find_opa; find_opa()"],
        env=env,
        capture_output=True,
    )
    assert b"OpaNotFound" in probe.stderr, "this machine state must have no opa"
    from_bundle = _run(["scan", "inputs", "--bundle", "rules.tar.gz"], cwd=tmp_path, env=env)

    assert from_bundle.returncode == from_source.returncode
    assert from_bundle.stderr == from_source.stderr
    assert from_bundle.stdout == from_source.stdout
    doc = json.loads(from_bundle.stdout)
    packages = {r["package"] for e in doc["results"] for r in e["rule_results"]}
    assert {"data.rules.data_acl", "data.rules.enc", "data.rules.broken"} <= packages
    assert any(r["results"] for e in doc["results"] for r in e["rule_results"])
    # No compile step: the scan cached native code and the HCL parser's tables, no
    # compiled modules or prepared rules.
    assert sorted(p.name for p in cache.iterdir()) == ["hcl-parser", "native"]


def test_library_api_builds_and_scans_with_a_bundle(
    tmp_path: Path, rules: Path, inputs: Path
) -> None:
    out = tmp_path / "b.tar.gz"
    prepared = engine.build_bundle([rules], out)
    assert [f.rule.package for f in prepared.rule_set.failed] == ["rules.broken"]
    with_bundle = engine.scan([inputs], [], engine.ScanOptions(bundle=out))
    from_source = engine.scan([inputs], [rules])
    assert with_bundle.to_json() == from_source.to_json()


def test_a_bundle_is_an_opa_bundle_with_a_manifest(tmp_path: Path, rules: Path) -> None:
    out = tmp_path / "b.tar.gz"
    build_bundle([rules], out)
    with tarfile.open(out) as tar:
        names = {m.name.lstrip("/") for m in tar.getmembers()}
        manifest = json.loads(tar.extractfile("/.manifest").read())  # type: ignore[union-attr]
    assert {".manifest", "policy.wasm", "data.json"} <= names
    assert {"rego-engine/ruleset.json", "rego-engine/rules.json"} <= names
    ours = manifest["metadata"]["rego_engine"]
    assert ours["engine_version"] == bundle_module.engine_version()
    assert ours["opa_version"] == "v1.22.2"
    assert ours["wasm_abi"].startswith("1.")
    assert (
        ours["content_hash"].startswith("sha256:") and manifest["revision"] == ours["content_hash"]
    )
    assert manifest["file_rego_versions"]  # the corpus has v0 files
    inspected = subprocess.run(
        [str(find_opa().path), "inspect", "--format", "json", str(out)],
        capture_output=True,
        text=True,
    )
    assert inspected.returncode == 0, inspected.stderr
    assert json.loads(inspected.stdout)["manifest"]["revision"] == ours["content_hash"]


def test_building_twice_gives_the_same_bytes(tmp_path: Path, rules: Path) -> None:
    build_bundle([rules], tmp_path / "a.tar.gz")
    build_bundle([rules], tmp_path / "b.tar.gz")
    assert (tmp_path / "a.tar.gz").read_bytes() == (tmp_path / "b.tar.gz").read_bytes()


def test_a_bundle_carries_the_rules_static_facts(tmp_path: Path, rules: Path) -> None:
    out = tmp_path / "b.tar.gz"
    build_bundle([rules], out)
    prepared = read_bundle(out)
    assert prepared.statics is not None
    packages = [r.package for r in prepared.rule_set.rules]
    by_package = dict(zip(packages, prepared.statics, strict=True))
    acl = by_package["rules.public_acl"]
    assert (acl.resource_type, acl.metadata.id, acl.metadata.severity) == (
        "aws_s3_bucket",
        "T2",
        "low",
    )


def test_a_bundle_carries_the_index_parts_its_rules_query(tmp_path: Path) -> None:
    out = tmp_path / "b.tar.gz"
    build_bundle([REGO_RULES_DIR], out)
    compiled = compile_rule_set(load_sources([REGO_RULES_DIR]))
    assert compiled.index_parts  # the shipped pack names its relations literally
    assert read_bundle(out).rule_set.index_parts == compiled.index_parts


# ---------------------------------------------------------------- refusals


def _members(path: Path) -> dict[str, bytes]:
    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]


def _repack(path: Path, members: dict[str, bytes]) -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(gzip.compress(raw.getvalue()))


def _scan_with(bundle: Path, inputs: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["scan", str(inputs), "--bundle", str(bundle)], catch_exceptions=False
    )
    return result.exit_code, result.stderr


def _build_small(tmp_path: Path, name: str) -> Path:
    """A bundle of the one-rule tree ``tmp_path/small`` written to ``tmp_path/name``."""
    directory = tmp_path / "small"
    write(directory / "acl.rego", ACL_RULE)
    out = tmp_path / name
    build_bundle([directory], out)
    return out


@pytest.fixture
def small_bundle(tmp_path: Path) -> Path:
    return _build_small(tmp_path, "small.tar.gz")


def test_a_bundle_from_another_engine_version_is_refused(
    tmp_path: Path, inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle_module, "engine_version", lambda: "0.0.9")
    out = _build_small(tmp_path, "old.tar.gz")
    monkeypatch.undo()
    code, stderr = _scan_with(out, inputs)
    assert code == 2
    assert f"{out}: built by rego-engine 0.0.9" in stderr
    assert f"this is rego-engine {bundle_module.engine_version()}" in stderr
    assert "rebuild it with rego-engine build" in stderr


@pytest.mark.parametrize(
    "member",
    ["/policy.wasm", "/rego-engine/rules.json", "/rego-engine/ruleset.json", "/data.json"],
)
def test_a_tampered_bundle_is_refused(small_bundle: Path, inputs: Path, member: str) -> None:
    members = _members(small_bundle)
    data = members[member]
    if member == "/rego-engine/rules.json":
        data = data.replace(b'"low"', b'"critical"')
    else:
        data = data[:-1] + bytes([data[-1] ^ 1])
    assert data != members[member]
    members[member] = data
    _repack(small_bundle, members)
    code, stderr = _scan_with(small_bundle, inputs)
    assert code == 2
    assert f"{small_bundle}: content does not match the manifest's hash" in stderr


def test_a_bundle_with_an_added_or_removed_member_is_refused(
    small_bundle: Path, inputs: Path
) -> None:
    members = _members(small_bundle)
    _repack(small_bundle, {**members, "/extra.rego": b"package extra\n"})
    assert "does not match the manifest's hash" in _scan_with(small_bundle, inputs)[1]
    del members["/rego-engine/rules.json"]
    _repack(small_bundle, members)
    code, stderr = _scan_with(small_bundle, inputs)
    assert code == 2 and str(small_bundle) in stderr


def test_a_truncated_bundle_is_refused(small_bundle: Path, inputs: Path) -> None:
    data = small_bundle.read_bytes()
    small_bundle.write_bytes(data[: len(data) // 2])
    code, stderr = _scan_with(small_bundle, inputs)
    assert code == 2
    assert f"{small_bundle}: not a bundle" in stderr


def test_files_that_are_not_bundles_are_refused(tmp_path: Path, inputs: Path) -> None:
    json_file = write_json(tmp_path / "state.json", state({}))
    code, stderr = _scan_with(json_file, inputs)
    assert code == 2 and f"{json_file}: not a bundle" in stderr
    code, stderr = _scan_with(tmp_path / "missing.tar.gz", inputs)
    assert code == 2 and f"{tmp_path / 'missing.tar.gz'}: no such file" in stderr
    code, stderr = _scan_with(tmp_path, inputs)
    assert code == 2 and f"{tmp_path}: is a directory" in stderr
    plain = tmp_path / "plain.tar.gz"
    _repack(plain, {"/data.json": b"{}"})
    code, stderr = _scan_with(plain, inputs)
    assert code == 2 and f"{plain}: not a bundle: it has no .manifest" in stderr


def test_an_opa_bundle_not_built_by_the_engine_is_refused(tmp_path: Path, inputs: Path) -> None:
    source = write(tmp_path / "src" / "x.rego", "package x\nimport rego.v1\ny := 1\n")
    out = tmp_path / "opa.tar.gz"
    subprocess.run(
        [
            str(find_opa().path),
            "build",
            "-t",
            "wasm",
            "-e",
            "x/y",
            "-b",
            str(source.parent),
            "-o",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    with pytest.raises(BundleError, match="not one rego-engine built"):
        read_bundle(out)


def test_bundle_and_rule_paths_together_are_refused(small_bundle: Path, inputs: Path) -> None:
    result = CliRunner().invoke(
        app, ["scan", str(inputs), "--bundle", str(small_bundle), "-d", "rules"]
    )
    assert result.exit_code == 2
    assert "not both" in result.stderr


def test_a_bundle_for_another_wasm_abi_is_refused(
    tmp_path: Path, inputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(RuleEvaluator, "abi_version", property(lambda self: "2.0"))
    out = _build_small(tmp_path, "abi2.tar.gz")
    monkeypatch.undo()
    code, stderr = _scan_with(out, inputs)
    assert code == 2
    assert f"{out}: Wasm ABI 2.0; this engine runs ABI 1.x" in stderr


def test_workers_scan_a_bundle_with_no_opa_and_compile_nothing(
    tmp_path: Path, rules: Path, inputs: Path
) -> None:
    assert _run(["build", "-d", "rules", "-o", "rules.tar.gz"], cwd=tmp_path).returncode == 2
    outputs = []
    for jobs in ("1", "2"):
        cache = tmp_path / f"cache{jobs}"
        cache.mkdir()
        scan_args = ["scan", "inputs", "--bundle", "rules.tar.gz", "--jobs", jobs]
        result = _run(scan_args, cwd=tmp_path, env=_no_opa_env(cache))
        outputs.append((result.returncode, result.stderr, result.stdout))
        # Native code compiled once (by the parent) for the policy's copy that
        # records attribute reads (a scan runs only that one), and the HCL parser's
        # tables; nothing compiled.
        assert sorted(p.name for p in cache.iterdir()) == ["hcl-parser", "native"]
        assert len(list((cache / "native").iterdir())) == 1
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 2 and outputs[0][2]


def test_build_reports_rule_trees_without_rules(tmp_path: Path) -> None:
    write(tmp_path / "lib" / "x.rego", "package lib.x\nimport rego.v1\ny := 1\n")
    result = CliRunner().invoke(
        app, ["build", "-d", str(tmp_path / "lib"), "-o", str(tmp_path / "b.tar.gz")]
    )
    assert result.exit_code == 2
    assert "no rules found" in result.stderr
    missing = CliRunner().invoke(
        app, ["build", "-d", str(tmp_path / "lib"), "-o", str(tmp_path / "no" / "b.tar.gz")]
    )
    assert missing.exit_code == 2 and "no/b.tar.gz" in missing.stderr


def test_a_bundle_resolves_supertypes_and_derived_relations(tmp_path: Path) -> None:
    rules = write(tmp_path / "rules" / "derived.rego", DERIVED_RULES).parent
    inputs = [REPO_ROOT / "examples" / "kubernetes", REPO_ROOT / "examples" / "terraform"]
    out = tmp_path / "b.tar.gz"
    engine.build_bundle([rules], out)
    from_source = engine.scan(inputs, [rules])
    with_bundle = engine.scan(inputs, [], engine.ScanOptions(bundle=out))
    assert with_bundle.to_json() == from_source.to_json()
    messages = {r.message for r in from_source.failing_results()}
    assert messages == {"a workload", "referenced"}
