"""The precompiled shipped pack: used when the install carries one this engine built,
else the default scan compiles ``rego/rules`` as before."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracle import needs_opa

from engine.cli.main import app
from engine.core.paths import PRECOMPILED_PACK, REPO_ROOT
from engine.evaluation import bundle as bundle_module
from engine.evaluation import shipped_pack
from engine.evaluation.bundle import build_bundle, bundle_abi
from engine.evaluation.shipped_pack import precompiled_pack

EXAMPLES = REPO_ROOT / "examples"
CUSTOM_RULES = EXAMPLES / "custom-rules"


@pytest.fixture(scope="module")
def custom_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pack of the example custom rules, standing in for the shipped pack."""
    out = tmp_path_factory.mktemp("pack") / "rule-pack.tar.gz"
    build_bundle([CUSTOM_RULES], out)
    return out


def test_a_source_checkout_has_no_precompiled_pack() -> None:
    assert not PRECOMPILED_PACK.exists()
    assert precompiled_pack() is None


def test_a_file_that_is_not_a_bundle_is_not_taken(tmp_path: Path) -> None:
    junk = tmp_path / "rule-pack.tar.gz"
    junk.write_bytes(b"not gzip")
    assert precompiled_pack(junk) is None
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        data = json.dumps({"metadata": []}).encode()
        info = tarfile.TarInfo("/.manifest")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    junk.write_bytes(gzip.compress(raw.getvalue()))
    assert precompiled_pack(junk) is None


@needs_opa
def test_a_pack_built_by_this_engine_is_taken(custom_pack: Path) -> None:
    assert precompiled_pack(custom_pack) == custom_pack
    abi = bundle_abi(custom_pack)
    assert abi is not None and abi.startswith("1.")


@needs_opa
def test_a_pack_built_by_another_engine_version_is_not_taken(
    custom_pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle_module, "engine_version", lambda: "0.0.9")
    assert precompiled_pack(custom_pack) is None


@needs_opa
def test_scan_without_d_runs_the_precompiled_pack(
    custom_pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setattr(shipped_pack, "precompiled_pack", lambda: precompiled_pack(custom_pack))
    result = CliRunner().invoke(app, ["scan", "examples/terraform", "-f", "json"])
    assert result.exit_code == 1, result.output
    ran = {rr["id"] for r in json.loads(result.stdout)["results"] for rr in r["rule_results"]}
    assert ran == {"EXAMPLE_001", "EXAMPLE_002", "EXAMPLE_004"}


@needs_opa
def test_scan_without_d_compiles_the_shipped_rules_when_the_pack_is_stale(
    custom_pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setattr(bundle_module, "engine_version", lambda: "0.0.9")
    monkeypatch.setattr(shipped_pack, "precompiled_pack", lambda: precompiled_pack(custom_pack))
    result = CliRunner().invoke(app, ["scan", "examples/terraform", "-f", "json"])
    assert result.exit_code == 1, result.output
    ran = {rr["id"] for r in json.loads(result.stdout)["results"] for rr in r["rule_results"]}
    assert "RE-AWS-001" in ran and not any(i.startswith("EXAMPLE_") for i in ran)


@needs_opa
def test_rules_without_d_lists_the_precompiled_pack(
    custom_pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shipped_pack, "precompiled_pack", lambda: precompiled_pack(custom_pack))
    result = CliRunner().invoke(app, ["rules", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert "EXAMPLE_001" in result.stdout and "RE-AWS-001" not in result.stdout
